// base64.h — bytes as text, in RFC 4648's alphabet (A–Z a–z 0–9 + /, '=' padding to a multiple
// of four characters): how a model file carries weights in bfloat16, two bytes each, inside JSON.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

std::string base64_encode(const std::vector<std::uint8_t>& bytes);
// False, with bytes left unspecified, for text that is not base64: a character outside the
// alphabet, a length not a multiple of four, padding anywhere but at the end.
bool base64_decode(const std::string& text, std::vector<std::uint8_t>& bytes);
