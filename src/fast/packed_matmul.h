// packed_matmul.h — products by a matrix packed once (decoding's output projection, chapter 12).
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"

// b packed once for many products by a row or a few (decoding: the output projection reads the
// whole embedding table at every token): strips of 32 columns, each stored contiguously, so that
// a product reads b from memory in one pass, in order — faster than matmul_bt's dot products
// reading the table as it lies, once the packing, done once, is paid (tests/bench/README.md).
struct PackedMatrix {
    std::size_t rows = 0, cols = 0;  // of b
    std::vector<double> strips;      // strip s holds columns 32s … 32s+31, row by row
};
PackedMatrix pack_transposed(const Matrix& b);                 // bᵀ, packed: for a·bᵀ
Matrix matmul_packed(const Matrix& a, const PackedMatrix& b);  // a·b: the same bits as matmul
