// multi_head.cpp — the fused and the per-head form of multi-head attention, and the backward
// pass of the fused form.
#include "model/3_multi_head/multi_head.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "core/threads.h"
#include "model/1_attention/tiled_attention.h"
#include "model/2_positions/alibi.h"
#include "model/2_positions/rotary.h"
#include "model/3_multi_head/linear.h"

// "(rows x cols)" of a shape, without making the matrix
static std::string shape(std::size_t rows, std::size_t cols) {
    return "(" + std::to_string(rows) + "x" + std::to_string(cols) + ")";
}

void check_multi_head(const MultiHeadWeights& w) {
    const std::size_t d = w.W_Q.rows, h = w.n_heads, kv = w.kv_heads();
    auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
    if (h < 1) fail("n_heads: expected at least 1");
    if (h % kv != 0)
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

static void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
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

Attending within_one(std::size_t n, std::size_t m, const Matrix& mask) {
    return {one_sequence(n), one_sequence(m), {mask}};
}

namespace {

// The position of every query row (RoPE): q_first, q_first + 1, … within each sequence.
std::vector<std::size_t> query_positions(const Attending& who) {
    std::vector<std::size_t> p;
    for (std::size_t s = 0; s < who.q.sequences(); ++s)
        for (std::size_t r = 0; r < who.q.length(s); ++r) p.push_back(who.q_first + r);
    return p;
}

// The position of every key row: 0, 1, … within each sequence.
std::vector<std::size_t> key_positions(const Stacking& kv) {
    std::vector<std::size_t> p;
    for (std::size_t s = 0; s < kv.sequences(); ++s)
        for (std::size_t r = 0; r < kv.length(s); ++r) p.push_back(r);
    return p;
}

// Positions first, first + 1, …: the rows a call appends to the keys kept so far.
std::vector<std::size_t> positions_from(std::size_t first, std::size_t count) {
    std::vector<std::size_t> p(count);
    for (std::size_t r = 0; r < count; ++r) p[r] = first + r;
    return p;
}

// ALiBi's slopes, one per head, when the positions are ALiBi's; none otherwise.
std::vector<double> slopes_of(const Attending& who, std::size_t n_heads) {
    return who.positions == InAttention::Alibi ? alibi_slopes(n_heads) : std::vector<double>();
}

// The additive mask head i of sequence s attends with: the sequence's own, plus ALiBi's bias
// −m_i·|distance| when there are slopes.
Matrix head_mask(const Attending& who, std::size_t s, std::size_t i,
                 const std::vector<double>& slopes) {
    if (slopes.empty()) return who.masks[s];
    const Matrix bias = alibi_bias(who.q.length(s), who.kv.length(s), slopes[i], who.q_first);
    return who.masks[s].empty() ? bias : add(who.masks[s], bias);
}

// One head's attention, the standard way (weights kept) or block by block (Attending::tile).
AttentionResult attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                       std::size_t tile) {
    if (!tile) return attention(Q, K, V, mask);
    TiledAttention t = tiled_attention(Q, K, V, {false, {}, mask}, {tile, tile});
    AttentionResult r;
    r.output = std::move(t.output);
    r.scale = t.scale;
    r.lse = std::move(t.lse);
    return r;
}

// The backward pass of attend: from the kept weights, or recomputing them block by block.
AttentionGrads attend_backward(const Matrix& dO, const Matrix& Q, const Matrix& K, const Matrix& V,
                               const AttentionResult& head, const Matrix& mask, std::size_t tile) {
    if (!tile) return attention_backward(dO, Q, K, V, head);
    TiledAttention t;
    t.output = head.output;
    t.lse = head.lse;
    t.scale = head.scale;
    return tiled_attention_backward(dO, Q, K, V, t, {false, {}, mask}, {tile, tile});
}

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
    const bool rope = who.positions == InAttention::Rope;
    c.Q = linear(x_q, w.W_Q, w.b_Q);  // (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    if (rope) {                       // each query rotated by its position
        c.q_positions = query_positions(who);
        c.Q = rope_rotate(c.Q, w.d_k(), c.q_positions);
    }
    const Matrix *K = &c.K, *V = &c.V;  // the keys and values attended to
    if (!kept) {
        KeptKV kv = keys_values(x_kv, w);
        if (rope) {
            c.k_positions = key_positions(who.kv);
            kv.K = rope_rotate(kv.K, w.d_k(), c.k_positions);
        }
        c.K = std::move(kv.K);
        c.V = std::move(kv.V);
    } else {  // decoding: the keys and values of earlier calls, and (unless fixed) x_kv's
        if (!kept->fixed) {
            KeptKV kv = keys_values(x_kv, w);
            if (rope)  // the new keys follow the ones kept: positions kept->K.rows, …
                kv.K = rope_rotate(kv.K, w.d_k(), positions_from(kept->K.rows, kv.K.rows));
            append_rows(kept->K, kv.K);
            append_rows(kept->V, kv.V);
        }
        K = &kept->K, V = &kept->V;  // read where they are kept; copied only for a backward pass
        if (cache) c.K = kept->K, c.V = kept->V;
    }
    c.concat = attend_heads(c.Q, *K, *V, w.n_heads, who, &c.heads);
    return linear(c.concat, w.W_O, w.b_O);  // (n x d_model)
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
    if (!c.q_positions.empty()) {  // RoPE: back through the rotations (their transposes)
        dQ = rope_rotate(dQ, d_k, c.q_positions, true);
        dK = rope_rotate(dK, d_k, c.k_positions, true);
    }
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
