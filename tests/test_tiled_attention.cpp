// test_tiled_attention.cpp — chapter 11: the one-pass softmax and tiled attention against the
// standard computation (attention.h), on shapes and blocks the data file does not hold; the
// memory they hold, counted; tiled attention inside whole models, trained and decoded.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/random.h"
#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/attention/online_softmax.h"
#include "model/attention/tiled_attention.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/kv_cache.h"
#include "report/allocation_counter.h"
#include "train/batch.h"
#include "model_helpers.h"

namespace {

const double inf = std::numeric_limits<double>::infinity();

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols, double s = 2.0) {
    Matrix m(rows, cols);
    for (double& x : m.data) x = s * rng.normal();
    return m;
}

// The standard attention's n × m mask for a rule.
Matrix dense(const KeyRule& rule, std::size_t n, std::size_t m) {
    Matrix mask = rule.mask.empty() ? Matrix(n, m) : rule.mask;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j)
            if ((rule.causal && j > i) || (!rule.padding.empty() && rule.padding[j]))
                mask(i, j) = -inf;
    return mask;
}

}  // namespace

TEST_CASE("online softmax: chapter 2's softmax to the last bits, hidden rows give zeros") {
    Random rng(1);
    for (std::size_t n : {1, 2, 5, 40}) {
        std::vector<double> row(n);
        for (double& x : row) x = 10 * rng.normal();
        if (n > 2) row[1] = -inf;
        Matrix as_matrix(1, n);
        as_matrix.data = row;
        const Matrix reference = softmax_rows(as_matrix);
        const std::vector<double> w = online_softmax(row);
        for (std::size_t j = 0; j < n; ++j) CHECK(std::fabs(w[j] - reference(0, j)) <= 1e-15);
    }
    for (const std::vector<double>& hidden : {std::vector<double>{-inf}, {-inf, -inf, -inf}}) {
        std::vector<OnlineStep> steps;
        for (double w : online_softmax(hidden, &steps)) CHECK(w == 0.0);
        CHECK(steps.back().sum == 0.0);
    }
    // the narrated row of 本: the sum rescaled once, when 16 arrives
    std::vector<OnlineStep> steps;
    online_softmax({11, 9, 16}, &steps);
    CHECK(!steps[1].rescaled);
    CHECK(steps[2].rescaled);
    CHECK(steps[2].sum ==
          doctest::Approx((1 + std::exp(-2.0)) * std::exp(-5.0) + 1).epsilon(1e-15));
}

TEST_CASE("a block at a time, the running sum is the same as one score at a time") {
    Random rng(2);
    std::vector<double> scores(23);
    for (double& x : scores) x = 5 * rng.normal();
    RunningSum one, blocks;
    for (double x : scores) one.add(x);
    for (std::size_t first = 0; first < scores.size(); first += 4) {
        std::vector<double> block(
            scores.begin() + static_cast<long>(first),
            scores.begin() + static_cast<long>(std::min(first + 4, scores.size())));
        blocks.add_block(block.data(), block.size());
    }
    CHECK(blocks.max == one.max);
    CHECK(std::fabs(blocks.sum - one.sum) <= 1e-14 * one.sum);
}

