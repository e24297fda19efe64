// tiled_attention.cpp — attention one (query block, key block) pair at a time.
#include "model/attention/tiled_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/elementary.h"
#include "core/matmul.h"
#include "model/attention/attention.h"

namespace {

const double neg_inf = -std::numeric_limits<double>::infinity();

void check_shapes(const Matrix& Q, const Matrix& K, const Matrix& V, const KeyRule& rule,
                  Tiles tiles) {
    if (Q.cols != K.cols || K.rows != V.rows)
        throw std::invalid_argument("tiled attention: Q " + shape_of(Q) + ", K " + shape_of(K) +
                                    ", V " + shape_of(V) +
                                    ": need Q, K of one width, one value per key");
    if (!rule.padding.empty() && rule.padding.size() != K.rows)
        throw std::invalid_argument("tiled attention: padding needs one entry per key");
    if (!rule.mask.empty() && (rule.mask.rows != Q.rows || rule.mask.cols != K.rows))
        throw std::invalid_argument("tiled attention: mask " + shape_of(rule.mask) +
                                    " should be (queries x keys)");
    if (tiles.queries == 0 || tiles.keys == 0)
        throw std::invalid_argument("tiled attention: blocks need at least one row");
}

// One block of rows [first, first + count) of a matrix with `total` rows.
struct Block {
    std::size_t first, count;
};
Block block(std::size_t b, std::size_t size, std::size_t total) {
    return {b * size, std::min(size, total - b * size)};
}
std::size_t blocks(std::size_t total, std::size_t size) { return (total + size - 1) / size; }

// True when every key of block kb is hidden from every query of block qb: above the causal
// diagonal, or all padding. Such a pair is never computed.
bool hidden_block(const KeyRule& rule, Block qb, Block kb) {
    if (rule.causal && kb.first > qb.first + qb.count - 1) return true;
    if (rule.padding.empty()) return false;
    for (std::size_t j = kb.first; j < kb.first + kb.count; ++j)
        if (!rule.padding[j]) return false;
    return true;
}

// The block's scores Q_b·K_bᵀ·scale, with −inf where the rule hides a key.
Matrix block_scores(const Matrix& Qb, const Matrix& Kb, double scale, const KeyRule& rule, Block qb,
                    Block kb) {
    Matrix S = matmul_bt(Qb, Kb);  // (queries x keys) of this pair only
    for (std::size_t r = 0; r < S.rows; ++r)
        for (std::size_t c = 0; c < S.cols; ++c) {
            const std::size_t i = qb.first + r, j = kb.first + c;
            double& s = S(r, c);
            s *= scale;
            if (!rule.mask.empty()) s += rule.mask(i, j);
            if ((rule.causal && j > i) || (!rule.padding.empty() && rule.padding[j])) s = neg_inf;
        }
    return S;
}

Matrix rows_of(const Matrix& m, Block b) { return submatrix(m, b.first, b.count, 0, m.cols); }

void add_rows(Matrix& into, Block b, const Matrix& rows) {
    for (std::size_t r = 0; r < rows.rows; ++r)
        for (std::size_t c = 0; c < rows.cols; ++c) into(b.first + r, c) += rows(r, c);
}

}  // namespace

