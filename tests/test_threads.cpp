// test_threads.cpp — the same work on 1, 2 and 3 threads gives the same numbers, bit for bit:
// the products (every loop of matmul.cpp, large enough to be shared out), one forward pass,
// one backward pass, ten training steps, a decoder-only model's cached steps and chapter 14's
// poem sample.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "core/random.h"
#include "fast/threads.h"
#include "inside/head_ablation.h"
#include "inside/poem_sample.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer_init.h"
#include "model/gpt/gpt.h"
#include "train/batch.h"
#include "train/evaluate.h"
#include "train/reverse_task.h"
#include "train/trainer.h"
#include "verse/poems.h"
#include "model_helpers.h"

namespace {

Matrix random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
    Random rng(seed);
    Matrix m(rows, cols);
    for (double& x : m.data) x = rng.normal();
    return m;
}

// Every bit of every number: memcmp, so that even −0 against +0 or two NaNs would differ.
bool same_bits(const std::vector<Matrix>& a, const std::vector<Matrix>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].rows != b[i].rows || a[i].cols != b[i].cols ||
            std::memcmp(a[i].data.data(), b[i].data.data(), a[i].data.size() * sizeof(double)))
            return false;
    return true;
}

// Runs `work` on 1, 2 and 3 threads (then puts the count back) and checks that 2 and 3 give
// what 1 gave.
void same_on_every_thread_count(const std::function<std::vector<Matrix>()>& work) {
    const int before = thread_count();
    set_thread_count(1);
    const std::vector<Matrix> one = work();
    for (int n : {2, 3}) {
        set_thread_count(n);
        CAPTURE(n);
#if defined(_OPENMP)
        CHECK(thread_count() == n);  // built with make OPENMP=0 there is one thread whatever n
#endif
        CHECK(same_bits(work(), one));
    }
    set_thread_count(before);
}

std::vector<Matrix> copies(const std::vector<Matrix*>& params) {
    std::vector<Matrix> out;
    for (const Matrix* p : params) out.push_back(*p);
    return out;
}

// Large enough that a 60-token forward shares out its products and its heads (2^20 multiply-adds,
// worth_threads): 60 x 192 x 512 in the feed-forward net, 60 x 60 x 2·192 in attention.
TransformerConfig threaded_config() {
    TransformerConfig c = small_config(192, 4, 512, 13, 13);
    c.max_positions = 64;
    return c;
}

}  // namespace

TEST_CASE("threads: every product loop gives the same bits on 1, 2 and 3 threads") {
#if !defined(_OPENMP)
    WARN_MESSAGE(false, "built without OpenMP (make OPENMP=0): one thread only");
#endif
    const Matrix a = random_matrix(70, 300, 1), b = random_matrix(300, 1100, 2);
    const Matrix s = random_matrix(300, 32, 3), t = random_matrix(32, 200, 4);
    const Matrix row = random_matrix(2, 288, 5), table = random_matrix(5000, 288, 6);
    same_on_every_thread_count([&] {
        return std::vector<Matrix>{
            matmul(a, b),                               // blocked, two column blocks
            matmul_bt(a, random_matrix(1100, 300, 7)),  // blocked, b transposed
            matmul_at(random_matrix(300, 70, 8), b),    // blocked, a transposed
            matmul(s, t),                               // small
            matmul_at(random_matrix(32, 300, 9), t),    // small, a transposed
            matmul_bt(row, table),                      // dot products
        };
    });
    // and the shared-out products still equal the definition
    set_thread_count(3);
    CHECK(same_bits({matmul(a, b), matmul_bt(row, table)},
                    {matmul_naive(a, b), matmul_naive(row, transpose(table))}));
    set_thread_count(1);
}

TEST_CASE("threads: one forward and one backward pass give the same bits on 1, 2 and 3 threads" * doctest::test_suite("native")) {
    const Transformer m = random_transformer(threaded_config(), 11);
    Random rng(12);
    const std::vector<Example> batch = random_reversals(rng, 20, 20, 30);  // three parts
    const Example e = random_reversals(rng, 1, 60, 60).front();
    same_on_every_thread_count([&] {
        std::vector<Matrix> out{
            logits_teacher_forced(m, e.source, shifted_right(e.target, m.config.bos_id))};
        Transformer grad;
        const double loss = batch_gradients(m, batch, 0.1, grad);
        out.push_back(Matrix{{loss}});
        for (const Matrix& g : copies(parameter_matrices(grad))) out.push_back(g);
        return out;
    });
}

TEST_CASE("threads: ten training steps give the same model, bit for bit, on 1, 2 and 3 threads" * doctest::test_suite("native")) {
    TrainingSettings settings;
    settings.max_steps = 10;
    settings.seed = 13;
    settings.adam.d_model = 192;
    settings.adam.warmup = 4;
    same_on_every_thread_count([&] {
        const TrainingRun run =
            train(random_transformer(threaded_config(), 14), settings,
                  [](Random& rng) { return random_reversals(rng, 24, 10, 30); });
        Transformer trained = run.model;
        std::vector<Matrix> out = copies(parameter_matrices(trained));
        Matrix losses(1, run.losses.size());
        losses.data = run.losses;
        out.push_back(losses);
        return out;
    });
}

TEST_CASE("threads: a decoder-only model's cached steps give the same bits on 1, 2 and 3 threads") {
    TransformerConfig c;
    c.d_model = 96, c.n_heads = 3, c.d_ff = 256, c.n_encoder_layers = 0, c.n_decoder_layers = 2;
    c.src_vocab = c.tgt_vocab = 3000, c.max_positions = 32, c.share_embeddings = true;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    const Gpt m = random_gpt(c, 15);
    same_on_every_thread_count([&] {
        GptKV kv = start_gpt(m);
        std::vector<Matrix> out;
        for (int token : {1, 5, 2999, 7, 7}) out.push_back(gpt_step(m, kv, token));
        return out;
    });
}

