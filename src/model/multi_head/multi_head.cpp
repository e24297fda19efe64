// multi_head.cpp — chapter 4: multi-head attention around the head loop (heads.h): the
// projections, RoPE's rotations (chapter 10), the keys and values kept by decoding (chapter 9),
// stacks of sequences; the per-head reading of the projections; and the backward pass.
#include "model/multi_head/multi_head.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "model/attention/attention.h"
#include "model/multi_head/heads.h"
#include "model/multi_head/linear.h"
#include "model/positions/rotary.h"

namespace {

// The inputs against the weights and who attends to whom (at the end of this file).
void check_inputs(const Matrix& x_q, const Matrix& x_kv, const MultiHeadWeights& w,
                  const Attending& who, const KeptKV* kept);

// The position of every query row (RoPE): q_first, q_first + 1, … within each sequence.
std::vector<std::size_t> query_positions(const Attending& who) {
    std::vector<std::size_t> p;
    for (std::size_t s = 0; s < who.q.sequences(); ++s)
        for (std::size_t r = 0; r < who.q.length(s); ++r) p.push_back(who.q_first + r);
    return p;
}

// The position of every key row: `first`, first + 1, … within each sequence (0 for whole
// sequences; after the kept keys when decoding appends to them).
std::vector<std::size_t> key_positions(const Stacking& kv, std::size_t first = 0) {
    std::vector<std::size_t> p;
    for (std::size_t s = 0; s < kv.sequences(); ++s)
        for (std::size_t r = 0; r < kv.length(s); ++r) p.push_back(first + r);
    return p;
}

// The heads of these weights, under the switches of who attends to whom (ALiBi, the queries'
// first position, tiles): the options of heads.h's loop.
HeadOptions head_options(const MultiHeadWeights& w, const Attending& who) {
    return {w.n_heads, w.kv_heads(), who.positions, who.q_first, who.tile};
}

// Decoding (chapter 9): x_kv's keys and values appended to the ones kept (RoPE: rotated to the
// positions after them); a fixed kept (the memory's) is only read.
void keep_keys_values(const Matrix& x_kv, const MultiHeadWeights& w, const Attending& who,
                      KeptKV& kept) {
    if (kept.fixed) return;
    KeptKV kv = keys_values(x_kv, w);
    if (who.positions == InAttention::Rope)  // the new keys follow the kept: kept.K.rows, …
        kv.K = rope_rotate(kv.K, w.d_k(), key_positions(one_sequence(kv.K.rows), kept.K.rows));
    append_rows(kept.K, kv.K);
    append_rows(kept.V, kv.V);
}

}  // namespace

MultiHeadCache::MultiHeadCache() = default;
MultiHeadCache::MultiHeadCache(const MultiHeadCache&) = default;
MultiHeadCache::MultiHeadCache(MultiHeadCache&&) noexcept = default;
MultiHeadCache& MultiHeadCache::operator=(const MultiHeadCache&) = default;
MultiHeadCache& MultiHeadCache::operator=(MultiHeadCache&&) noexcept = default;
MultiHeadCache::~MultiHeadCache() = default;

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
    if (cache) {  // what the backward pass reads again: the inputs, who attended to whom
        c = MultiHeadCache();
        c.x_q = x_q, c.x_kv = x_kv, c.who = who;
    }
    c.heads.clear();
    const bool rope = who.positions == InAttention::Rope;  // chapter 10: rotate Q and K
    c.Q = linear(x_q, w.W_Q, w.b_Q);  // (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    if (rope) c.q_positions = query_positions(who), c.Q = rope_rotate(c.Q, w.d_k(), c.q_positions);
    if (kept) {  // chapter 9's decoding: the keys and values of earlier calls, and this one's
        keep_keys_values(x_kv, w, who, *kept);
        if (cache) c.K = kept->K, c.V = kept->V;  // read where kept; copied for a backward pass
    } else {
        KeptKV kv = keys_values(x_kv, w);  // (m x d_model)·(d_model x h·d_k) -> (m x h·d_k)
        c.K = std::move(kv.K), c.V = std::move(kv.V);
        if (rope)
            c.k_positions = key_positions(who.kv), c.K = rope_rotate(c.K, w.d_k(), c.k_positions);
    }
    const Matrix& K = kept ? kept->K : c.K;
    const Matrix& V = kept ? kept->V : c.V;
    c.concat = attend_heads(c.Q, K, V, who.q, who.kv, who.masks, head_options(w, who), &c.heads);
    return linear(c.concat, w.W_O, w.b_O);  // (n x h·d_v)·(h·d_v x d_model) -> (n x d_model)
}

MultiHeadInputGrads multi_head_attention_backward(const Matrix& d_output, const MultiHeadWeights& w,
                                                  const MultiHeadCache& c, MultiHeadWeights& grad) {
    // output = concat·W_O + b_O
    const Matrix d_concat = linear_backward(d_output, c.concat, w.W_O, grad.W_O, grad.b_O);
    // concat = the heads of each sequence (heads.h)
    AttentionGrads g = attend_heads_backward(d_concat, c.Q, c.K, c.V, c.who.q, c.who.kv,
                                             c.who.masks, head_options(w, c.who), c.heads);
    Matrix dQ = std::move(g.dQ), dK = std::move(g.dK), dV = std::move(g.dV);
    if (!c.q_positions.empty()) {  // RoPE: back through the rotations (their transposes)
        dQ = rope_rotate(dQ, w.d_k(), c.q_positions, true);
        dK = rope_rotate(dK, w.d_k(), c.k_positions, true);
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
    const std::size_t d_k = w.d_k(), d_v = w.d_v();
    MultiHeadCache local;
    MultiHeadCache& c = cache ? *cache : local;
    // W_Q^i (d_model x d_k): x_q·W_Q^i is head i's own projection; key/value head j's likewise
    std::vector<Matrix> Q, K, V;
    for (std::size_t i = 0; i < w.n_heads; ++i)
        Q.push_back(
            linear(x_q, column_block(w.W_Q, i * d_k, d_k), bias_block(w.b_Q, i * d_k, d_k)));
    for (std::size_t j = 0; j < w.kv_heads(); ++j) {
        K.push_back(
            linear(x_kv, column_block(w.W_K, j * d_k, d_k), bias_block(w.b_K, j * d_k, d_k)));
        V.push_back(
            linear(x_kv, column_block(w.W_V, j * d_v, d_v), bias_block(w.b_V, j * d_v, d_v)));
    }
    c.heads.clear();
    c.concat = attend_heads(concat_columns(Q), concat_columns(K), concat_columns(V), mask,
                            head_options(w, within_one(x_q.rows, x_kv.rows, mask)), &c.heads);
    return linear(c.concat, w.W_O, w.b_O);
}

// --- checks ---------------------------------------------------------------------------------

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
            throw std::invalid_argument("mask: expected (" + std::to_string(who.q.length(s)) +
                                        "x" + std::to_string(who.kv.length(s)) +
                                        ") (queries x keys), got " + shape_of(mask));
    }
}

}  // namespace
