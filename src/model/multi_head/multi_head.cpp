// multi_head.cpp — chapter 4: multi-head attention around the head loop (heads.h): the
// projections, RoPE's rotations (chapter 10), the keys and values kept by decoding (chapter 9),
// stacks of sequences; the per-head reading of the projections; and the backward pass.
#include "model/multi_head/multi_head.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "fast/threads.h"
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
    if (kept) {  // chapter 9's decoding: one step, with the keys and values of earlier calls
        if (x_q.rows != 1 || who.q.sequences() != 1 || cache)
            throw std::invalid_argument(
                "multi-head attention: kept keys and values take one new "
                "row of one sequence, and keep no cache, not " +
                shape_of(x_q));
        return multi_head_attention_steps(x_q, w, {kept}, {who});
    }
    const bool rope = who.positions == InAttention::Rope;  // chapter 10: rotate Q and K
    c.Q = linear(x_q, w.W_Q, w.b_Q);  // (n x d_model)·(d_model x h·d_k) -> (n x h·d_k)
    if (rope) c.q_positions = query_positions(who), c.Q = rope_rotate(c.Q, w.d_k(), c.q_positions);
    KeptKV kv = keys_values(x_kv, w);  // (m x d_model)·(d_model x h·d_k) -> (m x h·d_k)
    c.K = std::move(kv.K), c.V = std::move(kv.V);
    if (rope) c.k_positions = key_positions(who.kv), c.K = rope_rotate(c.K, w.d_k(), c.k_positions);
    c.concat =
        attend_heads(c.Q, c.K, c.V, who.q, who.kv, who.masks, head_options(w, who), &c.heads);
    return linear(c.concat, w.W_O, w.b_O);  // (n x h·d_v)·(h·d_v x d_model) -> (n x d_model)
}

Matrix multi_head_attention_steps(const Matrix& x, const MultiHeadWeights& w,
                                  const std::vector<KeptKV*>& kept,
                                  const std::vector<Attending>& who) {
    check_multi_head(w);
    if (x.cols != w.d_model() || kept.size() != x.rows || who.size() != x.rows)
        throw std::invalid_argument("multi-head attention steps: " + shape_of(x) + " for " +
                                    std::to_string(kept.size()) + " kept and " +
                                    std::to_string(who.size()) + " sequences");
    const Matrix Q = linear(x, w.W_Q, w.b_Q);  // (B x d_model)·(d_model x h·d_k): every row at once
    bool grows = false;  // a memory's keys and values (cross-attention) are fixed: not projected
    for (const KeptKV* k : kept) grows = grows || !k->fixed;
    const KeptKV fresh = grows ? keys_values(x, w) : KeptKV();  // each row's new key and value
    Matrix concat(x.rows, w.n_heads * w.d_v());
    // each sequence alone: its query rotated to its position (RoPE), its key and value kept, its
    // heads over every key kept; the threads share the sequences out
    parallel_for(
        x.rows, x.rows * kept[0]->K.rows * (w.d_k() + w.d_v()) * w.n_heads, [&](std::size_t b) {
            KeptKV& k = *kept[b];
            const Attending& at = who[b];
            Matrix q = row_block(Q, b, 1);
            if (at.positions == InAttention::Rope) q = rope_rotate(q, w.d_k(), {at.q_first});
            if (!k.fixed) {
                Matrix key = row_block(fresh.K, b, 1);  // at the position after the kept keys
                if (at.positions == InAttention::Rope) key = rope_rotate(key, w.d_k(), {k.K.rows});
                append_rows(k.K, key);
                append_rows(k.V, row_block(fresh.V, b, 1));
            }
            if (at.kv.rows() != k.K.rows || at.masks.size() != 1)
                throw std::invalid_argument(
                    "multi-head attention steps: who attends to whom does not fit "
                    "the kept keys");
            set_submatrix(concat, b, 0,
                          attend_heads(q, k.K, k.V, at.masks[0], head_options(w, at)));
        });
    return linear(concat, w.W_O, w.b_O);  // (B x h·d_v)·(h·d_v x d_model)
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
            throw std::invalid_argument("mask: expected (" + std::to_string(who.q.length(s)) + "x" +
                                        std::to_string(who.kv.length(s)) +
                                        ") (queries x keys), got " + shape_of(mask));
    }
}

}  // namespace
