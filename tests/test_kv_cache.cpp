// test_kv_cache.cpp — incremental decoding with a KV cache gives, bit for bit, the logits of
// recomputing the whole prefix; on models of other shapes, both norm placements, a padded
// source, and long outputs.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <stdexcept>

#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"

namespace {

// The largest |cached − recomputed| over every step of feeding `fed`.
double worst_gap(const Transformer& m, const Tokens& source, const Tokens& fed) {
    return cache_against_recomputation(m, source, fed).worst();
}

TransformerConfig config(bool norm_first) {
    TransformerConfig c;
    c.d_model = 12, c.n_heads = 3, c.d_ff = 20, c.n_encoder_layers = 2, c.n_decoder_layers = 3;
    c.src_vocab = 9, c.tgt_vocab = 11, c.norm_first = norm_first;
    return c;
}

}  // namespace

TEST_CASE("KV cache: every step's logits equal recomputation's last row, to the bit") {
    for (const bool norm_first : {false, true}) {
        CAPTURE(norm_first);
        const Transformer m = random_transformer(config(norm_first), 3);
        CHECK(worst_gap(m, {3, 4, 5, 6, 2}, {1, 7, 3, 9, 4, 4, 10, 5}) == 0.0);
        CHECK(worst_gap(m, {3, 8, 2, 0, 0}, {1, 5, 6}) == 0.0);  // padded source keys hidden
    }
    TransformerConfig shared = config(false);
    shared.share_embeddings = true, shared.src_vocab = shared.tgt_vocab = 11;
    CHECK(worst_gap(random_transformer(shared, 4), {3, 4, 2}, {1, 3, 3, 3}) == 0.0);
    Tokens long_output(70, 4);  // past 64 positions: the weights·V product has 64+ terms
    long_output[0] = 1;
    CHECK(worst_gap(random_transformer(config(true), 5), {3, 4, 5, 2}, long_output) == 0.0);
    TransformerConfig wide = config(false);  // d_model 64: the full pass's projections take the
    wide.d_model = 64, wide.n_heads = 2, wide.d_ff = 64;  // matmul's blocked path (6+ rows),
    Tokens twelve(12, 6);                                 // a step's single row the small one
    twelve[0] = 1;
    CHECK(worst_gap(random_transformer(wide, 6), {3, 4, 5, 2}, twelve) == 0.0);
}

TEST_CASE("KV cache: what it holds grows by one row per layer and step") {
    const Transformer m = random_transformer(config(false), 3);
    KVCache cache = start_decoding(m, {3, 4, 5, 2});  // 4 source tokens
    const std::size_t row = 12 + 12;                  // one key and one value, h·d_k = h·d_v = 12
    CHECK(cache_doubles(cache) == 3 * 4 * row);       // the memory's, in 3 decoder layers
    decode_step(m, cache, 1);
    decode_step(m, cache, 5);
    CHECK(cache.fed.size() == 2);
    CHECK(cache_doubles(cache) == 3 * (4 + 2) * row);
    CHECK(kv_cache_bytes(m.config, 2, 4) == 8.0 * static_cast<double>(cache_doubles(cache)));
}

TEST_CASE("KV cache: bit for bit under every combination of chapter 10's switches") {
    std::size_t models = 0;
    for (const NormKind norm : {NormKind::Layer, NormKind::RMS})
        for (const bool norm_first : {false, true})
            for (const PositionScheme positions :
                 {PositionScheme::Sinusoidal, PositionScheme::Learned, PositionScheme::Rope,
                  PositionScheme::Alibi, PositionScheme::None})
                for (const std::size_t kv_heads : {3, 1})
                    for (const std::size_t window : {0, 2}) {
                        TransformerConfig c = config(norm_first);
                        c.norm = norm, c.positions = positions, c.n_kv_heads = kv_heads;
                        c.window = window, c.max_positions = 12;
                        CAPTURE(norm_name(norm));
                        CAPTURE(norm_first);
                        CAPTURE(positions_name(positions));
                        CAPTURE(kv_heads);
                        CAPTURE(window);
                        const Transformer m = random_transformer(c, 7);
                        CHECK(worst_gap(m, {3, 4, 5, 6, 2}, {1, 7, 3, 9, 4, 4, 10, 5}) == 0.0);
                        CHECK(worst_gap(m, {3, 8, 2, 0, 0}, {1, 5, 6}) == 0.0);
                        ++models;
                    }
    CHECK(models == 80);
}

