// multi_head.cpp — chapter 4: the fused and the per-head form of multi-head attention, and the
// backward pass of the fused form. What chapters 9–11 switch on inside them (RoPE, ALiBi, kept
// keys and values, tiles) is called from here and written in multi_head_switches.cpp.
#include "model/multi_head/multi_head.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "fast/threads.h"
#include "model/multi_head/linear.h"
#include "model/multi_head/multi_head_switches.h"

namespace {

// The inputs against the weights and who attends to whom (at the end of this file).
void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                  const Attending& who, const KeptKV* kept);

void add_to_submatrix(Matrix& into, std::size_t r0, std::size_t c0, const Matrix& block) {
    for (std::size_t r = 0; r < block.rows; ++r)
        for (std::size_t c = 0; c < block.cols; ++c) into(r0 + r, c0 + c) += block(r, c);
}

}  // namespace

Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Matrix& mask, MultiHeadCache* cache) {
    return multi_head_attention(x_q, x_kv, w, within_one(x_q.rows, x_kv.rows, mask), cache);
}

KeptKV keys_values(const Matrix& x_kv, const MultiHeadWeights& w) {
    // one projection for all heads: (m x d_model)·(d_model x h·d_k) -> (m x h·d_k)
    return {linear(x_kv, w.W_K, w.b_K), linear(x_kv, w.W_V, w.b_V)};
}

Matrix multi_head_attention(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                            const Attending& who, MultiHeadCache* cache, KeptKV* kept) {
    check_inputs(x_q, x_kv, w, who, kept);
    MultiHeadCache local;
    MultiHeadCache& c = cache ? *cache : local;
    if (cache) c = {x_q, x_kv, {}, {}, {}, {}, {}, who, {}, {}};  // kept for the backward pass
    c.Q = linear(x_q, w.W_Q, w.b_Q);  // (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    rotate_queries(c, w.d_k(), who);  // chapter 10's RoPE; nothing otherwise
    if (kept) {                       // chapter 9's decoding: the keys and values of earlier calls
        keep_keys_values(x_kv, w, who, *kept);
        if (cache) c.K = kept->K, c.V = kept->V;  // read where kept; copied for a backward pass
    } else {
        KeptKV kv = keys_values(x_kv, w);  // (m x d_model)·(d_model x h·d_k) -> (m x h·d_k)
        c.K = std::move(kv.K), c.V = std::move(kv.V);
        rotate_keys(c, w.d_k(), who);
    }
    const Matrix& K = kept ? kept->K : c.K;
    const Matrix& V = kept ? kept->V : c.V;
    c.concat = attend_heads(c.Q, K, V, w.n_heads, who, &c.heads);  // (n x h·d_v)
    return linear(c.concat, w.W_O, w.b_O);                          // (n x d_model)
}

Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, std::size_t n_heads,
                    const Attending& who, std::vector<AttentionResult>* heads) {
    const std::size_t d_k = Q.cols / n_heads, kv_heads = K.cols / d_k, d_v = V.cols / kv_heads;
    const std::size_t group = n_heads / kv_heads;  // query heads per key/value head
    const std::vector<double> slopes = slopes_of(who, n_heads);
    const std::size_t count = who.q.sequences() * n_heads;  // (sequence, head) pairs
    std::vector<AttentionResult> results(count);
    Matrix concat(Q.rows, n_heads * d_v);
    // each pair is independent, writing its own block of concat: the threads share them out
    parallel_for(
        count,
        Q.rows * K.rows * (d_k + d_v) * n_heads / std::max<std::size_t>(1, who.q.sequences()),
        [&](std::size_t t) {
            const std::size_t s = t / n_heads, i = t % n_heads,
                              j = i / group;  // j: i's key/value head
            const std::size_t q0 = who.q.first(s), n = who.q.length(s), k0 = who.kv.first(s),
                              m = who.kv.length(s);
            // head i reads its own block of columns: PyTorch's view(n, h, d_k).transpose(0, 1)
            results[t] =
                attend(submatrix(Q, q0, n, i * d_k, d_k), submatrix(K, k0, m, j * d_k, d_k),
                       submatrix(V, k0, m, j * d_v, d_v), head_mask(who, s, i, slopes), who.tile);
            set_submatrix(concat, q0, i * d_v, results[t].output);  // (n x h·d_v)
        });
    if (heads) *heads = std::move(results);  // sequence by sequence, head by head
    return concat;
}

