// test_finite_differences.cpp — every backward pass against its own forward pass, by central
// finite differences (train/gradient_check.h), one operation at a time, so that a broken
// operation is named: "finite differences / layer_norm", not a LayerNorm bias two layers away.
//
// Each case computes y = op(inputs), takes the loss L = Σ G ⊙ y for a random G (so dL/dy = G),
// runs op's backward with G and compares every input's and parameter's gradient with
// (L(θ + h) − L(θ − h)) / 2h on sampled entries. Relative error ≤ 1e-6 (see gradient_error).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/random.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/linear.h"
#include "model/multi_head/stacking.h"
#include "model/transformer/caches.h"
#include "model/transformer/transformer_init.h"
#include "model/attention/attention.h"
#include "model/transformer/embedding.h"
#include "model/transformer/feed_forward.h"
#include "model/transformer/norms.h"
#include "model/transformer/loss.h"
#include "model/attention/masks.h"
#include "model/attention/tiled_attention.h"
#include "model/positions/rotary.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"
#include "model/gpt/gpt.h"
#include "train/gradient_check.h"
#include "helpers.h"
#include "model_helpers.h"

namespace {

Matrix random_matrix(Random& rng, std::size_t rows, std::size_t cols, double s = 1.0) {
    Matrix m(rows, cols);
    for (double& x : m.data) x = s * rng.normal();
    return m;
}

struct Checked {
    std::string name;
    Matrix* value;    // an input or parameter, nudged by the check
    Matrix gradient;  // what the backward pass said dL/d(value) is
};

// One sampled entry: the backward pass within 1e-6 (relative) of the finite difference. Returns
// whether it was, so that a test stops at its first wrong entry: a broken backward pass is named
// in a few lines, not in thousands.
bool entry_agrees(const GradientCheck& g) {
    const bool ok = g.error() <= 1e-6;
    CHECK_MESSAGE(ok,
                  g.where << ": backward " << g.analytic << ", finite difference " << g.numeric);
    return ok;
}

// Every checked matrix, `samples` entries each, against loss(), up to the first that disagrees.
void check_all(const std::vector<Checked>& checked, const std::function<double()>& loss,
               std::size_t samples = 6) {
    Random pick(99);
    for (const Checked& c : checked)
        for (const GradientCheck& g :
             check_gradient(c.name, *c.value, c.gradient, loss, samples, pick))
            if (!entry_agrees(g)) return;
}

// Biases, gains and every other parameter moved away from their initial 0 and 1, so that no
// gradient is checked at a special point.
Transformer perturbed(const TransformerConfig& c, std::uint64_t seed) {
    Transformer m = random_transformer(c, seed);
    Random rng(seed + 100);
    for (Matrix* p : parameter_matrices(m))
        for (double& x : p->data) x += 0.1 * rng.normal();
    return m;
}

TransformerConfig tiny(bool norm_first, bool shared) {
    TransformerConfig c = small_config(6, 2, 10, 9, 9);
    c.norm_first = norm_first;
    c.share_embeddings = shared;
    return c;
}

}  // namespace

TEST_SUITE_BEGIN("finite differences");

TEST_CASE("softmax_rows, with a masked entry") {
    Random rng(1);
    Matrix x = random_matrix(rng, 3, 4), G = random_matrix(rng, 3, 4);
    x(1, 2) = masked;
    const Matrix y = softmax_rows(x);
    check_all({{"x", &x, softmax_rows_backward(G, y)}},
              [&] { return weighted_sum(softmax_rows(x), G); });
}

TEST_CASE("linear") {
    Random rng(2);
    Matrix x = random_matrix(rng, 4, 3), W = random_matrix(rng, 3, 5), b = random_matrix(rng, 1, 5);
    const Matrix G = random_matrix(rng, 4, 5);
    Matrix dW(3, 5), db(1, 5);
    const Matrix dx = linear_backward(G, x, W, dW, db);
    check_all({{"x", &x, dx}, {"W", &W, dW}, {"b", &b, db}},
              [&] { return weighted_sum(linear(x, W, b), G); });
}