TEST_CASE("KV cache: grouped-query attention keeps h / n_kv times fewer doubles") {
    TransformerConfig c = config(false);
    c.n_kv_heads = 1;  // multi-query: one key and one value head of d_k = 4
    const Transformer m = random_transformer(c, 3);
    KVCache cache = start_decoding(m, {3, 4, 5, 2});
    decode_step(m, cache, 1);
    const std::size_t row = 4 + 4;
    CHECK(cache_doubles(cache) == 3 * (4 + 1) * row);
    CHECK(kv_cache_bytes(m.config, 1, 4) == 8.0 * static_cast<double>(cache_doubles(cache)));
}

TEST_CASE("KV cache: a <pad> at any position of the decoder's input is hidden on both paths") {
    // who_attends.h: a <pad> key is hidden from every query, in the full pass and in the step
    for (const bool norm_first : {false, true}) {
        const Transformer m = random_transformer(config(norm_first), 4);
        const Tokens fed = {1, 6, 4, 3, 7, 8};
        for (std::size_t pad = 0; pad < fed.size(); ++pad) {
            CAPTURE(norm_first);
            CAPTURE(pad);
            Tokens with_pad = fed;
            with_pad[pad] = m.config.pad_id;
            CHECK(worst_gap(m, {3, 4, 5, 2}, with_pad) == 0.0);
        }
    }
}

TEST_CASE("KV cache: sequences decoded in one batch are, bit for bit, each decoded alone") {
    for (const PositionScheme positions : {PositionScheme::Sinusoidal, PositionScheme::Rope,
                                           PositionScheme::Alibi}) {
        CAPTURE(positions_name(positions));
        TransformerConfig c = config(true);
        c.positions = positions, c.n_kv_heads = 1, c.max_positions = 12;
        // the first seed whose greedy outputs end at different steps (a sequence leaves the
        // batch while the others go on)
        Transformer m;
        const std::vector<Tokens> sources = {{3, 4, 5, 6, 2}, {3, 8, 2, 0, 0}, {7, 2}, {5, 5, 5, 2}};
        std::set<std::size_t> lengths;
        for (std::uint64_t seed = 1; seed < 200 && lengths.size() < 2; ++seed) {
            m = random_transformer(c, seed);
            lengths.clear();
            for (const Tokens& s : sources) lengths.insert(greedy_decode(m, s, 9).output.size());
        }
        REQUIRE(lengths.size() > 1);
        // sources of different lengths, one padded; each batch row its own next token
        const std::vector<Tokens> fed = {{1, 7, 3, 9}, {1, 5, 6, 4}, {1, 1, 8, 3}, {1, 10, 4, 4}};
        std::vector<KVCache> together, alone;
        for (const Tokens& s : sources) together.push_back(start_decoding(m, s));
        alone = together;
        std::vector<KVCache*> batch;
        for (KVCache& k : together) batch.push_back(&k);
        for (std::size_t t = 0; t < fed[0].size(); ++t) {
            Tokens step;
            for (const Tokens& f : fed) step.push_back(f[t]);
            const Matrix rows = decode_steps(m, batch, step);
            REQUIRE(rows.rows == sources.size());
            for (std::size_t b = 0; b < sources.size(); ++b) {
                CAPTURE(t);
                CAPTURE(b);
                CHECK(max_abs_diff(row_of(rows, b), decode_step(m, alone[b], fed[b][t])) == 0.0);
            }
        }
        // greedy decoding of them all at once: each output greedy_decode's for its source alone,
        // the sequences leaving the batch at different steps
        const std::vector<Tokens> outputs = greedy_decode_batch(m, sources, 9);
        REQUIRE(outputs.size() == sources.size());
        for (std::size_t s = 0; s < sources.size(); ++s) {
            CAPTURE(s);
            CHECK(outputs[s] == greedy_decode(m, sources[s], 9).output);
        }
        CHECK(greedy_decode_batch(m, sources, 0) == std::vector<Tokens>(4, Tokens{c.bos_id}));
    }
    const Transformer m = random_transformer(config(false), 3);
    KVCache one = start_decoding(m, {3, 4, 2});
    CHECK_THROWS_AS(decode_steps(m, {&one}, {1, 2}), std::invalid_argument);
    CHECK_THROWS_AS(decode_steps(m, {}, {}), std::invalid_argument);
}
