// test_one_page.cpp — the GPT on one page (model/gpt/gpt_one_page.h) computes gpt_logits' bits,
// and the encoder-decoder on one page (model/transformer/transformer_one_page.h)
// logits_teacher_forced's: on the oracle's models, on random models of every switch each
// implements; each refuses the rest in one line.
#include <doctest/doctest.h>

#include <cstring>

#include "core/random.h"
#include "helpers.h"
#include "io/gpt_file.h"
#include "io/model_file.h"
#include "io/training_plan.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_one_page.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/transformer/transformer_one_page.h"

namespace {

// The same bits: every double equal as a bit pattern (so -0 and +0 differ, and NaN is caught).
bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(double)) == 0;
}

// Each sequence alone on the page against the rows of one batched gpt_logits of all of them,
// and against gpt_logits of the sequence alone.
void check_same_bits(const Gpt& m, const std::vector<Tokens>& sequences) {
    const Matrix batched = gpt_logits(m, sequences);
    std::size_t row = 0;
    for (const Tokens& s : sequences) {
        CAPTURE(s.size());
        const Matrix page = gpt_logits_one_page(m, s);
        CHECK(same_bits(page, gpt_logits(m, {s})));
        CHECK(same_bits(page, row_block(batched, row, s.size())));
        row += s.size();
    }
}