TEST_CASE("layer_norm") {
    Random rng(3);
    Matrix x = random_matrix(rng, 4, 6, 2.0);
    Norm norm{random_matrix(rng, 1, 6), random_matrix(rng, 1, 6)};
    const Matrix G = random_matrix(rng, 4, 6);
    NormCache cache;
    layer_norm(x, norm, &cache);
    Norm grad{Matrix(1, 6), Matrix(1, 6)};
    const Matrix dx = layer_norm_backward(G, norm, cache, grad);
    check_all({{"x", &x, dx}, {"gain", &norm.gain, grad.gain}, {"bias", &norm.bias, grad.bias}},
              [&] { return weighted_sum(layer_norm(x, norm), G); });
}

TEST_CASE("feed_forward") {
    Random rng(4);
    Matrix x = random_matrix(rng, 3, 4);
    FeedForward f{random_matrix(rng, 4, 7), random_matrix(rng, 1, 7), random_matrix(rng, 7, 4),
                  random_matrix(rng, 1, 4)};
    const Matrix G = random_matrix(rng, 3, 4);
    FeedForwardCache cache;
    feed_forward(x, f, &cache);
    FeedForward g{Matrix(4, 7), Matrix(1, 7), Matrix(7, 4), Matrix(1, 4)};
    const Matrix dx = feed_forward_backward(G, f, cache, g);
    check_all({{"x", &x, dx},
               {"W1", &f.W1, g.W1},
               {"b1", &f.b1, g.b1},
               {"W2", &f.W2, g.W2},
               {"b2", &f.b2, g.b2}},
              [&] { return weighted_sum(feed_forward(x, f), G); });
}

TEST_CASE("attention, scaled, with a causal mask and unequal widths") {
    Random rng(5);
    Matrix Q = random_matrix(rng, 4, 3), K = random_matrix(rng, 4, 3), V = random_matrix(rng, 4, 5);
    const Matrix mask = causal_mask(4), G = random_matrix(rng, 4, 5);
    const AttentionResult r = attention(Q, K, V, mask);
    const AttentionGrads g = attention_backward(G, Q, K, V, r);
    check_all({{"Q", &Q, g.dQ}, {"K", &K, g.dK}, {"V", &V, g.dV}},
              [&] { return weighted_sum(attention(Q, K, V, mask).output, G); });
}

TEST_CASE("tiled attention: causal, padded keys, blocks of 2 x 3, a row that sees no key") {
    Random rng(55);
    Matrix Q = random_matrix(rng, 5, 3), K = random_matrix(rng, 7, 3), V = random_matrix(rng, 7, 4);
    const Matrix G = random_matrix(rng, 5, 4);
    // key 0 is padding, so query 0 (causal: keys ≤ 0) sees nothing; keys 5 and 6 are padding
    const KeyRule rule{true, {true, false, false, false, false, true, true}, {}};
    const Tiles tiles{2, 3};
    const TiledAttention r = tiled_attention(Q, K, V, rule, tiles);
    const AttentionGrads g = tiled_attention_backward(G, Q, K, V, r, rule, tiles);
    check_all({{"Q", &Q, g.dQ}, {"K", &K, g.dK}, {"V", &V, g.dV}},
              [&] { return weighted_sum(tiled_attention(Q, K, V, rule, tiles).output, G); });
}

