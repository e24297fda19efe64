// plug_in.cpp — the fast loops plugged in under matmul() and its kin (core/product_loops.h):
// before main runs, every product takes fast_product.h's loops and decoding's prepared tables
// take packed_matmul.h's strips, each giving the plain loop's numbers bit for bit. The Makefile
// links this file into every program of the usual build, and leaves it out of make PLAIN=1's,
// whose products are all the plain loop of core/matmul.cpp.
#include "core/product_loops.h"
#include "fast/fast_product.h"
#include "fast/packed_matmul.h"

namespace {

struct PlugIn {
    PlugIn() { plug_in_products({"fast", fast_product, pack_transposed, matmul_packed}); }
} plugged_in;

}  // namespace
