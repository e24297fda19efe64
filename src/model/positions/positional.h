// positional.h — ways to tell attention where a token stands.
//
// Attention itself is blind to order: permute the tokens and the outputs are the same rows,
// permuted (chapter 5 checks it). So the paper adds a position-dependent vector to each
// token's embedding. Four candidates the tutorial discusses, and the one the paper uses:
#pragma once
#include <cstddef>

#include "core/matrix.h"

Matrix integer_positions(std::size_t n);  // (n x 1): 0, 1, 2, … — grows without bound
Matrix scaled_positions(std::size_t n);   // (n x 1): pos / (n − 1), in [0, 1]
Matrix binary_positions(std::size_t n,
                        std::size_t bits);  // (n x bits): pos in binary, lowest bit first

// (n x d_model), the paper's §3.5:
//   PE(pos, 2i)     = sin(pos / 10000^(2i / d_model))
//   PE(pos, 2i + 1) = cos(pos / 10000^(2i / d_model))
// Each pair of columns is a point going round a circle at its own speed ω_i = 10000^(−2i/d).
// An odd d_model works: the last column is a sine whose cosine partner is missing.
// With first > 0, the rows of positions first … first + n − 1 (the same numbers, bit for bit).
Matrix sinusoidal_encoding(std::size_t n, std::size_t d_model, std::size_t first = 0);

// (d_model x d_model) block-diagonal: one 2x2 rotation by the angle offset·ω_i per pair of
// columns, so that PE(pos + offset) = PE(pos) · offset_rotation(offset, d_model) for every pos
// (row vectors). It depends on the offset only, never on pos. For an odd d_model the unpaired
// last column has no such rotation: it is left 0.
Matrix offset_rotation(std::size_t offset, std::size_t d_model);
