// base64.cpp — three bytes (24 bits) as four characters of six bits each.
#include "io/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::vector<std::uint8_t>& bytes) {
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = bytes.size() - i < 3 ? bytes.size() - i : 3;  // 1, 2 or 3 bytes
        std::uint32_t bits = std::uint32_t(bytes[i]) << 16;
        if (n > 1) bits |= std::uint32_t(bytes[i + 1]) << 8;
        if (n > 2) bits |= bytes[i + 2];
        for (std::size_t c = 0; c < 4; ++c)
            text += c <= n ? alphabet[(bits >> (18 - 6 * c)) & 63] : '=';
    }
    return text;
}

// A character's six bits, or −1 for one outside the alphabet.
static int six_bits(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

bool base64_decode(const std::string& text, std::vector<std::uint8_t>& bytes) {
    if (text.size() % 4 != 0) return false;
    bytes.clear();
    bytes.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        // "xy==" holds one byte, "xyz=" two; padding only in the last group's last two places
        const std::size_t pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
        std::uint32_t bits = 0;
        for (std::size_t c = 0; c < 4; ++c) {
            const int v = c >= 4 - pad ? 0 : six_bits(text[i + c]);
            if (v < 0) return false;
            bits = bits << 6 | std::uint32_t(v);
        }
        for (std::size_t b = 0; b < 3 - pad; ++b) bytes.push_back(std::uint8_t(bits >> (16 - 8 * b)));
    }
    return true;
}
