// heads.cpp — the head loop of multi-head attention, and its backward pass directly below it.
#include "model/multi_head/heads.h"

#include <stdexcept>
#include <string>

#include "fast/threads.h"
#include "model/attention/attention_float32.h"
#include "model/attention/tiled_attention.h"
#include "model/positions/alibi.h"

namespace {

// The additive mask head i attends with: the sequence's own, plus ALiBi's bias −m_i·|distance|
// when the positions are ALiBi's (slopes: one per head; empty otherwise).
Matrix head_mask(const Matrix& mask, std::size_t n, std::size_t m, std::size_t i,
                 const std::vector<double>& slopes, std::size_t q_first) {
    if (slopes.empty()) return mask;
    const Matrix bias = alibi_bias(n, m, slopes[i], q_first);
    return mask.empty() ? bias : add(mask, bias);
}

std::vector<double> slopes_of(const HeadOptions& o) {
    return o.positions == InAttention::Alibi ? alibi_slopes(o.n_heads) : std::vector<double>();
}

// One head's attention: chapter 2's (its weights kept), block by block when tiled (chapter 11),
// or in float32 (chapter 13).
AttentionResult attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                       const HeadOptions& o) {
    if (o.arithmetic != HeadArithmetic::Float64)
        return attention_in_float32(Q, K, V, mask, o.arithmetic == HeadArithmetic::Float16Results);
    if (!o.tile) return attention(Q, K, V, mask);
    TiledAttention t = tiled_attention(Q, K, V, {false, {}, mask}, {o.tile, o.tile});
    AttentionResult r;
    r.output = std::move(t.output);
    r.scale = t.scale;
    r.lse = std::move(t.lse);
    return r;
}

// Its backward pass: from the kept weights, or recomputing them block by block.
AttentionGrads attend_backward(const Matrix& dO, const Matrix& Q, const Matrix& K, const Matrix& V,
                               const AttentionResult& head, const Matrix& mask,
                               const HeadOptions& o) {
    if (!o.tile) return attention_backward(dO, Q, K, V, head);
    TiledAttention t;
    t.output = head.output;
    t.lse = head.lse;
    t.scale = head.scale;
    return tiled_attention_backward(dO, Q, K, V, t, {false, {}, mask}, {o.tile, o.tile});
}

void check_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const HeadOptions& o) {
    const std::size_t h = o.n_heads, kv = o.n_kv_heads;
    if (h < 1 || kv < 1 || h % kv != 0 || Q.cols % h != 0 || V.cols % kv != 0 ||
        K.cols != kv * (Q.cols / h) || K.rows != V.rows)
        throw std::invalid_argument("attend_heads: Q " + shape_of(Q) + ", K " + shape_of(K) +
                                    ", V " + shape_of(V) + " do not split into " +
                                    std::to_string(h) + " query heads and " + std::to_string(kv) +
                                    " key/value heads");
}

}  // namespace

Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                    const HeadOptions& o, std::vector<AttentionResult>* heads) {
    check_heads(Q, K, V, o);
    const std::size_t n = Q.rows, m = K.rows, h = o.n_heads;
    const std::size_t d_k = Q.cols / h, d_v = V.cols / o.n_kv_heads;
    const std::vector<double> slopes = slopes_of(o);
    std::vector<AttentionResult> results(h);
    Matrix concat(n, h * d_v);
    // each head is independent, writing its own block of concat: the threads share them out
    parallel_for(h, n * m * (d_k + d_v) * h, [&](std::size_t i) {
        const std::size_t j = o.kv_head(i);
        results[i] = attend(submatrix(Q, 0, n, i * d_k, d_k), submatrix(K, 0, m, j * d_k, d_k),
                            submatrix(V, 0, m, j * d_v, d_v),
                            head_mask(mask, n, m, i, slopes, o.q_first), o);
        set_submatrix(concat, 0, i * d_v, results[i].output);  // (n x h·d_v)
    });
    if (heads) heads->insert(heads->end(), results.begin(), results.end());
    return concat;
}

AttentionGrads attend_heads_backward(const Matrix& d_concat, const Matrix& Q, const Matrix& K,
                                     const Matrix& V, const Matrix& mask, const HeadOptions& o,
                                     const std::vector<AttentionResult>& heads) {
    const std::size_t n = Q.rows, m = K.rows, h = o.n_heads;
    const std::size_t d_k = Q.cols / h, d_v = V.cols / o.n_kv_heads;
    // the weights are kept, so only tiles need the mask again
    const std::vector<double> slopes = o.tile ? slopes_of(o) : std::vector<double>();
    AttentionGrads g{Matrix(n, Q.cols), Matrix(m, K.cols), Matrix(m, V.cols)};
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t j = o.kv_head(i);
        const AttentionGrads head = attend_backward(
            submatrix(d_concat, 0, n, i * d_v, d_v), submatrix(Q, 0, n, i * d_k, d_k),
            submatrix(K, 0, m, j * d_k, d_k), submatrix(V, 0, m, j * d_v, d_v), heads[i],
            o.tile ? head_mask(mask, n, m, i, slopes, o.q_first) : Matrix(), o);
        set_submatrix(g.dQ, 0, i * d_k, head.dQ);
        add_to_submatrix(g.dK, 0, j * d_k, head.dK);  // every head that read it adds its part
        add_to_submatrix(g.dV, 0, j * d_v, head.dV);
    }
    return g;
}