// The backward heads shared out by (sequence, key/value head) (model/multi_head/heads.cpp): four
// sequences stacked, each key/value head read by three query heads whose parts of dK and dV are
// added in turn (three terms: another order would round differently); 2^20 multiply-adds and
// more, so that 2 and 3 threads share the groups out.
TEST_CASE("threads: a decoder-only model's gradient over stacked sequences, grouped-query heads, gives the same bits on 1, 2 and 3 threads" * doctest::test_suite("native")) {
    TransformerConfig c;
    c.d_model = 96, c.n_heads = 6, c.n_kv_heads = 2, c.d_ff = 128, c.n_encoder_layers = 0,
    c.n_decoder_layers = 1, c.src_vocab = c.tgt_vocab = 500, c.max_positions = 64;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    const Gpt m = random_gpt(c, 16);
    Random rng(17);
    std::vector<Tokens> inputs(4), targets(4);
    for (std::size_t s = 0; s < inputs.size(); ++s)
        for (std::size_t t = 0; t < 64 - 4 * s; ++t) {  // lengths 64, 60, 56, 52
            inputs[s].push_back(3 + static_cast<int>(rng.next() % 497));
            targets[s].push_back(3 + static_cast<int>(rng.next() % 497));
        }
    same_on_every_thread_count([&] {
        Gpt grad;
        const double loss = gpt_loss(m, inputs, targets, &grad);
        std::vector<Matrix> out{Matrix{{loss}}};
        for (const Matrix& g : copies(parameter_matrices(grad))) out.push_back(g);
        return out;
    });
}

TEST_CASE("threads: an exception in a shared-out loop reaches the caller, the first iteration's") {
    const int before = thread_count();
    for (int n : {1, 2, 3}) {
        set_thread_count(n);
        CAPTURE(n);
        std::vector<int> done(64, 0);
        auto body = [&](std::size_t i) {
            if (i == 17 || i == 40) throw std::runtime_error("iteration " + std::to_string(i));
            done[i] = 1;
        };
        CHECK_THROWS_WITH(parallel_for(64, 1 << 20, body), "iteration 17");
        CHECK_THROWS_WITH(parallel_for_uneven(64, 1 << 20, body), "iteration 17");
        CHECK(done[16] == 1);  // the iterations before it ran
    }
    set_thread_count(before);
}

TEST_CASE("threads: reading held-out examples gives the same readings on 1, 2 and 3 threads" * doctest::test_suite("native")) {
    const Transformer m = random_transformer(threaded_config(), 16);
    Random rng(17);
    const std::vector<Example> examples = random_reversals(rng, 12, 5, 30);
    // a reading as one row: its tokens, then 1 if it is right
    auto row = [](const Reading& r) {
        Matrix out(1, r.output.size() + 1);
        for (std::size_t i = 0; i < r.output.size(); ++i) out(0, i) = r.output[i];
        out(0, r.output.size()) = r.right;
        return out;
    };
    BeamSettings beam;
    beam.max_length = 12;
    same_on_every_thread_count([&] {
        std::vector<Matrix> out;
        for (const Reading& r : greedy_readings(m, examples)) out.push_back(row(r));
        for (const Reading& r : beam_readings(m, {examples[0], examples[1]}, beam))
            out.push_back(row(r));
        return out;
    });
}

TEST_CASE("threads: a poem sample read and scored in batches gives the same bits on 1, 2 and 3 threads" * doctest::test_suite("native")) {
    // chapter 14's passes (inside/poem_sample.h): each batch on a thread of its own, the heads'
    // outputs and the chances of a repeat then added in the batches' order
    TransformerConfig c = small_config(32, 4, 64, 40, 40);
    c.n_encoder_layers = 0, c.n_decoder_layers = 2, c.max_positions = 64;
    const Gpt m = random_gpt(c, 21);
    Random rng(22);
    std::vector<bool> punctuation(40, false);
    punctuation[7] = true;
    std::vector<PoemReading> poems;
    for (std::size_t p = 0; p < 7; ++p) {  // a title, a line break, a body with punctuation
        Tokens t = {CharVocabulary::bos, 9, 10, CharVocabulary::newline};
        for (std::size_t i = 0; i < 6 + 4 * (6 - p); ++i)
            t.push_back(i % 6 == 5 ? 7 : 8 + static_cast<int>(rng.next() % 30));
        t.push_back(CharVocabulary::eos);
        poems.push_back(read_poem(t, 32, punctuation));
    }
    same_on_every_thread_count([&] {
        const PoemSample s = read_sample(m, poems, 1);  // 7 batches of different lengths
        REQUIRE(s.stream.size() == 7);
        std::vector<Matrix> out = s.head_outputs.sums;
        for (const std::vector<Matrix>& batch : s.stream) out.push_back(batch.back());
        for (const std::size_t from : {std::size_t(0), std::size_t(1)}) {
            const SampleLosses l = sample_losses(m, s, from, 2);
            Matrix row(1, l.poem_sums.size() + 2);
            for (std::size_t p = 0; p < l.poem_sums.size(); ++p) row(0, p) = l.poem_sums[p];
            row(0, l.poem_sums.size()) = l.repeat_chances;
            row(0, l.poem_sums.size() + 1) = static_cast<double>(l.repeat_positions);
            out.push_back(row);
        }
        return out;
    });
}
