// test_inside_poet.cpp — chapter 14's measures on small random poets, each against what it
// must equal by construction (the oracle checks the same measures on a trained poet: --check).
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "model/gpt/gpt.h"
#include "inside/head_ablation.h"
#include "model/gpt/gpt_cache.h"
#include "verse/poems.h"
#include "inside/ablations.h"
#include "inside/head_patterns.h"
#include "inside/induction.h"
#include "inside/logit_lens.h"
#include "inside/poem_sample.h"
#include "inside/repeat_paths.h"

namespace {

// A vocabulary of 12: the five specials, 《 》 ， 。 (punctuation, ids 5–8) and three characters.
constexpr int bos = CharVocabulary::bos, eos = CharVocabulary::eos, nl = CharVocabulary::newline;
constexpr int open_title = 5, close_title = 6, comma = 7, stop = 8, a = 9, b = 10, c = 11;
const std::vector<bool> punctuation = {false, false, false, false, true,  true,
                                       true,  true,  true,  false, false, false};

// <bos> 《 a 》 \n a b ， c a 。 \n b c ， a a 。 <eos>
const Tokens poem = {bos,  open_title, a, close_title, nl,    a, b, comma, c,  a,
                     stop, nl,         b, c,           comma, a, a, stop,  eos};

Gpt small_poet(std::uint64_t seed, std::size_t layers = 2) {
    TransformerConfig config;
    config.d_model = 8, config.n_heads = 2, config.n_kv_heads = 2, config.d_ff = 12;
    config.n_encoder_layers = 0, config.n_decoder_layers = layers;
    config.tgt_vocab = config.src_vocab = 12;
    config.norm_first = true, config.positions = PositionScheme::Learned;
    config.max_positions = 32, config.share_embeddings = true;
    return random_gpt(config, seed);
}

}  // namespace

TEST_CASE("a poem's clauses: the body's runs of characters, the title left out") {
    const Clauses clauses = clauses_of(poem, punctuation);
    CHECK(clauses == Clauses{{5, 6}, {8, 9}, {12, 13}, {15, 16}});
    const PoemReading r = read_poem(poem, 10, punctuation);
    CHECK(r.inputs == Tokens(poem.begin(), poem.begin() + 10));
    CHECK(r.targets == Tokens(poem.begin() + 1, poem.begin() + 11));
    // the characters whose next token could double them, within the inputs only
    CHECK(body_characters(r) == std::vector<std::size_t>{5, 6, 8, 9});
    CHECK_THROWS_AS(read_poem({bos}, 10, punctuation), std::invalid_argument);
}

TEST_CASE("an even spread: 1/(q + 1) on every key, entropy ln(q + 1)") {
    const PoemReading r = read_poem(poem, 6, punctuation);  // <bos> 《 a 》 \n a
    const HeadPatterns even = even_spread({r}, punctuation);
    // queries q = 1 … 5; their weights on the key before, on <bos>, by hand
    double previous = 0, entropy = 0, punct = 0;
    for (int q = 1; q <= 5; ++q) previous += 1.0 / (q + 1), entropy += std::log(q + 1.0);
    // punctuation keys among 0 … q: 《 (1), 》 (3), \n (4)
    const int marks[] = {0, 1, 1, 2, 3, 3};
    for (int q = 1; q <= 5; ++q) punct += marks[q] / (q + 1.0);
    CHECK(even.queries == 5);
    CHECK(even.previous.at(0) == doctest::Approx(previous / 5).epsilon(1e-14));
    CHECK(even.bos.at(0) == doctest::Approx(previous / 5).epsilon(1e-14));
    CHECK(even.entropy.at(0) == doctest::Approx(entropy / 5).epsilon(1e-14));
    CHECK(even.punctuation.at(0) == doctest::Approx(punct / 5).epsilon(1e-14));
}

TEST_CASE("a head's measures are means of its own weights, which are causal and sum to 1") {
    const Gpt model = small_poet(7);
    const PoemReading r = read_poem(poem, 18, punctuation);
    const std::vector<Matrix> w = attention_weights(model, r.inputs);
    REQUIRE(w.size() == 4);
    const HeadPatterns p = head_patterns(model, {r}, punctuation);
    for (std::size_t head = 0; head < w.size(); ++head) {
        CAPTURE(head);
        double previous = 0, bos_share = 0;
        for (std::size_t q = 0; q < r.inputs.size(); ++q) {
            double sum = 0;
            for (std::size_t k = 0; k < r.inputs.size(); ++k) {
                if (k > q) CHECK(w[head](q, k) == 0.0);
                sum += w[head](q, k);
            }
            CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
            if (q >= 1) previous += w[head](q, q - 1), bos_share += w[head](q, 0);
        }
        const double queries = static_cast<double>(r.inputs.size() - 1);
        CHECK(p.previous.at(head) == doctest::Approx(previous / queries).epsilon(1e-12));
        CHECK(p.bos.at(head) == doctest::Approx(bos_share / queries).epsilon(1e-12));
    }
}

