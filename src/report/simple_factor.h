// simple_factor.h — a ratio got ÷ expected named as the simple number it is, when it is one:
// "√5", "1/8", "2", "−1" (a scale added or left out, as attention's 1/√d_k, shows so).
#pragma once
#include <string>

// "" when r is no such number (to 1e-6 relative)
std::string simple_factor(double r);
