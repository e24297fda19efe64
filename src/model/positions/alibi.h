// alibi.h — attention with linear biases, ALiBi (Press et al. 2022): no position vector at all;
// each head adds to the score of a query at i for a key at j the bias −m·|i − j|, a penalty
// growing with the distance, at a slope m of its own (chapter 10).
//
// The slopes form a geometric sequence: for h heads (a power of 2) m_k = 2^(−8k/h), k = 1 … h
// (8 heads: 1/2, 1/4, …, 1/256); for other h, the paper's rule: the slopes of the power of 2
// just below h, then every other slope of twice that many heads. Steep heads look near, shallow
// ones far.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

std::vector<double> alibi_slopes(std::size_t n_heads);

// (n x m): −slope·|i − j| for queries at positions q_first … q_first + n − 1 and keys at
// positions 0 … m − 1.
Matrix alibi_bias(std::size_t n, std::size_t m, double slope, std::size_t q_first = 0);
