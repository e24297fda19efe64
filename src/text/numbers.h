// numbers.h — numbers as text, the same in every language: a translation never changes how a
// number is printed (tr() takes them already formatted).
#pragma once
#include <string>

std::string fixed(double x, int decimals);  // 0.4683 (never "-0.00")
std::string sci(double x);                  // 1.2e-13
std::string general(double x, int digits);  // %g: 0.982013, 6.9e-13, 64
std::string grouped(unsigned long long n);  // 1,050,624: thousands separated by commas
