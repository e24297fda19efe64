// multi_head_weights.cpp — the weights of multi-head attention checked, and counted.
#include "model/multi_head/multi_head_weights.h"

#include <stdexcept>
#include <string>
#include <tuple>

std::size_t parameter_count(const MultiHeadWeights& w) {
    std::size_t n = 0;
    for (const Matrix* m : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O, &w.b_Q, &w.b_K, &w.b_V, &w.b_O})
        n += m->data.size();
    return n;
}

namespace {

// "(rows x cols)" of a shape, without making the matrix
std::string shape(std::size_t rows, std::size_t cols) {
    return "(" + std::to_string(rows) + "x" + std::to_string(cols) + ")";
}

}  // namespace

void check_multi_head(const MultiHeadWeights& w) {
    const std::size_t d = w.W_Q.rows, h = w.n_heads, kv = w.kv_heads();
    auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
    if (h < 1) fail("n_heads: expected at least 1");
    if (!kv_heads_fit(h, kv))
        fail("n_kv_heads: " + std::to_string(kv) +
             " does not divide n_heads = " + std::to_string(h));
    for (const auto& [name, W, heads] :
         {std::tuple<const char*, const Matrix*, std::size_t>{"W_Q", &w.W_Q, h},
          {"W_V", &w.W_V, kv}})
        if (W->cols % heads != 0)
            fail(std::string(name) + ": " + std::to_string(W->cols) +
                 " columns cannot be split into " + std::to_string(heads) + " heads");
    if (w.W_K.rows != d || w.W_K.cols != kv * w.d_k())
        fail("W_K: expected " + shape(d, kv * w.d_k()) + " (d_model x n_kv·d_k), got " +
             shape_of(w.W_K));
    if (w.W_V.rows != d)
        fail("W_V: expected " + std::to_string(d) + " rows (d_model), got " + shape_of(w.W_V));
    if (w.W_O.rows != h * w.d_v() || w.W_O.cols != d)
        fail("W_O: expected " + shape(h * w.d_v(), d) + " (h·d_v x d_model), got " +
             shape_of(w.W_O));
    const Matrix* biases[] = {&w.b_Q, &w.b_K, &w.b_V, &w.b_O};
    const Matrix* weights[] = {&w.W_Q, &w.W_K, &w.W_V, &w.W_O};
    const char* names[] = {"b_Q", "b_K", "b_V", "b_O"};
    for (int i = 0; i < 4; ++i)
        if (!biases[i]->empty() && (biases[i]->rows != 1 || biases[i]->cols != weights[i]->cols))
            fail(std::string(names[i]) + ": expected " + std::to_string(weights[i]->cols) +
                 " values");
}

