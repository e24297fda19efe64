// multi_head_switches.cpp — chapters 9–11's switches inside multi-head attention: RoPE, ALiBi,
// kept keys and values, tiles. Chapter 4's multi-head attention is multi_head.cpp.
#include "model/multi_head/multi_head_switches.h"

#include <utility>

#include "model/attention/tiled_attention.h"
#include "model/positions/alibi.h"
#include "model/positions/rotary.h"

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

}  // namespace

void rotate_queries(MultiHeadCache& c, std::size_t d_k, const Attending& who) {
    if (who.positions != InAttention::Rope) return;
    c.q_positions = query_positions(who);
    c.Q = rope_rotate(c.Q, d_k, c.q_positions);
}

void rotate_keys(MultiHeadCache& c, std::size_t d_k, const Attending& who) {
    if (who.positions != InAttention::Rope) return;
    c.k_positions = key_positions(who.kv);
    c.K = rope_rotate(c.K, d_k, c.k_positions);
}

void rotate_back(Matrix& dQ, Matrix& dK, std::size_t d_k, const MultiHeadCache& c) {
    if (c.q_positions.empty()) return;
    dQ = rope_rotate(dQ, d_k, c.q_positions, true);
    dK = rope_rotate(dK, d_k, c.k_positions, true);
}

void keep_keys_values(const Matrix& x_kv, const MultiHeadWeights& w, const Attending& who,
                      KeptKV& kept) {
    if (kept.fixed) return;
    KeptKV kv = keys_values(x_kv, w);
    if (who.positions == InAttention::Rope)  // the new keys follow the kept: kept.K.rows, …
        kv.K = rope_rotate(kv.K, w.d_k(), positions_from(kept.K.rows, kv.K.rows));
    append_rows(kept.K, kv.K);
    append_rows(kept.V, kv.V);
}

std::vector<double> slopes_of(const Attending& who, std::size_t n_heads) {
    return who.positions == InAttention::Alibi ? alibi_slopes(n_heads) : std::vector<double>();
}

Matrix head_mask(const Attending& who, std::size_t s, std::size_t i,
                 const std::vector<double>& slopes) {
    if (slopes.empty()) return who.masks[s];
    const Matrix bias = alibi_bias(who.q.length(s), who.kv.length(s), slopes[i], who.q_first);
    return who.masks[s].empty() ? bias : add(who.masks[s], bias);
}

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

AttentionGrads attend_backward(const Matrix& dO, const Matrix& Q, const Matrix& K, const Matrix& V,
                               const AttentionResult& head, const Matrix& mask, std::size_t tile) {
    if (!tile) return attention_backward(dO, Q, K, V, head);
    TiledAttention t;
    t.output = head.output;
    t.lse = head.lse;
    t.scale = head.scale;
    return tiled_attention_backward(dO, Q, K, V, t, {false, {}, mask}, {tile, tile});
}
