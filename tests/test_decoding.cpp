// test_decoding.cpp — beam search and sampling by their rules: a beam of one is greedy
// decoding, scores are log-probabilities over the length penalty, hypotheses come best first;
// sampling distributions by hand, top-k, temperatures near 0, and seeds that repeat.
#include <doctest/doctest.h>

#include <cmath>

#include "model/transformer/transformer.h"
#include "model_helpers.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/beam_search.h"
#include "model/decoding/decoding.h"
#include "model/decoding/sampling.h"

namespace {

Transformer small_model(std::uint64_t seed) {
    TransformerConfig c;
    c.d_model = 8, c.n_heads = 2, c.d_ff = 12, c.n_encoder_layers = 1, c.n_decoder_layers = 2;
    c.src_vocab = 9, c.tgt_vocab = 9;
    return random_transformer(c, seed);
}

}  // namespace

TEST_CASE("beam search: the length penalty, a beam of one, scores and order") {
    CHECK(length_penalty(1, 0.6) == 1.0);  // ((5 + 1)/6)^α
    CHECK(length_penalty(7, 0.6) == doctest::Approx(std::pow(2.0, 0.6)).epsilon(1e-15));
    CHECK(length_penalty(7, 0.0) == 1.0);  // α = 0: plain log-probabilities
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        CAPTURE(seed);
        const Transformer m = small_model(seed);
        const Tokens source = {3, 4, 5, 2};
        const std::vector<Hypothesis> one = beam_search(m, source, {1, 0.6, 12});
        REQUIRE(one.size() == 1);
        CHECK(one[0].tokens == greedy_decode(m, source, 12).output);  // a beam of one is greedy
        const std::vector<Hypothesis> four = beam_search(m, source, {4, 0.6, 12});
        REQUIRE(four.size() == 4);
        for (std::size_t h = 0; h < four.size(); ++h) {
            const Hypothesis& x = four[h];
            CHECK(x.log_prob ==
                  doctest::Approx(sequence_log_prob(m, source, x.tokens)).epsilon(1e-12));
            CHECK(x.score ==
                  doctest::Approx(x.log_prob / length_penalty(x.tokens.size() - 1, 0.6)));
            CHECK(x.tokens.size() <= 13);
            if (h > 0) CHECK(four[h - 1].score >= x.score);  // best first
            for (int id : x.tokens) CHECK(id != 0);          // never <pad>
        }
    }
}

TEST_CASE("sampling: temperature and top-k by hand, draws that repeat with the seed") {
    TransformerConfig c;  // <pad> 0, <bos> 1, <eos> 2
    const Matrix logits{{5, 5, std::log(1.0), std::log(2.0), std::log(3.0)}};
    const Matrix p = sampling_distribution(logits, c, 1.0, 0);
    CHECK(p(0, 0) == 0.0);  // <pad> and <bos> are never drawn
    CHECK(p(0, 1) == 0.0);
    CHECK(p(0, 2) == doctest::Approx(1.0 / 6).epsilon(1e-15));
    CHECK(p(0, 4) == doctest::Approx(3.0 / 6).epsilon(1e-15));
    const Matrix hot = sampling_distribution(logits, c, 0.5, 0);  // p ∝ 1, 4, 9
    CHECK(hot(0, 4) == doctest::Approx(9.0 / 14).epsilon(1e-14));
    const Matrix top2 = sampling_distribution(logits, c, 1.0, 2);  // 2 and 3 of 5 parts
    CHECK(top2(0, 2) == 0.0);
    CHECK(top2(0, 3) == doctest::Approx(2.0 / 5).epsilon(1e-15));
    const Matrix cold = sampling_distribution(logits, c, 1e-3, 0);
    CHECK(cold(0, 4) == doctest::Approx(1.0));  // T → 0: the argmax
    // inverse transform: u in (0, 1/6] → id 2, (1/6, 1/2] → id 3, the rest → id 4
    Random rng(3), again(3);
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 6000; ++i) {
        const int id = draw_token(p, rng);
        counts[id] += 1;
        CHECK(id == draw_token(p, again));  // the same seed, the same draws
    }
    CHECK(counts[0] + counts[1] == 0);
    CHECK(std::abs(counts[4] - 3000) < 200);
    const Transformer m = small_model(2);
    Random r1(5), r2(5);
    CHECK(sample_decode(m, {3, 4, 2}, 1.0, 0, 10, r1) ==
          sample_decode(m, {3, 4, 2}, 1.0, 0, 10, r2));
    Random r3(6);
    CHECK(sample_decode(m, {3, 4, 2}, 1e-4, 0, 10, r3) == greedy_decode(m, {3, 4, 2}, 10).output);
}

TEST_CASE("greedy decoding never emits <pad> or <bos>, however likely the model makes them") {
    TransformerConfig c = small_config(8, 2, 12, 9, 7);
    Transformer m = random_transformer(c, 3);
    m.output_b(0, c.pad_id) = 1e3;  // the model all but insists on <pad> …
    m.output_b(0, c.bos_id) = 1e3;  // … and on <bos>
    const GreedySteps g = greedy_decode(m, {3, 4, 5}, 6);
    REQUIRE(g.output.size() > 1);
    CHECK(g.output[0] == c.bos_id);  // the start, which decoding is given, not chooses
    for (std::size_t t = 1; t < g.output.size(); ++t) {
        CHECK(g.output[t] != c.pad_id);
        CHECK(g.output[t] != c.bos_id);
    }
}
