// fast_product.h — the wall between matmul() and the code that exists only for speed. Behind
// it (fast_product.cpp, tiles.h, threads.h): packed strips, register tiles, prefetching and the
// threads; in front of it, core/matmul.cpp's plain loop, which gives the same bits, and which
// this one replaces when plug_in.cpp is linked (core/product_loops.h).
#pragma once
#include "core/matrix.h"

// a or aᵀ times b or bᵀ (the inner sizes already checked by the caller): the same numbers, bit
// for bit, as the naive loop over the same views.
Matrix fast_product(const Matrix& a, bool a_transposed, const Matrix& b, bool b_transposed);