TiledAttention tiled_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                               const KeyRule& rule, Tiles tiles, RowTrace* trace) {
    check_shapes(Q, K, V, rule, tiles);
    const std::size_t n = Q.rows, m = K.rows, d_v = V.cols;
    TiledAttention t;
    t.scale = attention_scale(K.cols);
    t.output = Matrix(n, d_v);
    t.lse.assign(n, neg_inf);
    if (trace) trace->after_block.clear();
    for (std::size_t a = 0; a < blocks(n, tiles.queries); ++a) {
        const Block qb = block(a, tiles.queries, n);
        const Matrix Qb = rows_of(Q, qb);
        std::vector<RunningSum> running(qb.count);  // m and l of each query row
        Matrix acc(qb.count, d_v);                  // Σ exp(s_j − m)·v_j of each row
        for (std::size_t b = 0; b < blocks(m, tiles.keys); ++b) {
            const Block kb = block(b, tiles.keys, m);
            const bool skip = hidden_block(rule, qb, kb);
            (skip ? t.blocks_skipped : t.blocks_done) += 1;
            if (!skip) {
                Matrix P = block_scores(Qb, rows_of(K, kb), t.scale, rule, qb, kb);
                for (std::size_t r = 0; r < qb.count; ++r) {
                    // P's row becomes the block's terms exp(s − m'); what the row summed and
                    // accumulated before was relative to the old maximum: scale it down
                    const double factor = running[r].add_block(P.row(r), kb.count);
                    for (std::size_t c = 0; c < d_v; ++c) acc(r, c) *= factor;
                }
                add_to(acc, matmul(P, rows_of(V, kb)));  // + this block's terms times its values
            }
            if (trace && trace->row >= qb.first && trace->row < qb.first + qb.count)
                trace->after_block.push_back(running[trace->row - qb.first]);
        }
        for (std::size_t r = 0; r < qb.count; ++r) {
            t.lse[qb.first + r] = running[r].log_sum_exp();
            if (running[r].sum == 0.0) continue;  // every key hidden: output 0, as attention.h
            for (std::size_t c = 0; c < d_v; ++c)
                t.output(qb.first + r, c) = acc(r, c) / running[r].sum;
        }
    }
    return t;
}

AttentionGrads tiled_attention_backward(const Matrix& d_output, const Matrix& Q, const Matrix& K,
                                        const Matrix& V, const TiledAttention& forward,
                                        const KeyRule& rule, Tiles tiles) {
    check_shapes(Q, K, V, rule, tiles);
    const std::size_t n = Q.rows, m = K.rows;
    if (d_output.rows != n || d_output.cols != V.cols || forward.lse.size() != n)
        throw std::invalid_argument("tiled attention backward: d_output " + shape_of(d_output) +
                                    " does not fit the forward pass");
    AttentionGrads g{Matrix(n, Q.cols), Matrix(m, K.cols), Matrix(m, V.cols)};
    // D_i = Σ_j P_ij·dP_ij = dO_i · O_i: the softmax backward's row sum, from the output alone
    std::vector<double> D(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < V.cols; ++c) D[i] += d_output(i, c) * forward.output(i, c);
    const double s = forward.scale;
    for (std::size_t a = 0; a < blocks(n, tiles.queries); ++a) {
        const Block qb = block(a, tiles.queries, n);
        const Matrix Qb = rows_of(Q, qb), dOb = rows_of(d_output, qb);
        Matrix dQb(qb.count, Q.cols);
        for (std::size_t b = 0; b < blocks(m, tiles.keys); ++b) {
            const Block kb = block(b, tiles.keys, m);
            if (hidden_block(rule, qb, kb)) continue;
            const Matrix Kb = rows_of(K, kb), Vb = rows_of(V, kb);
            // the weights again, from the scores and each row's log-sum-exp: P = exp(S − L)
            Matrix P = block_scores(Qb, Kb, s, rule, qb, kb);
            for (std::size_t r = 0; r < qb.count; ++r) {
                const double L = forward.lse[qb.first + r];
                for (std::size_t c = 0; c < kb.count; ++c)
                    P(r, c) = L == neg_inf ? 0.0 : elementary::exp(P(r, c) - L);
            }
            add_rows(g.dV, kb, matmul_at(P, dOb));      // output = P·V  -> dV = Pᵀ·dO
            Matrix dS = matmul_bt(dOb, Vb);             //               -> dP = dO·Vᵀ
            for (std::size_t r = 0; r < qb.count; ++r)  // P = softmax(S) -> dS = P ⊙ (dP − D)
                for (std::size_t c = 0; c < kb.count; ++c)
                    dS(r, c) = P(r, c) * (dS(r, c) - D[qb.first + r]);
            add_to(dQb, scale(matmul(dS, Kb), s));            // S = Q·Kᵀ·s -> dQ = dS·K·s
            add_rows(g.dK, kb, scale(matmul_at(dS, Qb), s));  //          -> dK = dSᵀ·Q·s
        }
        set_submatrix(g.dQ, qb.first, 0, dQb);
    }
    return g;
}
