// stored_weights.h — a weight matrix kept in fewer bits, and the one-row product decoding needs
// (chapter 13): float32, bfloat16 or float16 values (each rounded to its format, held as float32,
// which holds every one of them exactly), or 8-bit integers in groups of 32 along the input with
// a float32 scale per group and output (core/int8_groups.h).
//
// The product y = x·W for one row x reads W once, in order: W (d_in x d_out) is kept in panels of
// 64 columns, each panel's rows one after the other (as core/'s packed strips), and a panel's 64
// sums stay in registers — the local array acc[64] — across the whole input. Each y_j is summed
// by one thread in p's order (with int8: group after group), so every thread count gives the
// same bits; the textbook loop beside it is the reference the tests hold it to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/matrix.h"

enum class WeightFormat { Float32, BFloat16, Float16, Int8 };

constexpr std::size_t panel_width = 64;  // columns a panel holds: 4 vectors of 16 floats

struct StoredWeights {
    WeightFormat format = WeightFormat::Float32;
    std::size_t rows = 0, cols = 0;  // W of x·W: (d_in x d_out)
    // Panel k holds columns 64k … 64k + 63 (the last padded with zero columns): row p of it at
    // [(k·rows + p)·64], scales of group g at [(k·groups + g)·64].
    std::vector<float> values;       // float formats
    std::vector<std::int8_t> q;      // int8
    std::vector<float> scales;       // int8: one per group of int8_group rows and column
    std::size_t panels() const { return (cols + panel_width - 1) / panel_width; }
    std::size_t groups() const;
    // What it takes in its format: 4, 2 or 2 bytes a weight; int8 1 byte and its share of a
    // scale (a float per 32 weights).
    std::size_t bytes() const;
};

// W (d_in x d_out) in the format: through float32, as every narrower format is reached.
StoredWeights store_weights(const Matrix& W, WeightFormat format);

// A stored weight as a float64 (what the format kept of it).
double stored_value(const StoredWeights& W, std::size_t r, std::size_t c);

// y[0 … cols − 1] = x[0 … rows − 1]·W. With quantized_x, x is put in 8-bit groups too and each
// group's products are summed as integers (int8 weights only): llama.cpp's way; without it the
// int8 weights are read against float32 activations.
void times_stored(const float* x, const StoredWeights& W, float* y, bool quantized_x = false);

// Several products of one x at once — a layer's queries, keys and values: y = x·W for each, the
// panels of all of them shared out among the threads together, so that the threads meet once,
// not once a product, and a product's odd panel does not leave one thread waiting. The same
// bits as one product after another. Every W has x's length of rows.
struct StoredProduct {
    const StoredWeights* W;
    float* y;
};
void times_stored_together(const float* x, const std::vector<StoredProduct>& products,
                           bool quantized_x = false);

// The same, the textbook loop: for each j, for each p in order (the reference of the tests).
void times_stored_naive(const float* x, const StoredWeights& W, float* y,
                        bool quantized_x = false);
