// product_loops.h — the loops every matrix product runs through (matmul.h), and how a faster
// set is plugged in from above.
//
// core/ holds the definition, the plain loop of matmul.cpp, and runs it unless another set of
// loops is plugged in. fast/plug_in.cpp plugs in the fast loops (register tiles, packed strips,
// threads: fast/fast_product.h), which give the plain loop's numbers bit for bit; every program
// of the usual build links it. make PLAIN=1 builds the programs without it, into build/plain/:
// there every product is the plain loop, so an edit of that loop moves every chapter's numbers.
#pragma once
#include "core/matmul.h"

struct ProductLoops {
    const char* name;  // what a program says it ran: "plain", "fast"
    // a or aᵀ times b or bᵀ, the inner sizes already checked
    Matrix (*product)(const Matrix& a, bool a_transposed, const Matrix& b, bool b_transposed);
    // a table prepared once for many products a·bᵀ (matmul.h: PreparedTable), and such a product
    PreparedTable (*prepare)(const Matrix& b);
    Matrix (*prepared_product)(const Matrix& a, const PreparedTable& b);
};

// From now on, every product runs through these loops (called once, before main: plug_in.cpp).
void plug_in_products(const ProductLoops& loops);

// The loops products run through now: the plain ones until others are plugged in.
const ProductLoops& product_loops();
