// heads.cpp — the head loop of multi-head attention, and its backward pass directly below it.
#include "model/multi_head/heads.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "fast/threads.h"
#include "model/attention/attention.h"
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

// Where one (sequence, head) pair reads: the sequence's rows of Q (q0, n) and of K and V (k0, m),
// query head i's columns and those of key/value head j.
struct Pair {
    std::size_t q0, n, k0, m, i, j;
};

Pair pair_of(const Stacking& q, const Stacking& kv, const HeadOptions& o, std::size_t t) {
    const std::size_t s = t / o.n_heads, i = t % o.n_heads;
    return {q.first(s), q.length(s), kv.first(s), kv.length(s), i, o.kv_head(i)};
}

// One head's attention: chapter 2's (its weights kept), block by block when tiled (chapter 11),
// or in float32 (chapter 13), which reads the heads' columns in place.
AttentionResult attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Pair& p,
                       const Matrix& mask, const HeadOptions& o) {
    const std::size_t d_k = Q.cols / o.n_heads, d_v = V.cols / o.n_kv_heads;
    if (o.arithmetic != HeadArithmetic::Float64 && p.q0 == 0 && p.k0 == 0 && p.n == Q.rows &&
        p.m == K.rows)
        return attention_in_float32({Q, p.i * d_k, d_k}, {K, p.j * d_k, d_k}, {V, p.j * d_v, d_v},
                                    mask, o.arithmetic == HeadArithmetic::Float16Results);
    if (o.arithmetic != HeadArithmetic::Float64)
        throw std::invalid_argument("attend_heads: float32 heads read one sequence at a time");
    // head i reads its own block of columns: PyTorch's view(n, h, d_k).transpose(0, 1)
    const Matrix Q_i = submatrix(Q, p.q0, p.n, p.i * d_k, d_k),
                 K_j = submatrix(K, p.k0, p.m, p.j * d_k, d_k),
                 V_j = submatrix(V, p.k0, p.m, p.j * d_v, d_v);
    if (!o.tile) return attention(Q_i, K_j, V_j, mask);
    TiledAttention t = tiled_attention(Q_i, K_j, V_j, {false, {}, mask}, {o.tile, o.tile});
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

void check_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Stacking& q,
                 const Stacking& kv, const std::vector<Matrix>& masks, const HeadOptions& o) {
    const std::size_t h = o.n_heads, n_kv = o.n_kv_heads;
    if (h < 1 || n_kv < 1 || h % n_kv != 0 || Q.cols % h != 0 || V.cols % n_kv != 0 ||
        K.cols != n_kv * (Q.cols / h) || K.rows != V.rows)
        throw std::invalid_argument("attend_heads: Q " + shape_of(Q) + ", K " + shape_of(K) +
                                    ", V " + shape_of(V) + " do not split into " +
                                    std::to_string(h) + " query heads and " + std::to_string(n_kv) +
                                    " key/value heads");
    if (q.rows() != Q.rows || kv.rows() != K.rows || q.sequences() != kv.sequences() ||
        masks.size() != q.sequences())
        throw std::invalid_argument("attend_heads: the stacked sequences do not fit Q " +
                                    shape_of(Q) + " and K " + shape_of(K));
}

}  // namespace

Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Stacking& q,
                    const Stacking& kv, const std::vector<Matrix>& masks, const HeadOptions& o,
                    std::vector<AttentionResult>* heads) {
    check_heads(Q, K, V, q, kv, masks, o);
    const std::size_t h = o.n_heads, d_v = V.cols / o.n_kv_heads;
    const std::vector<double> slopes = slopes_of(o);
    const std::size_t count = q.sequences() * h;  // (sequence, head) pairs
    std::vector<AttentionResult> results(count);
    Matrix concat(Q.rows, h * d_v);
    // each pair is independent, writing its own block of concat: the threads share them out.
    // With fewer than 16 queries (decoding: one), the heads wait on reading the keys and values
    // more than on the arithmetic, and are counted as 16 queries, as fast/fast_product.cpp
    // counts a product of few rows: so decoding shares its heads out too
    parallel_for(
        count,
        std::max<std::size_t>(Q.rows, 16) * K.rows * (Q.cols / h + d_v) * h /
            std::max<std::size_t>(1, q.sequences()),
        [&](std::size_t t) {
            const Pair p = pair_of(q, kv, o, t);
            results[t] =
                attend(Q, K, V, p, head_mask(masks[t / h], p.n, p.m, p.i, slopes, o.q_first), o);
            set_submatrix(concat, p.q0, p.i * d_v, results[t].output);  // (n x h·d_v)
        });
    if (heads) *heads = std::move(results);  // sequence by sequence, head by head
    return concat;
}

Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                    const HeadOptions& o, std::vector<AttentionResult>* heads) {
    return attend_heads(Q, K, V, one_sequence(Q.rows), one_sequence(K.rows), {mask}, o, heads);
}

AttentionGrads attend_heads_backward(const Matrix& d_concat, const Matrix& Q, const Matrix& K,
                                     const Matrix& V, const Stacking& q, const Stacking& kv,
                                     const std::vector<Matrix>& masks, const HeadOptions& o,
                                     const std::vector<AttentionResult>& heads) {
    const std::size_t h = o.n_heads, d_k = Q.cols / h, d_v = V.cols / o.n_kv_heads;
    // the weights are kept, so only tiles need the mask again
    const std::vector<double> slopes = o.tile ? slopes_of(o) : std::vector<double>();
    AttentionGrads g{Matrix(Q.rows, Q.cols), Matrix(K.rows, K.cols), Matrix(V.rows, V.cols)};
    // The threads share out (sequence, key/value head) groups: the query heads that read one
    // key/value head are neighbours (kv_head), and each group adds their parts of its dK and dV
    // in the order of i, as one thread would, into rows and columns no other group touches
    // (sequences do not share rows: stacking.h). The same bits on any number of threads. With
    // fewer groups than threads (one long sequence, one key/value head), the groups run in turn
    // and each head's own products are shared out instead.
    const std::size_t per_kv = h / o.n_kv_heads, groups = q.sequences() * o.n_kv_heads;
    const auto group = [&](std::size_t u) {
        for (std::size_t r = 0; r < per_kv; ++r) {
            const std::size_t t = u * per_kv + r;  // = s·h + i, i = j·per_kv + r
            const Pair p = pair_of(q, kv, o, t);
            const AttentionGrads head = attend_backward(
                submatrix(d_concat, p.q0, p.n, p.i * d_v, d_v),
                submatrix(Q, p.q0, p.n, p.i * d_k, d_k), submatrix(K, p.k0, p.m, p.j * d_k, d_k),
                submatrix(V, p.k0, p.m, p.j * d_v, d_v), heads[t],
                o.tile ? head_mask(masks[t / h], p.n, p.m, p.i, slopes, o.q_first) : Matrix(), o);
            set_submatrix(g.dQ, p.q0, p.i * d_k, head.dQ);
            add_to_submatrix(g.dK, p.k0, p.j * d_k, head.dK);  // each head that read it adds
            add_to_submatrix(g.dV, p.k0, p.j * d_v, head.dV);  // its part
        }
    };
    if (groups < static_cast<std::size_t>(thread_count())) {
        for (std::size_t u = 0; u < groups; ++u) group(u);
    } else {  // about twice the forward pass's multiply-adds: four products to its two
        parallel_for(groups,
                     2 * Q.rows * K.rows * (d_k + d_v) * h / std::max<std::size_t>(1, q.sequences()),
                     group);
    }
    return g;
}
