// matmul.h — matrix products, the one operation that costs: nearly all of a Transformer's
// arithmetic happens here. The textbook loop is kept beside the fast one as its reference.
#pragma once
#include "core/matrix.h"

Matrix matmul(const Matrix& a, const Matrix& b);        // (rows x inner)·(inner x cols)
Matrix matmul_naive(const Matrix& a, const Matrix& b);  // the same, the textbook i-j-p loop
Matrix matmul_bt(const Matrix& a, const Matrix& b);     // a·bᵀ: (rows x inner)·(cols x inner)ᵀ
Matrix matmul_at(const Matrix& a, const Matrix& b);     // aᵀ·b: (inner x rows)ᵀ·(inner x cols)
