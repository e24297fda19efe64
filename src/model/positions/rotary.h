// rotary.h — rotary position embedding, RoPE (Su et al. 2021; LLaMA): positions that act inside
// attention instead of being added to the embeddings (chapter 10).
//
// Each head's query and key vectors are cut into pairs of columns (2i, 2i + 1), and the pair of
// a vector at position p is rotated by the angle p·θ_i, θ_i = base^(−2i/d_k):
//
//   (x_2i, x_2i+1)  ->  (x_2i·cos pθ_i − x_2i+1·sin pθ_i,  x_2i·sin pθ_i + x_2i+1·cos pθ_i)
//
// A rotation by mθ of the query and by nθ of the key leaves, in their dot product, only the
// rotation by (m − n)θ: the score depends on the distance m − n and not on m and n (chapter 10
// shows it with numbers). The frequencies are chapter 5's sinusoidal ones, with d_k in place of
// d_model. LLaMA writes the same as a multiplication of complex numbers (the oracle does so).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

constexpr double rope_base = 10000.0;

// θ_i of the column pair i of a head of width d_k.
double rope_frequency(std::size_t i, std::size_t d_k);

// x (rows x heads·d_k), every head's block of d_k columns side by side; row r at position
// positions[r]. Returns x with every pair of every head rotated by positions[r]·θ_i, or by
// −positions[r]·θ_i with inverse (the transpose of the rotation: the backward pass). d_k must
// be even.
// RoPE rotates pairs of columns: it needs an even d_k (the one rule, read by configs too).
inline bool rope_fits(std::size_t d_k) { return d_k > 0 && d_k % 2 == 0; }

Matrix rope_rotate(const Matrix& x, std::size_t d_k, const std::vector<std::size_t>& positions,
                   bool inverse = false);