TEST_CASE("tiled attention equals attention.h, forward and backward, on every block size") {
    Random rng(3);
    std::size_t runs = 0;
    for (const auto& shape :
         {std::pair<std::size_t, std::size_t>{1, 1}, {6, 6}, {9, 9}, {5, 13}, {13, 4}}) {
        const std::size_t n = shape.first, m = shape.second;
        for (int kind = 0; kind < 4; ++kind)
            for (std::size_t bq : {std::size_t(1), std::size_t(2), std::size_t(4), n + 1})
                for (std::size_t bk : {std::size_t(1), std::size_t(3), m + 2}) {
                    const Matrix Q = random_matrix(rng, n, 3), K = random_matrix(rng, m, 3),
                                 V = random_matrix(rng, m, 2), dO = random_matrix(rng, n, 2);
                    KeyRule rule;
                    rule.causal = kind == 1 || kind == 3;
                    if (kind >= 2) {
                        rule.padding.assign(m, false);
                        rule.padding[0] = true;  // left padding: the causal query 0 sees no key
                        if (m > 2) rule.padding[m - 1] = true;
                    }
                    if (kind == 2 && n == m) rule.mask = window_mask(n, m, 2);
                    CAPTURE(n);
                    CAPTURE(m);
                    CAPTURE(kind);
                    CAPTURE(bq);
                    CAPTURE(bk);
                    const Tiles tiles{bq, bk};
                    const TiledAttention t = tiled_attention(Q, K, V, rule, tiles);
                    const AttentionResult s = attention(Q, K, V, dense(rule, n, m));
                    CHECK(max_abs_diff(t.output, s.output) <= 1e-12);
                    const AttentionGrads gt = tiled_attention_backward(dO, Q, K, V, t, rule, tiles);
                    const AttentionGrads gs = attention_backward(dO, Q, K, V, s);
                    CHECK(max_abs_diff(gt.dQ, gs.dQ) <= 1e-12);
                    CHECK(max_abs_diff(gt.dK, gs.dK) <= 1e-12);
                    CHECK(max_abs_diff(gt.dV, gs.dV) <= 1e-12);
                    for (double x : t.output.data) CHECK(std::isfinite(x));
                    const std::size_t blocks = ((n + bq - 1) / bq) * ((m + bk - 1) / bk);
                    CHECK(t.blocks_done + t.blocks_skipped == blocks);
                    ++runs;
                }
    }
    CHECK(runs == 5 * 4 * 4 * 3);
}

TEST_CASE("causal blocks above the diagonal are skipped, not computed") {
    Random rng(4);
    const std::size_t n = 12;
    const Matrix X = random_matrix(rng, n, 4);
    const TiledAttention t = tiled_attention(X, X, X, {true, {}, {}}, {3, 3});
    CHECK(t.blocks_done == 10);  // 4 × 4 blocks: the diagonal and below, 4 + 3 + 2 + 1
    CHECK(t.blocks_skipped == 6);
}

TEST_CASE("memory, counted: the standard pass holds n × n twice, the tiled one grows as n") {
    Random rng(5);
    std::vector<double> standard, tiled;
    for (std::size_t n : {256, 512, 1024}) {
        const Matrix Q = random_matrix(rng, n, 16), K = random_matrix(rng, n, 16),
                     V = random_matrix(rng, n, 16);
        standard.push_back(static_cast<double>(peak_bytes_of([&] { attention(Q, K, V); })));
        tiled.push_back(static_cast<double>(peak_bytes_of([&] {
            tiled_attention(Q, K, V, {}, {32, 32});
        })));
        const double nn = static_cast<double>(n);
        CHECK(standard.back() >= 2 * 8 * nn * nn);      // scores and weights
        CHECK(tiled.back() >= 8 * nn * 16);             // its output
        CHECK(tiled.back() < 8 * nn * 16 + 64 * 1024);  // and a few blocks of 32 × 32
    }
    CHECK(standard[2] / standard[1] > 3.9);  // doubling n: four times the bytes
    CHECK(tiled[2] / tiled[1] < 2.1);        // twice, at most
}

namespace {
// A vector the compiler cannot prove unused: clang removes an allocation nobody reads (C++14
// allows it), and there would be nothing to count.
volatile double* seen = nullptr;
void hold(std::size_t n) {
    std::vector<double> v(n);
    seen = v.data();
}
}  // namespace

TEST_CASE("peak_bytes_of counts what a piece of work holds at once") {
    CHECK(peak_bytes_of([] { hold(1000); }) >= 8000);
    CHECK(peak_bytes_of([] {
              for (int i = 0; i < 10; ++i) hold(1000);  // freed each time
          }) < 2 * 8000);
}