TEST_CASE("multi-head attention: cross-attention with padding, every weight") {
    Random rng(6);
    const std::size_t d = 6, h = 2;
    Matrix x_q = random_matrix(rng, 3, d), x_kv = random_matrix(rng, 5, d);
    MultiHeadWeights w;
    w.n_heads = h;
    for (Matrix* W : {&w.W_Q, &w.W_K, &w.W_V, &w.W_O}) *W = random_matrix(rng, d, d, 0.5);
    for (Matrix* b : {&w.b_Q, &w.b_K, &w.b_V, &w.b_O}) *b = random_matrix(rng, 1, d, 0.5);
    const Matrix mask = padding_mask(3, padding_after(4, 5)), G = random_matrix(rng, 3, d);
    MultiHeadCache cache;
    multi_head_attention(x_q, x_kv, w, mask, &cache);
    MultiHeadWeights g = w;
    for (Matrix* m : {&g.W_Q, &g.W_K, &g.W_V, &g.W_O, &g.b_Q, &g.b_K, &g.b_V, &g.b_O})
        *m = Matrix(m->rows, m->cols);
    const MultiHeadInputGrads in = multi_head_attention_backward(G, w, cache, g);
    check_all({{"x_q", &x_q, in.dx_q},
               {"x_kv", &x_kv, in.dx_kv},
               {"W_Q", &w.W_Q, g.W_Q},
               {"W_K", &w.W_K, g.W_K},
               {"W_V", &w.W_V, g.W_V},
               {"W_O", &w.W_O, g.W_O},
               {"b_Q", &w.b_Q, g.b_Q},
               {"b_V", &w.b_V, g.b_V},
               {"b_O", &w.b_O, g.b_O}},
              [&] { return weighted_sum(multi_head_attention(x_q, x_kv, w, mask), G); });
}

TEST_CASE("embedding with positions") {
    Random rng(7);
    Matrix table = random_matrix(rng, 5, 4);
    const Tokens ids = {3, 1, 3, 0};
    const Matrix G = random_matrix(rng, 4, 4);
    Matrix d_table(5, 4);
    embed_backward(G, {ids}, d_table);
    check_all(
        {{"table", &table, d_table}}, [&] { return weighted_sum(embed(table, ids), G); }, 12);
}

TEST_CASE("embedding with learned positions, two sequences stacked") {
    Random rng(17);
    Matrix table = random_matrix(rng, 5, 4), positions = random_matrix(rng, 6, 4);
    const std::vector<Tokens> seqs = {{3, 1, 3, 0}, {2, 4}};
    const Matrix G = random_matrix(rng, 6, 4);
    Matrix d_table(5, 4), d_positions(6, 4);
    const AddedPositions added{PositionScheme::Learned, &positions};
    embed_backward(G, seqs, d_table, &d_positions);
    check_all(
        {{"table", &table, d_table}, {"positions", &positions, d_positions}},
        [&] { return weighted_sum(embed(table, seqs, added), G); }, 12);
}

TEST_CASE("rms_norm") {
    Random rng(13);
    Matrix x = random_matrix(rng, 4, 6, 2.0);
    Norm norm{random_matrix(rng, 1, 6), Matrix(), 1e-5, NormKind::RMS};
    const Matrix G = random_matrix(rng, 4, 6);
    NormCache cache;
    rms_norm(x, norm, &cache);
    Norm grad{Matrix(1, 6), Matrix(), 1e-5, NormKind::RMS};
    const Matrix dx = rms_norm_backward(G, norm, cache, grad);
    check_all({{"x", &x, dx}, {"gain", &norm.gain, grad.gain}},
              [&] { return weighted_sum(rms_norm(x, norm), G); });
}

TEST_CASE("rope_rotate: its backward is the inverse rotation") {
    Random rng(14);
    Matrix x = random_matrix(rng, 3, 8);  // two heads of d_k = 4
    const std::vector<std::size_t> positions = {0, 5, 17};
    const Matrix G = random_matrix(rng, 3, 8);
    check_all({{"x", &x, rope_rotate(G, 4, positions, true)}},
              [&] { return weighted_sum(rope_rotate(x, 4, positions), G); });
}

TEST_CASE("rope_rotate: windows that repeat positions rotate each row as it would alone") {
    // a batch of 3 windows at positions 0 … 3 (its sines and cosines taken from one table), and
    // each row by itself (computed for its one position): the same bits, both ways round
    Random rng(16);
    const Matrix x = random_matrix(rng, 12, 8);
    std::vector<std::size_t> positions;
    for (std::size_t w = 0; w < 3; ++w)
        for (std::size_t p = 0; p < 4; ++p) positions.push_back(p);
    for (const bool inverse : {false, true}) {
        const Matrix batch = rope_rotate(x, 4, positions, inverse);
        for (std::size_t r = 0; r < x.rows; ++r) {
            const Matrix alone = rope_rotate(row_block(x, r, 1), 4, {positions[r]}, inverse);
            for (std::size_t c = 0; c < x.cols; ++c) CHECK(batch(r, c) == alone(0, c));
        }
    }
}

