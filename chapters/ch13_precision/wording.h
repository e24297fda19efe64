// ch13_precision/wording.h — numbers, shares and readings as chapter 13 writes them.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "ch13_precision/inputs.h"
#include "text/numbers.h"
#include "text/translate.h"

inline std::string percent(double x) { return fixed(100 * x, 1) + "%"; }

// A number as the narration shows it, infinities and NaN included (they are the point here),
// a negative one with the minus sign the prose writes (−65504 beside −∞, not -65504).
inline std::string shown(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "∞" : "−∞";
    return x < 0 ? "−" + general(-x, 4) : general(x, 4);
}
// The same, every digit (a format's own number, such as −65504 or −998244352).
inline std::string shown_exactly(double x) { return x < 0 ? "−" + general(-x, 17) : general(x, 17); }

// A reading as the table names it.
inline std::string reading_text(const Reading& r) {
    if (r.float64) return tr("float64 throughout");
    if (r.half_activations) return tr("float16 throughout");
    if (r.quantized_activations) return tr("int8 weights and activations");
    return tr("{} weights, float32 arithmetic", r.name);
}

// A float's bits in hexadecimal, digits long: "0x3c00".
inline std::string hex_bits(std::uint64_t b, int digits) {
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (int i = digits - 1; i >= 0; --i) s += hex[(b >> (4 * i)) & 15];
    return "0x" + s;
}
