// test_multi_head.cpp — multi-head attention: the two forms agree, one head is plain attention,
// and bad shapes are named.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/multi_head/multi_head.h"
#include "core/random.h"

static Matrix random_matrix(Random& rng, std::size_t r, std::size_t c) {
    Matrix m(r, c);
    for (double& x : m.data) x = 0.4 * rng.normal();
    return m;
}

static MultiHeadWeights random_weights(Random& rng, std::size_t d, std::size_t h, std::size_t d_k,
                                       std::size_t d_v) {
    MultiHeadWeights w;
    w.n_heads = h;
    w.W_Q = random_matrix(rng, d, h * d_k);
    w.W_K = random_matrix(rng, d, h * d_k);
    w.W_V = random_matrix(rng, d, h * d_v);
    w.W_O = random_matrix(rng, h * d_v, d);
    w.b_Q = random_matrix(rng, 1, h * d_k);
    w.b_K = random_matrix(rng, 1, h * d_k);
    w.b_V = random_matrix(rng, 1, h * d_v);
    w.b_O = random_matrix(rng, 1, d);
    return w;
}

TEST_CASE("fused and per-head forms agree, with masks and unequal lengths") {
    Random rng(5);
    const MultiHeadWeights w = random_weights(rng, 6, 3, 2, 5);  // d_v != d_k on purpose
    const Matrix xq = random_matrix(rng, 4, 6), xkv = random_matrix(rng, 7, 6);
    const Matrix mask = padding_mask(4, padding_after(5, 7));
    MultiHeadCache a, b;
    const Matrix fused = multi_head_attention(xq, xkv, w, mask, &a);
    const Matrix per_head = multi_head_attention_per_head(xq, xkv, w, mask, &b);
    CHECK(max_abs_diff(fused, per_head) <= 1e-12);
    REQUIRE(a.heads.size() == 3);
    CHECK(a.heads[2].weights.rows == 4);
    CHECK(a.heads[2].weights.cols == 7);
    CHECK(a.heads[1].weights(0, 6) == 0.0);  // padding
    CHECK(a.concat.cols == 15);
    CHECK(max_abs_diff(a.concat, b.concat) <= 1e-12);
}

TEST_CASE("one head with identity projections and no biases is plain attention") {
    const Matrix x{{1, 0, 2}, {0, 1, 1}};
    Matrix I(3, 3);
    for (std::size_t i = 0; i < 3; ++i) I(i, i) = 1.0;
    MultiHeadWeights w;
    w.W_Q = w.W_K = w.W_V = w.W_O = I;
    CHECK(max_abs_diff(multi_head_attention(x, x, w), attention(x, x, x).output) <= 1e-15);
}

TEST_CASE("the paper's layer has 4·512·512 + 4·512 parameters") {
    MultiHeadWeights w;
    w.n_heads = 8;
    w.W_Q = w.W_K = w.W_V = w.W_O = Matrix(512, 512);
    w.b_Q = w.b_K = w.b_V = w.b_O = Matrix(1, 512);
    CHECK(w.d_k() == 64);
    CHECK(parameter_count(w) == 1050624);
}

TEST_CASE("wrong shapes are named: weights, heads, masks, inputs") {
    Random rng(1);
    MultiHeadWeights w = random_weights(rng, 4, 2, 2, 2);
    const Matrix x = random_matrix(rng, 3, 4);
    auto message = [&](const MultiHeadWeights& ww, const Matrix& xx,
                       const Matrix& mask) -> std::string {
        try {
            multi_head_attention(xx, xx, ww, mask);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "(no error)";
    };
    MultiHeadWeights bad = w;
    bad.W_K = Matrix(4, 3);
    CHECK(message(bad, x, Matrix()) == "W_K: expected (4x4) (d_model x n_kv·d_k), got (4x3)");
    bad = w;
    bad.n_heads = 3;
    CHECK(message(bad, x, Matrix()) == "W_Q: 4 columns cannot be split into 3 heads");
    bad = w;
    bad.W_O = Matrix(4, 5);
    CHECK(message(bad, x, Matrix()).rfind("W_O: expected (4x4)", 0) == 0);
    bad = w;
    bad.b_V = Matrix(1, 3);
    CHECK(message(bad, x, Matrix()) == "b_V: expected 4 values");
    CHECK(message(w, x, Matrix(3, 2)) == "mask: expected (3x3) (queries x keys), got (3x2)");
    CHECK(message(w, Matrix(3, 5), Matrix()).find("need d_model = 4") != std::string::npos);
}