TEST_CASE("a head replaced by what it outputs anyway leaves the model as it was; zeroed, not") {
    // With one token a head's output is its value of that token, whatever its weights: the mean
    // over that one pass is exactly what the head says, so the mean-ablated model equals the
    // model — up to the order of the sums (b_O + v·W_O against concat·W_O).
    const Gpt model = small_poet(11);
    const std::vector<Tokens> one = {{bos}};
    GptCache cache;
    const Matrix logits = gpt_logits(model, one, &cache);
    HeadOutputSums sums;
    add_head_outputs(model, cache, sums);
    REQUIRE(sums.rows == 1);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t i = 0; i < 2; ++i) {
            CAPTURE(l);
            CAPTURE(i);
            const Gpt mean = without_heads(model, {{l, i, sums.mean(l, i)}});
            CHECK(max_abs_diff(gpt_logits(mean, one), logits) < 1e-12);
            const Gpt zero = without_heads(model, {{l, i, Matrix()}});
            CHECK(max_abs_diff(gpt_logits(zero, one), logits) > 1e-6);
            // the other block and the other head are untouched
            CHECK(max_abs_diff(zero.blocks[1 - l].self_attn.W_O,
                               model.blocks[1 - l].self_attn.W_O) == 0.0);
            const std::size_t d_v = sums.d_v, other = 1 - i;
            for (std::size_t r = other * d_v; r < (other + 1) * d_v; ++r)
                for (std::size_t col = 0; col < model.blocks[l].self_attn.W_O.cols; ++col)
                    CHECK(zero.blocks[l].self_attn.W_O(r, col) ==
                          model.blocks[l].self_attn.W_O(r, col));
        }
}

TEST_CASE("a sample read in parts: the whole model's loss, and the lens ends at it") {
    const Gpt model = small_poet(3);
    std::vector<PoemReading> poems;
    for (std::size_t n : {18, 9, 5}) poems.push_back(read_poem(poem, n, punctuation));
    const PoemSample sample = read_sample(model, poems, 2);  // batches of 2 and 1
    const SampleLosses whole = sample_losses(model, sample, 0, 2);
    std::vector<Tokens> inputs, targets;
    for (const PoemReading& r : poems) inputs.push_back(r.inputs), targets.push_back(r.targets);
    CHECK(whole.loss() == doctest::Approx(gpt_loss(model, inputs, targets)).epsilon(1e-13));
    const std::vector<double> lens = lens_losses(model, sample);
    REQUIRE(lens.size() == 3);
    CHECK(lens.back() == whole.loss());
    CHECK(sample_losses(model, sample, 1, 2).loss() == whole.loss());  // from the kept stream
}

TEST_CASE("the standard error of a change, over poems") {
    SampleLosses base, changed;
    base.poem_sums = {10, 20, 30}, base.poem_counts = {2, 4, 4};
    changed.poem_sums = {11, 20, 33}, changed.poem_counts = {2, 4, 4};
    // Δ = 4 / 10 = 0.4; residuals 1 − 0.8, 0 − 1.6, 3 − 1.6; SE = √(0.04 + 2.56 + 1.96) / 10
    CHECK(change_error(changed, base) == doctest::Approx(std::sqrt(4.56) / 10).epsilon(1e-14));
}

TEST_CASE("the induction test's sequences: <bos> r r, seeded, from the characters given") {
    const std::vector<int> characters = {a, b, c};
    const std::vector<Tokens> s = repeated_sequences(characters, 4, 6, 5);
    REQUIRE(s.size() == 4);
    for (const Tokens& t : s) {
        REQUIRE(t.size() == 13);
        CHECK(t[0] == bos);
        for (std::size_t i = 1; i <= 6; ++i) {
            CHECK(t[i] == t[i + 6]);
            CHECK((t[i] == a || t[i] == b || t[i] == c));
        }
    }
    CHECK(repeated_sequences(characters, 4, 6, 5) == s);
    CHECK(repeated_sequences(characters, 4, 6, 6) != s);
    const Induction x = induction_test(small_poet(5), s, 6);
    CHECK(x.prefix_matching.size() == 4);
    CHECK(x.second_loss_zeroed.size() == 4);
    for (const double p : x.prefix_matching) CHECK((p >= 0 && p <= 1));
}

TEST_CASE("the preference to repeat, path by path: the parts add up to the logits' own") {
    for (const NormKind norm : {NormKind::RMS, NormKind::Layer}) {
        Gpt model = small_poet(5, 3);
        model.config.norm = norm;
        if (norm == NormKind::Layer) {  // a LayerNorm's shift too: a path of its own
            model.norm.kind = NormKind::Layer;
            model.norm.bias = Matrix(1, model.config.d_model, 0.25);
            for (EncoderLayer& b : model.blocks) b.norm1.kind = b.norm2.kind = NormKind::Layer;
            for (EncoderLayer& b : model.blocks)
                b.norm1.bias = b.norm2.bias = Matrix(1, model.config.d_model, 0.0);
        }
        std::vector<PoemReading> poems;
        for (std::size_t n : {18, 9}) poems.push_back(read_poem(poem, n, punctuation));
        const PoemSample sample = read_sample(model, poems, 1);
        const RepeatPaths r = repeat_paths(model, sample);
        CHECK(r.additive);
        // the body's characters: a b c a (first poem, to its 18th input) and a b c a (ninth)
        CHECK(r.positions == 9 + 2);
        CHECK(r.parts() == doctest::Approx(r.total).epsilon(1e-12));
        CHECK(r.heads.size() == 3);
        CHECK(r.heads[0].size() == 2);
        CHECK((norm == NormKind::Layer) == (r.norm_bias != 0));
    }
    // norms after each block: the stream is no plain sum of the paths, and nothing is split
    Gpt post = small_poet(5);
    post.config.norm_first = false;
    const PoemSample sample = read_sample(post, {read_poem(poem, 18, punctuation)}, 1);
    CHECK_FALSE(repeat_paths(post, sample).additive);
}
