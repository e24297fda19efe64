// matmul.h — matrix products, the one operation that costs: nearly all of a Transformer's
// arithmetic happens here. Their definition is the plain loop of matmul.cpp; a faster loop with
// the same bits may be plugged in from above (product_loops.h), and make PLAIN=1 runs every
// product through the plain loop.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

Matrix matmul(const Matrix& a, const Matrix& b);     // (rows x inner)·(inner x cols)
Matrix matmul_bt(const Matrix& a, const Matrix& b);  // a·bᵀ: (rows x inner)·(cols x inner)ᵀ
Matrix matmul_at(const Matrix& a, const Matrix& b);  // aᵀ·b: (inner x rows)ᵀ·(inner x cols)
Matrix matmul_naive(const Matrix& a, const Matrix& b);  // matmul, always through the plain loop:
                                                        // what any faster loop is held to

// A table prepared once for many products a·bᵀ by a row or a few: decoding's logits read the
// whole output table (vocab x d_model) at every token. The plain loop reads b as it is; the fast
// loops keep it packed in strips (fast/packed_matmul.h), which stream from memory in order.
struct PreparedTable {
    std::size_t inner = 0, cols = 0;  // of bᵀ: a·bᵀ is (rows x inner)·(inner x cols)
    Matrix b;                         // b as given, for the plain loop (empty when packed)
    std::vector<double> packed;       // the fast loops' strips (empty for the plain loop)
};
PreparedTable prepare_bt(const Matrix& b);
Matrix matmul_bt_prepared(const Matrix& a, const PreparedTable& b);  // = matmul_bt(a, b)