TEST_CASE("multi-head attention, tiled: the same output and gradients as ch04's, every mask") {
    Random rng(6);
    const std::size_t d = 8, h = 2;
    MultiHeadWeights w;
    w.n_heads = h;
    // weights of a trained model's size, so that the outputs and gradients are of order 1
    for (Matrix* W : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O}) *W = random_matrix(rng, d, d, 0.4);
    for (Matrix* b : {&w.b_Q, &w.b_K, &w.b_V, &w.b_O}) *b = random_matrix(rng, 1, d, 0.4);
    const Matrix x = random_matrix(rng, 7, d), source = random_matrix(rng, 10, d);
    const struct {
        const char* name;
        const Matrix& kv;
        Matrix mask;
        InAttention positions;
    } cases[] = {{"self", x, Matrix(), InAttention::None},
                 {"causal", x, causal_mask(7), InAttention::None},
                 {"padding", x, padding_mask(7, padding_after(5, 7)), InAttention::None},
                 {"cross", source, padding_mask(7, padding_after(8, 10)), InAttention::None},
                 {"causal, ALiBi", x, causal_mask(7), InAttention::Alibi}};
    for (const auto& c : cases) {
        CAPTURE(c.name);
        Attending standard = within_one(7, c.kv.rows, c.mask), tiled = standard;
        standard.positions = tiled.positions = c.positions;
        tiled.tile = 3;
        MultiHeadCache cs, ct;
        const Matrix ys = multi_head_attention(x, c.kv, w, standard, &cs);
        const Matrix yt = multi_head_attention(x, c.kv, w, tiled, &ct);
        CHECK(max_abs_diff(ys, yt) <= 1e-12);
        CHECK(ct.heads[0].weights.empty());  // the weights were never kept
        const Matrix G = random_matrix(rng, 7, d);
        MultiHeadWeights gs = w, gt = w;
        for (MultiHeadWeights* g : {&gs, &gt})
            for (Matrix* m :
                 {&g->W_Q, &g->W_K, &g->W_V, &g->W_O, &g->b_Q, &g->b_K, &g->b_V, &g->b_O})
                *m = Matrix(m->rows, m->cols);
        const MultiHeadInputGrads is = multi_head_attention_backward(G, w, cs, gs);
        const MultiHeadInputGrads it = multi_head_attention_backward(G, w, ct, gt);
        CHECK(max_abs_diff(is.dx_q, it.dx_q) <= 1e-12);
        CHECK(max_abs_diff(is.dx_kv, it.dx_kv) <= 1e-12);
        CHECK(max_abs_diff(gs.W_Q, gt.W_Q) <= 1e-12);
        CHECK(max_abs_diff(gs.W_K, gt.W_K) <= 1e-12);
        CHECK(max_abs_diff(gs.W_V, gt.W_V) <= 1e-12);
    }
}

TEST_CASE("a whole model, tiled: the same loss, gradients and cached decoding") {
    const std::vector<Example> batch = {{{3, 4, 5, 6, 2}, {6, 5, 4, 3, 2}},
                                        {{7, 8, 2, 0, 0}, {8, 7, 2, 0, 0}}};
    for (const PositionScheme positions :
         {PositionScheme::Sinusoidal, PositionScheme::Rope, PositionScheme::Alibi}) {
        CAPTURE(positions_name(positions));
        TransformerConfig c = small_config(8, 2, 12, 10, 10);
        c.positions = positions;
        c.norm_first = true;
        const Transformer standard = random_transformer(c, 31);
        Transformer tiled = standard;
        tiled.config.attention_tile = 2;
        Transformer gs = zeros_like(standard), gt = zeros_like(tiled);
        const double ls = batch_gradients(standard, batch, 0.1, gs);
        const double lt = batch_gradients(tiled, batch, 0.1, gt);
        CHECK(std::fabs(ls - lt) <= 1e-12);
        const std::vector<Matrix*> a = parameter_matrices(gs), b = parameter_matrices(gt);
        double worst = 0.0;
        for (std::size_t p = 0; p < a.size(); ++p)
            worst = std::max(worst, max_abs_diff(*a[p], *b[p]));
        CHECK(worst <= 1e-12);
        // decoding one token at a time with the KV cache, tiled, against the standard model
        KVCache cs = start_decoding(standard, {3, 4, 5, 2}),
                ct = start_decoding(tiled, {3, 4, 5, 2});
        for (int token : {1, 6, 5, 4}) {
            const Matrix ys = decode_step(standard, cs, token), yt = decode_step(tiled, ct, token);
            CHECK(max_abs_diff(ys, yt) <= 1e-12);
        }
    }
}