TEST_CASE("grouped-query self-attention with RoPE or ALiBi and a window, two sequences") {
    for (const InAttention positions : {InAttention::Rope, InAttention::Alibi}) {
        CAPTURE(static_cast<int>(positions));
        Random rng(15);
        const std::size_t d = 8, h = 4, kv = 2, d_k = d / h;
        Matrix x = random_matrix(rng, 7, d);
        MultiHeadWeights w;
        w.n_heads = h;
        w.n_kv_heads = kv;
        w.W_Q = random_matrix(rng, d, d, 0.5);
        w.W_K = random_matrix(rng, d, kv * d_k, 0.5);
        w.W_V = random_matrix(rng, d, kv * d_k, 0.5);
        w.W_O = random_matrix(rng, d, d, 0.5);
        w.b_Q = random_matrix(rng, 1, d, 0.5);
        w.b_K = random_matrix(rng, 1, kv * d_k, 0.5);
        w.b_V = random_matrix(rng, 1, kv * d_k, 0.5);
        w.b_O = random_matrix(rng, 1, d, 0.5);
        Attending who{Stacking{{0, 4, 7}},
                      Stacking{{0, 4, 7}},
                      {add(causal_mask(4), window_mask(4, 4, 2)), causal_mask(3)}};
        who.positions = positions;
        const Matrix G = random_matrix(rng, 7, d);
        MultiHeadCache cache;
        multi_head_attention(x, x, w, who, &cache);
        MultiHeadWeights g = w;
        for (Matrix* m : {&g.W_Q, &g.W_K, &g.W_V, &g.W_O, &g.b_Q, &g.b_K, &g.b_V, &g.b_O})
            *m = Matrix(m->rows, m->cols);
        MultiHeadInputGrads in = multi_head_attention_backward(G, w, cache, g);
        add_to(in.dx_q, in.dx_kv);  // self-attention: x is both
        check_all({{"x", &x, in.dx_q},
                   {"W_Q", &w.W_Q, g.W_Q},
                   {"W_K", &w.W_K, g.W_K},
                   {"W_V", &w.W_V, g.W_V},
                   {"b_Q", &w.b_Q, g.b_Q},
                   {"b_V", &w.b_V, g.b_V}},
                  [&] { return weighted_sum(multi_head_attention(x, x, w, who), G); });
    }
}

TEST_CASE("output projection, separate and shared with the embedding") {
    for (bool shared : {false, true}) {
        CAPTURE(shared);
        Transformer m = perturbed(tiny(false, shared), 8);
        Random rng(8);
        Matrix y = random_matrix(rng, 3, 6);
        const Matrix G = random_matrix(rng, 3, 9);
        Transformer g = zeros_like(m);
        const Matrix dy = output_projection_backward(m, G, y, g);
        Matrix& W = shared ? m.src_embedding : m.output_W;
        check_all({{"y", &y, dy},
                   {shared ? "E" : "W", &W, shared ? g.src_embedding : g.output_W},
                   {"b", &m.output_b, g.output_b}},
                  [&] { return weighted_sum(output_projection(m, y), G); });
    }
}

TEST_CASE("cross_entropy with label smoothing, padding ignored") {
    Random rng(9);
    Matrix logits = random_matrix(rng, 4, 6, 2.0);
    const Tokens targets = {2, 5, 0, 1};  // the third is padding (id 0)
    const double scale = 0.25;
    auto loss = [&] {
        LossSum total;
        cross_entropy(logits, targets, 0, 0.1, total);
        return scale * total.sum;
    };
    check_all({{"logits", &logits, cross_entropy_backward(logits, targets, 0, 0.1, scale)}}, loss,
              12);
}

