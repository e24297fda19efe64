// matmul.h — matrix products, the one operation that costs: nearly all of a Transformer's
// arithmetic happens here. The textbook loop is kept beside the fast one as its reference.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

Matrix matmul(const Matrix& a, const Matrix& b);        // (rows x inner)·(inner x cols)
Matrix matmul_naive(const Matrix& a, const Matrix& b);  // the same, the textbook i-j-p loop
Matrix matmul_bt(const Matrix& a, const Matrix& b);     // a·bᵀ: (rows x inner)·(cols x inner)ᵀ
Matrix matmul_at(const Matrix& a, const Matrix& b);     // aᵀ·b: (inner x rows)ᵀ·(inner x cols)

// b packed once for many products by a row or a few (decoding: the output projection reads the
// whole embedding table at every token): strips of 32 columns, each stored contiguously, so that
// a product reads b from memory in one pass, in order. On the 32,000 x 288 table of a decoder
// at llama2.c's stories15M shape, a product took 2.0–3.3 ms here against 4.9–5.2 ms for the dot
// products of matmul_bt reading the table as it lies; packing it takes about 50 ms, once.
struct PackedMatrix {
    std::size_t rows = 0, cols = 0;  // of b
    std::vector<double> strips;      // strip s holds columns 32s … 32s+31, row by row
};
PackedMatrix pack_transposed(const Matrix& b);                 // bᵀ, packed: for a·bᵀ
Matrix matmul_packed(const Matrix& a, const PackedMatrix& b);  // a·b: the same bits as matmul