std::vector<Tokens> random_sequences(Random& rng, std::size_t count, std::size_t longest,
                                     std::size_t vocab) {
    std::vector<Tokens> out;
    for (std::size_t i = 0; i < count; ++i) {
        Tokens s(1 + rng.next() % longest);
        for (int& t : s) t = static_cast<int>(rng.next() % vocab);  // <pad> (0) included
        out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("the GPT on one page: the oracle's models, gpt_logits' bits and PyTorch's logits") {
    const DataFile data = DataFile::load("data/ch12_gpt.json");
    for (std::size_t i = 0; i < data.length("inputs.tiny.variants"); ++i) {
        const std::string k = "inputs.tiny.variants[" + std::to_string(i) + "]";
        const std::string name = data.text(k + ".name");
        CAPTURE(name);
        const Gpt m = load_gpt(data, k);
        const std::vector<Tokens> inputs = data.token_lists("inputs.tiny.inputs", m.config.tgt_vocab);
        check_same_bits(m, inputs);
        Matrix pages;  // the sequences' logits stacked, as the oracle wrote them
        for (const Tokens& s : inputs) append_rows(pages, gpt_logits_one_page(m, s));
        check_close(pages, data, "logits_" + name, tolerance::end_to_end);
    }
}

TEST_CASE("the GPT on one page: the defined run's shape, gpt_logits' bits") {
    const DataFile data = DataFile::load("data/ch12_gpt.json");
    TransformerConfig c = read_gpt_config(data, "inputs.model.", false);
    c.tgt_vocab = c.src_vocab = 3000;  // the defined run's vocabulary
    const Gpt m = random_gpt(c, 12);
    Random rng(64);
    check_same_bits(m, random_sequences(rng, 3, 64, c.tgt_vocab));
}

TEST_CASE("the GPT on one page: random models of every switch it implements, gpt_logits' bits") {
    Random rng(2026);
    for (NormKind norm : {NormKind::Layer, NormKind::RMS})
        for (PositionScheme positions :
             {PositionScheme::Sinusoidal, PositionScheme::Learned, PositionScheme::Rope,
              PositionScheme::Alibi, PositionScheme::None})
            for (std::size_t kv_heads : {0, 1, 2})
                for (std::size_t window : {0, 3}) {
                    TransformerConfig c;
                    c.d_model = 16, c.n_heads = 4, c.n_kv_heads = kv_heads, c.d_ff = 20;
                    c.n_encoder_layers = 0, c.n_decoder_layers = 2;
                    c.tgt_vocab = c.src_vocab = 13, c.share_embeddings = true;
                    c.norm = norm, c.norm_first = true, c.positions = positions;
                    c.max_positions = 10, c.window = window;
                    CAPTURE(norm_name(norm));
                    CAPTURE(positions_name(positions));
                    CAPTURE(kv_heads);
                    CAPTURE(window);
                    const Gpt m = random_gpt(c, rng.next());
                    check_same_bits(m, random_sequences(rng, 4, 10, c.tgt_vocab));
                }
}

TEST_CASE("the GPT on one page: one token, one head, one block") {
    TransformerConfig c;
    c.d_model = 2, c.n_heads = 1, c.d_ff = 1, c.n_encoder_layers = 0, c.n_decoder_layers = 1;
    c.tgt_vocab = c.src_vocab = 3, c.norm_first = true, c.positions = PositionScheme::Rope;
    const Gpt m = random_gpt(c, 1);
    check_same_bits(m, {{1}, {2, 0}});
    CHECK_THROWS_AS(gpt_logits_one_page(m, {3}), std::out_of_range);  // outside the vocabulary
}

TEST_CASE("the GPT on one page refuses, in one line, what it leaves to gpt_logits") {
    TransformerConfig c;
    c.d_model = 4, c.n_heads = 2, c.d_ff = 4, c.n_encoder_layers = 0, c.n_decoder_layers = 1;
    c.tgt_vocab = c.src_vocab = 5, c.norm_first = true;
    Gpt m = random_gpt(c, 3);
    m.config.norm_first = false;
    CHECK_THROWS_WITH_AS(gpt_logits_one_page(m, {1, 2}),
                         "gpt_logits_one_page: post-norm blocks are left to gpt_logits "
                         "(norm_first: false)",
                         std::invalid_argument);
    m.config.norm_first = true, m.config.attention_tile = 2;
    CHECK_THROWS_WITH_AS(gpt_logits_one_page(m, {1, 2}),
                         "gpt_logits_one_page: tiled attention is left to gpt_logits "
                         "(attention_tile: 2)",
                         std::invalid_argument);
}

// --- chapter 6's encoder-decoder on one page -------------------------------------------------

namespace {

// Each (source, decoder input) pair alone on the page against logits_teacher_forced of the pair
// alone and against the rows of one batched encode and decode of every pair.
void check_same_bits(const Transformer& m, const std::vector<Tokens>& sources,
                     const std::vector<Tokens>& inputs) {
    const Matrix batched = decode(m, inputs, encode(m, sources), sources);
    std::size_t row = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        CAPTURE(sources[i].size());
        CAPTURE(inputs[i].size());
        const Matrix page = transformer_logits_one_page(m, sources[i], inputs[i]);
        CHECK(same_bits(page, logits_teacher_forced(m, sources[i], inputs[i])));
        CHECK(same_bits(page, row_block(batched, row, inputs[i].size())));
        row += inputs[i].size();
    }
}

}  // namespace

TEST_CASE("the encoder-decoder on one page: the oracle's models, their bits and PyTorch's") {
    // chapter 6's model in both placements, on each example of its data file
    const DataFile d6 = DataFile::load("data/ch06_encoder_decoder.json");
    Transformer m = load_transformer(d6, "inputs");
    const std::vector<Tokens> sources = d6.token_lists("inputs.source", m.config.src_vocab);
    const std::vector<Tokens> targets = d6.token_lists("inputs.target", m.config.tgt_vocab);
    for (const bool pre : {false, true}) {
        m.config.norm_first = pre;
        std::vector<Tokens> inputs;
        for (const Tokens& t : targets) inputs.push_back(shifted_right(t, m.config.bos_id));
        check_same_bits(m, sources, inputs);
        for (std::size_t b = 0; b < sources.size(); ++b)
            check_close(transformer_logits_one_page(m, sources[b], inputs[b]), d6,
                        std::string(pre ? "logits_pre_norm_" : "logits_post_norm_") +
                            std::to_string(b),
                        tolerance::end_to_end);
    }
    // chapter 10's variants (RoPE, ALiBi, grouped-query heads, RMSNorm, a window), on its batch
    const DataFile d10 = DataFile::load("data/ch10_modern_attention.json");
    for (std::size_t i = 0; i < d10.length("inputs.models.variants"); ++i) {
        const std::string k = "inputs.models.variants[" + std::to_string(i) + "]";
        const std::string name = d10.text(k + ".name");
        CAPTURE(name);
        const Transformer v = load_transformer(d10, k);
        std::vector<Tokens> srcs, inputs;
        for (const Example& e : read_examples(d10, "inputs.models.batch", v.config.src_vocab,
                                              v.config.tgt_vocab)) {
            srcs.push_back(e.source);
            inputs.push_back(shifted_right(e.target, v.config.bos_id));
        }
        check_same_bits(v, srcs, inputs);
        Matrix pages;  // the examples' logits stacked, as the oracle wrote them
        for (std::size_t b = 0; b < srcs.size(); ++b)
            append_rows(pages, transformer_logits_one_page(v, srcs[b], inputs[b]));
        check_close(pages, d10, "logits_" + name, tolerance::end_to_end);
    }
}

TEST_CASE("the encoder-decoder on one page: random models of every switch, its bits") {
    Random rng(2017);
    std::size_t models = 0;
    for (const bool pre : {false, true})
        for (NormKind norm : {NormKind::Layer, NormKind::RMS})
            for (PositionScheme positions :
                 {PositionScheme::Sinusoidal, PositionScheme::Learned, PositionScheme::Rope,
                  PositionScheme::Alibi, PositionScheme::None})
                for (std::size_t kv_heads : {0, 1})
                    for (std::size_t window : {0, 3}) {
                        TransformerConfig c;
                        c.d_model = 8, c.n_heads = 2, c.n_kv_heads = kv_heads, c.d_ff = 12;
                        c.n_encoder_layers = 2, c.n_decoder_layers = 2;
                        c.src_vocab = 11, c.tgt_vocab = 9, c.share_embeddings = models % 2 == 1;
                        if (c.share_embeddings) c.tgt_vocab = c.src_vocab;
                        c.norm = norm, c.norm_first = pre, c.positions = positions;
                        c.max_positions = 12, c.window = window;
                        CAPTURE(pre);
                        CAPTURE(norm_name(norm));
                        CAPTURE(positions_name(positions));
                        CAPTURE(kv_heads);
                        CAPTURE(window);
                        const Transformer m = random_transformer(c, rng.next());
                        // <pad> (0) may fall anywhere, a whole source of it included
                        const std::vector<Tokens> sources =
                            random_sequences(rng, 3, 10, c.src_vocab);
                        const std::vector<Tokens> inputs =
                            random_sequences(rng, 3, 10, c.tgt_vocab);
                        check_same_bits(m, sources, inputs);
                        ++models;
                    }
    CHECK(models == 80);
}

TEST_CASE("the encoder-decoder on one page: one token each side, one head, one layer each") {
    TransformerConfig c;
    c.d_model = 2, c.n_heads = 1, c.d_ff = 1, c.n_encoder_layers = 1, c.n_decoder_layers = 1;
    c.src_vocab = c.tgt_vocab = 4;
    const Transformer m = random_transformer(c, 5);
    check_same_bits(m, {{3}, {0}}, {{1}, {2}});  // the second source is all <pad>
    CHECK_THROWS_AS(transformer_logits_one_page(m, {1}, {4}), std::out_of_range);
}

TEST_CASE("the encoder-decoder on one page refuses, in one line, tiled attention") {
    TransformerConfig c;
    c.d_model = 4, c.n_heads = 2, c.d_ff = 4, c.n_encoder_layers = 1, c.n_decoder_layers = 1;
    c.src_vocab = c.tgt_vocab = 5, c.attention_tile = 2;
    const Transformer m = random_transformer(c, 3);
    CHECK_THROWS_WITH_AS(transformer_logits_one_page(m, {1, 2}, {1}),
                         "transformer_logits_one_page: tiled attention is left to "
                         "logits_teacher_forced (attention_tile: 2)",
                         std::invalid_argument);
}