// Two sequences stacked (model/stacking.h): 4 rows, the last one padding, then 3 rows.
Attending two_sequences_self(bool causal) {
    Attending who{Stacking{{0, 4, 7}},
                  Stacking{{0, 4, 7}},
                  {padding_mask(4, padding_after(3, 4)), Matrix(3, 3)}};
    if (causal) {
        add_to(who.masks[0], causal_mask(4));
        add_to(who.masks[1], causal_mask(3));
    }
    return who;
}

TEST_CASE("encoder layer, post-norm and pre-norm, two sequences stacked") {
    for (bool norm_first : {false, true}) {
        CAPTURE(norm_first);
        Transformer m = perturbed(tiny(norm_first, false), 10);
        EncoderLayer& L = m.encoder[0];
        Random rng(10);
        Matrix x = random_matrix(rng, 7, 6);
        const Matrix G = random_matrix(rng, 7, 6);
        const Attending self = two_sequences_self(false);
        EncoderLayerCache cache;
        encoder_layer(x, L, self, m.config, &cache);
        EncoderLayer g = zeros_like(m).encoder[0];
        const Matrix dx = encoder_layer_backward(G, L, cache, m.config, g);
        check_all({{"x", &x, dx},
                   {"self_attn.W_Q", &L.self_attn.W_Q, g.self_attn.W_Q},
                   {"self_attn.W_V", &L.self_attn.W_V, g.self_attn.W_V},
                   {"ffn.W1", &L.ffn.W1, g.ffn.W1},
                   {"norm1.gain", &L.norm1.gain, g.norm1.gain},
                   {"norm2.bias", &L.norm2.bias, g.norm2.bias}},
                  [&] { return weighted_sum(encoder_layer(x, L, self, m.config), G); });
    }
}

TEST_CASE("decoder layer, post-norm and pre-norm, two sequences stacked") {
    for (bool norm_first : {false, true}) {
        CAPTURE(norm_first);
        Transformer m = perturbed(tiny(norm_first, false), 11);
        DecoderLayer& L = m.decoder[0];
        Random rng(11);
        Matrix y = random_matrix(rng, 7, 6), memory = random_matrix(rng, 6, 6);
        const Attending self = two_sequences_self(true);
        // target sequences of 4 and 3 rows read source sequences of 4 (the last padding) and 2
        const Attending cross{
            self.q, Stacking{{0, 4, 6}}, {padding_mask(4, padding_after(3, 4)), Matrix(3, 2)}};
        const Matrix G = random_matrix(rng, 7, 6);
        DecoderLayerCache cache;
        decoder_layer(y, memory, L, self, cross, m.config, &cache);
        DecoderLayer g = zeros_like(m).decoder[0];
        Matrix d_memory(6, 6);
        const Matrix dy = decoder_layer_backward(G, L, cache, m.config, g, d_memory);
        check_all(
            {{"y", &y, dy},
             {"memory", &memory, d_memory},
             {"self_attn.W_K", &L.self_attn.W_K, g.self_attn.W_K},
             {"cross_attn.W_Q", &L.cross_attn.W_Q, g.cross_attn.W_Q},
             {"cross_attn.W_O", &L.cross_attn.W_O, g.cross_attn.W_O},
             {"ffn.b2", &L.ffn.b2, g.ffn.b2},
             {"norm3.gain", &L.norm3.gain, g.norm3.gain}},
            [&] { return weighted_sum(decoder_layer(y, memory, L, self, cross, m.config), G); });
    }
}

TEST_CASE(
    "the whole model: every parameter tensor, both placements, separate and shared embeddings") {
    const std::vector<Example> batch = {{{3, 4, 5, 2}, {5, 4, 3, 2}}, {{6, 7, 2, 0}, {7, 6, 2, 0}}};
    for (bool norm_first : {false, true})
        for (bool shared : {false, true}) {
            CAPTURE(norm_first);
            CAPTURE(shared);
            Transformer m = perturbed(tiny(norm_first, shared), 9);
            Random pick(3);
            for (const GradientCheck& g : check_model_gradients(m, batch, 0.1, 3, pick))
                if (!entry_agrees(g)) break;
        }
}

