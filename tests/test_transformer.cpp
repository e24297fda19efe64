// test_transformer.cpp — the encoder-decoder: placements, the two data flows, saving and
// loading, parameter counts, and bad shapes.
#include <doctest/doctest.h>

#include <stdexcept>

#include "helpers.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/norms.h"
#include "model_helpers.h"
#include "model/attention/masks.h"
#include "io/model_file.h"
#include "model/decoding/decoding.h"
#include "model/transformer/embedding.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"

static TransformerConfig small_config(bool norm_first) {
    TransformerConfig c = small_config(8, 2, 12, 9, 7);
    c.norm_first = norm_first;
    return c;
}

TEST_CASE("post-norm and pre-norm layers differ, each as its formula says") {
    const Transformer m = random_transformer(small_config(false), 1);
    const EncoderLayer& L = m.encoder[0];
    const Matrix x = embed(m.src_embedding, {3, 4, 5});
    const Attending none = within_one(3, 3);  // one sequence, nothing masked
    // post-norm: LayerNorm(x + Sublayer(x)), twice
    Matrix post = layer_norm(add(x, multi_head_attention(x, x, L.self_attn)), L.norm1);
    post = layer_norm(add(post, feed_forward(post, L.ffn)), L.norm2);
    CHECK(max_abs_diff(encoder_layer(x, L, none, small_config(false)), post) <= 1e-15);
    // pre-norm: x + Sublayer(LayerNorm(x)), twice
    const Matrix n1 = layer_norm(x, L.norm1);
    Matrix pre = add(x, multi_head_attention(n1, n1, L.self_attn));
    pre = add(pre, feed_forward(layer_norm(pre, L.norm2), L.ffn));
    CHECK(max_abs_diff(encoder_layer(x, L, none, small_config(true)), pre) <= 1e-15);
    CHECK(max_abs_diff(pre, post) > 1e-3);
}

TEST_CASE("teacher-forced logits at t equal step-by-step decoding of the prefix, both placements") {
    for (bool norm_first : {false, true}) {
        const Transformer m = random_transformer(small_config(norm_first), 2);
        const Tokens source = {3, 4, 5, 0}, input = {1, 6, 5, 4, 3};
        const Matrix memory = encode(m, {source});
        const Matrix all = decode(m, {input}, memory, {source});
        for (std::size_t t = 0; t < input.size(); ++t) {
            const Tokens prefix(input.begin(), input.begin() + static_cast<long>(t) + 1);
            const Matrix step = decode(m, {prefix}, memory, {source});
            CHECK(max_abs_diff(row_of(step, t), row_of(all, t)) <= 1e-12);
        }
        const GreedySteps g = greedy_decode(m, source, 4);
        CHECK(g.output.front() == 1);
        CHECK(g.output.size() <= 5);
    }
}

TEST_CASE("sequences stacked give each sequence's rows exactly as it alone would") {
    for (bool norm_first : {false, true}) {
        const Transformer m = random_transformer(small_config(norm_first), 6);
        const std::vector<Tokens> sources = {{3, 4, 5, 2}, {6, 2}, {7, 8, 3, 0, 0}};
        const std::vector<Tokens> inputs = {{1, 5, 4}, {1, 6, 3, 2}, {1}};
        const Matrix memory = encode(m, sources), logits = decode(m, inputs, memory, sources);
        std::size_t row = 0;
        for (std::size_t s = 0; s < sources.size(); ++s) {
            const Matrix alone = logits_teacher_forced(m, sources[s], inputs[s]);
            CHECK(max_abs_diff(row_block(logits, row, alone.rows), alone) == 0.0);
            row += alone.rows;
        }
        CHECK(row == logits.rows);
    }
}

TEST_CASE("padding in the source changes nothing: the masked keys are ignored") {
    const Transformer m = random_transformer(small_config(false), 3);
    const Matrix a = logits_teacher_forced(m, {3, 4, 5}, {1, 6, 5});
    const Matrix b = logits_teacher_forced(m, {3, 4, 5, 0, 0}, {1, 6, 5});
    CHECK(max_abs_diff(a, b) <= 1e-12);
}

TEST_CASE("a saved model loads back to the same logits") {
    Transformer m = random_transformer(small_config(true), 4);
    m.config.vocabulary = {"<pad>", "<bos>", "<eos>", "a", "b", "c", "d"};
    m.config.source_vocabulary = {"<pad>", "<bos>", "<eos>", "0", "1", "2", "3", "4", "5"};
    const std::string path = temp_file("model.json", "");
    save_transformer(m, {"test", 0, 0.0, 0.0, 0}, path);
    const Transformer back = load_transformer(DataFile::load(path), "");
    CHECK(back.config.norm_first);
    CHECK(back.config.vocabulary == m.config.vocabulary);
    CHECK(max_abs_diff(logits_teacher_forced(m, {3, 4}, {1, 5}),
                       logits_teacher_forced(back, {3, 4}, {1, 5})) == 0.0);
}

TEST_CASE("the paper's base model has nn.Transformer's 44,140,544 core parameters") {
    TransformerConfig c;  // d_model 512, h 8, N 6, d_ff 2048
    c.src_vocab = c.tgt_vocab = 4;
    CHECK(core_parameter_count(random_transformer(c, 0)) == 44140544);
}

TEST_CASE("a token id outside the vocabulary is refused") {
    const Transformer ok = random_transformer(small_config(false), 5);
    CHECK_THROWS_AS(encode(ok, {{3, 99}}), std::out_of_range);
}
