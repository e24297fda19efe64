// numbers.cpp — printf formats, and no "-0.00".
#include "text/numbers.h"

#include <cstdio>

std::string fixed(double x, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)
        s = s.substr(1);  // no "-0.00"
    return s;
}

std::string sci(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1e", x);
    return buf;
}

std::string general(double x, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    return buf;
}

std::string grouped(unsigned long long n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}