TEST_CASE("the whole model under chapter 10's switches: every parameter tensor") {
    const std::vector<Example> batch = {{{3, 4, 5, 2}, {5, 4, 3, 2}}, {{6, 7, 2, 0}, {7, 6, 2, 0}}};
    for (const PositionScheme positions : {PositionScheme::Learned, PositionScheme::Rope,
                                           PositionScheme::Alibi, PositionScheme::None}) {
        for (const bool norm_first : {false, true}) {
            CAPTURE(positions_name(positions));
            CAPTURE(norm_first);
            TransformerConfig c = small_config(8, 4, 10, 9, 9);
            c.norm_first = norm_first;
            c.norm = NormKind::RMS;
            c.positions = positions;
            c.n_kv_heads = 2;
            c.window = 2;
            c.max_positions = 6;
            Transformer m = perturbed(c, 21);
            Random pick(3);
            for (const GradientCheck& g : check_model_gradients(m, batch, 0.1, 3, pick))
                if (!entry_agrees(g)) break;
        }
    }
}

TEST_CASE("the whole model with tiled attention (blocks of 2), ALiBi and a window") {
    const std::vector<Example> batch = {{{3, 4, 5, 2}, {5, 4, 3, 2}}, {{6, 7, 2, 0}, {7, 6, 2, 0}}};
    TransformerConfig c = small_config(8, 2, 10, 9, 9);
    c.positions = PositionScheme::Alibi;
    c.window = 3;
    c.attention_tile = 2;
    Transformer m = perturbed(c, 23);
    Random pick(3);
    for (const GradientCheck& g : check_model_gradients(m, batch, 0.1, 3, pick))
        if (!entry_agrees(g)) break;
}

TEST_CASE("the decoder-only model (chapter 12): every parameter tensor, label smoothing") {
    TransformerConfig c = small_config(8, 2, 10, 9, 9);
    c.n_encoder_layers = 0;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    c.n_kv_heads = 1, c.share_embeddings = true;
    Gpt m = random_gpt(c, 41);
    Random rng(42);
    for (Matrix* p : parameter_matrices(m))
        for (double& x : p->data) x += 0.1 * rng.normal();
    const std::vector<Tokens> inputs = {{1, 3, 4, 5, 6}, {1, 7, 8}},
                              targets = {{3, 4, 5, 6, 2}, {7, 8, 2}};
    Gpt grad;
    gpt_loss(m, inputs, targets, &grad, 0.1);
    std::vector<Checked> checked;
    const std::vector<Parameter> ps = parameters(m), gs = parameters(grad);
    for (std::size_t i = 0; i < ps.size(); ++i)
        checked.push_back({ps[i].label(), ps[i].value, *gs[i].value});
    check_all(
        checked, [&] { return gpt_loss(m, inputs, targets, nullptr, 0.1); }, 3);
}

TEST_SUITE_END();

TEST_CASE("the key bias gets no gradient: softmax ignores a constant added to a whole row") {
    Transformer m = perturbed(tiny(false, false), 4);
    Transformer grad;
    batch_gradients(m, {{{3, 4, 2}, {4, 3, 2}}}, 0.1, grad);
    for (double x : grad.encoder[0].self_attn.b_K.data) CHECK(std::fabs(x) <= 1e-15);
    double other = 0.0;
    for (double x : grad.encoder[0].self_attn.b_Q.data) other = std::max(other, std::fabs(x));
    CHECK(other > 1e-6);
}

TEST_CASE("a finite-difference check fails a wrong gradient") {
    Random rng(12);
    Matrix x = random_matrix(rng, 2, 3);
    const Matrix G = random_matrix(rng, 2, 3);
    Random pick(1);
    // L = Σ G ⊙ x has gradient G; claim 2G instead
    CHECK(worst_error(check_gradient(
              "x", x, scale(G, 2.0), [&] { return weighted_sum(x, G); }, 4, pick)) > 0.1);
    CHECK(worst_error(check_gradient(
              "x", x, G, [&] { return weighted_sum(x, G); }, 4, pick)) <= 1e-9);
}