MultiHeadInputGrads multi_head_attention_backward(const Matrix& d_output, const MultiHeadWeights& w,
                                                  const MultiHeadCache& c, MultiHeadWeights& grad) {
    const std::size_t d_k = w.d_k(), d_v = w.d_v(), h = w.n_heads, group = h / w.kv_heads();
    // output = concat·W_O + b_O
    const Matrix d_concat = linear_backward(d_output, c.concat, w.W_O, grad.W_O, grad.b_O);
    // concat = [head_0 … head_h−1] of each sequence; head = attention(its blocks of Q, K, V)
    Matrix dQ(c.Q.rows, c.Q.cols), dK(c.K.rows, c.K.cols), dV(c.V.rows, c.V.cols);
    const std::vector<double> slopes = c.who.tile ? slopes_of(c.who, h) : std::vector<double>();
    for (std::size_t s = 0; s < c.who.q.sequences(); ++s) {
        const std::size_t q0 = c.who.q.first(s), n = c.who.q.length(s);
        const std::size_t k0 = c.who.kv.first(s), m = c.who.kv.length(s);
        for (std::size_t i = 0; i < h; ++i) {
            const std::size_t j = i / group;  // its key/value head, shared by `group` heads
            const AttentionGrads g = attend_backward(
                submatrix(d_concat, q0, n, i * d_v, d_v), submatrix(c.Q, q0, n, i * d_k, d_k),
                submatrix(c.K, k0, m, j * d_k, d_k), submatrix(c.V, k0, m, j * d_v, d_v),
                c.heads[s * h + i], c.who.tile ? head_mask(c.who, s, i, slopes) : Matrix(),
                c.who.tile);
            set_submatrix(dQ, q0, i * d_k, g.dQ);
            add_to_submatrix(dK, k0, j * d_k, g.dK);  // every head that read it adds its part
            add_to_submatrix(dV, k0, j * d_v, g.dV);
        }
    }
    rotate_back(dQ, dK, d_k, c);  // RoPE: back through the rotations (their transposes)
    // Q = x_q·W_Q + b_Q;  K = x_kv·W_K + b_K;  V = x_kv·W_V + b_V
    MultiHeadInputGrads in;
    in.dx_q = linear_backward(dQ, c.x_q, w.W_Q, grad.W_Q, grad.b_Q);
    in.dx_kv = linear_backward(dK, c.x_kv, w.W_K, grad.W_K, grad.b_K);
    add_to(in.dx_kv, linear_backward(dV, c.x_kv, w.W_V, grad.W_V, grad.b_V));
    return in;
}

// Head i's slice of a bias row, or an empty matrix when there is no bias.
static Matrix bias_block(const Matrix& b, std::size_t first, std::size_t count) {
    return b.empty() ? Matrix() : column_block(b, first, count);
}

Matrix multi_head_attention_per_head(const Matrix& x_q, const Matrix& x_kv,
                                     const MultiHeadWeights& w, const Matrix& mask,
                                     MultiHeadCache* cache) {
    check_inputs(x_q, x_kv, w, within_one(x_q.rows, x_kv.rows, mask), nullptr);
    const std::size_t d_k = w.d_k(), d_v = w.d_v(), group = w.n_heads / w.kv_heads();
    MultiHeadCache local;
    MultiHeadCache& c = cache ? *cache : local;
    c.heads.clear();
    std::vector<Matrix> outputs;
    for (std::size_t i = 0; i < w.n_heads; ++i) {
        // W_Q^i (d_model x d_k): x_q·W_Q^i is head i's own projection
        const Matrix Q_i =
            linear(x_q, column_block(w.W_Q, i * d_k, d_k), bias_block(w.b_Q, i * d_k, d_k));
        const Matrix K_i = linear(x_kv, column_block(w.W_K, i / group * d_k, d_k),
                                  bias_block(w.b_K, i / group * d_k, d_k));
        const Matrix V_i = linear(x_kv, column_block(w.W_V, i / group * d_v, d_v),
                                  bias_block(w.b_V, i / group * d_v, d_v));
        c.heads.push_back(attention(Q_i, K_i, V_i, mask));
        outputs.push_back(c.heads.back().output);
    }
    c.concat = concat_columns(outputs);
    return linear(c.concat, w.W_O, w.b_O);
}

std::size_t parameter_count(const MultiHeadWeights& w) {
    std::size_t n = 0;
    for (const Matrix* m : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O, &w.b_Q, &w.b_K, &w.b_V, &w.b_O})
        n += m->data.size();
    return n;
}

// --- checks ---------------------------------------------------------------------------------

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

namespace {

void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                         const Attending& who, const KeptKV* kept) {
    check_multi_head(w);
    const bool reads_x_kv = !kept || !kept->fixed;
    if (x_q.cols != w.d_model() || (reads_x_kv && x_kv.cols != w.d_model()))
        throw std::invalid_argument("multi-head attention: inputs " + shape_of(x_q) + " and " +
                                    shape_of(x_kv) +
                                    " need d_model = " + std::to_string(w.d_model()) + " columns");
    const std::size_t keys =
        kept ? kept->K.rows + (reads_x_kv ? x_kv.rows : 0) : x_kv.rows;  // after this call
    if (who.q.rows() != x_q.rows || who.kv.rows() != keys ||
        who.q.sequences() != who.kv.sequences() || who.masks.size() != who.q.sequences())
        throw std::invalid_argument(
            "multi-head attention: the stacked sequences do not fit the inputs");
    for (std::size_t s = 0; s < who.masks.size(); ++s) {
        const Matrix& mask = who.masks[s];
        if (!mask.empty() && (mask.rows != who.q.length(s) || mask.cols != who.kv.length(s)))
            throw std::invalid_argument("mask: expected " +
                                        shape(who.q.length(s), who.kv.length(s)) +
                                        " (queries x keys), got " + shape_of(mask));
    }
}

}  // namespace
