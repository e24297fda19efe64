// packed_matmul.h — the fast loops' prepared table (core/matmul.h: PreparedTable): bᵀ packed
// once in strips for many products by a row or a few (decoding's output projection, chapter 12).
#pragma once
#include "core/matmul.h"

// bᵀ packed for a·bᵀ: strips of NR columns of bᵀ (rows of b), each stored contiguously, so that
// a product reads b from memory in one pass, in order — faster than matmul_bt's dot products
// reading the table as it lies, once the packing, done once, is paid (tests/bench/README.md).
// Strip s holds columns NR·s … NR·s + NR − 1 of bᵀ, row by row.
PreparedTable pack_transposed(const Matrix& b);
// a·bᵀ from the packed strips: the same bits as matmul_bt.
Matrix matmul_packed(const Matrix& a, const PreparedTable& b);
