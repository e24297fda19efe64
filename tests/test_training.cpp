// test_training.cpp — the loss, Adam and its schedule, by hand; the reversal task's data; a run
// that diverges.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "helpers.h"
#include "io/model_file.h"
#include "io/training_plan.h"
#include "core/elementary.h"
#include "core/random.h"
#include "model/transformer/loss.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model_helpers.h"
#include "train/adam.h"
#include "train/reverse_task.h"
#include "train/optimise.h"
#include "train/trainer.h"

namespace fs = std::filesystem;

TEST_CASE("label-smoothed cross-entropy by hand, padding ignored") {
    // logits [0, ln 3] -> p = [1/4, 3/4]; target 1, ε = 0.2, C = 2 -> q = [0.1, 0.9]
    const Matrix logits{{0, std::log(3.0)}, {5, -5}};
    LossSum total;
    cross_entropy(logits, {1, 0}, 0, 0.2, total);
    const Matrix d = cross_entropy_backward(logits, {1, 0}, 0, 0.2, 0.5);
    CHECK(total.count == 1);  // the second position's target is the padding id 0
    CHECK(total.sum ==
          doctest::Approx(-(0.1 * std::log(0.25) + 0.9 * std::log(0.75))).epsilon(1e-14));
    CHECK(d(0, 0) == doctest::Approx((0.25 - 0.1) * 0.5).epsilon(1e-14));
    CHECK(d(0, 1) == doctest::Approx((0.75 - 0.9) * 0.5).epsilon(1e-14));
    CHECK(d(1, 0) == 0.0);
    // without smoothing it is the plain negative log-likelihood
    LossSum plain;
    cross_entropy(logits, {1, 0}, 0, 0.0, plain);
    CHECK(plain.sum == doctest::Approx(-std::log(0.75)).epsilon(1e-14));
}

// One row's loss and gradient written as the definition reads, one value after another: the
// reference for the loss's blocked rows (loss.cpp runs 4 rows side by side).
static double reference_row(const double* x, std::size_t C, int target, double smoothing,
                            double scale, double* d) {
    double max = x[0], sum = 0;
    for (std::size_t c = 0; c < C; ++c) max = std::max(max, x[c]);
    for (std::size_t c = 0; c < C; ++c) sum += elementary::exp(x[c] - max);
    const double log_sum = max + elementary::log(sum), classes = static_cast<double>(C);
    double loss = 0;
    for (std::size_t c = 0; c < C; ++c) {
        const double q =
            (static_cast<int>(c) == target ? 1.0 - smoothing : 0.0) + smoothing / classes;
        if (smoothing != 0.0) loss -= q * (x[c] - log_sum);
        d[c] = (elementary::exp(x[c] - max) / sum - q) * scale;
    }
    return smoothing == 0.0 ? -(x[target] - log_sum) : loss;
}

TEST_CASE("the loss's rows computed 4 at a time give each row's own bits, padding ignored") {
    Random rng(11);
    for (const std::size_t C : {1, 5, 37, 3005})
        for (const std::size_t rows : {1, 3, 4, 7, 9})
            for (const double smoothing : {0.0, 0.1}) {
                CAPTURE(C);
                CAPTURE(rows);
                CAPTURE(smoothing);
                Matrix logits(rows, C);
                for (double& v : logits.data) v = 4 * rng.normal();
                Tokens targets(rows);
                for (int& t : targets) t = static_cast<int>(rng.next() % C);
                if (rows > 2) targets[2] = 0;  // a padding row
                if (C == 1) targets.assign(rows, 0), targets[0] = 0;
                const int pad = C == 1 ? -1 : 0;  // one class: nothing is padding
                LossSum alone, both;
                cross_entropy(logits, targets, pad, smoothing, alone);
                const Matrix d =
                    cross_entropy_with_gradient(logits, targets, pad, smoothing, 0.25, both);
                const std::vector<double> lse = log_sum_exp_rows(logits);
                double sum = 0;
                std::size_t count = 0;
                std::vector<double> expected(C);
                for (std::size_t r = 0; r < rows; ++r) {
                    const double loss = reference_row(logits.row(r), C, targets[r], smoothing, 0.25,
                                                      expected.data());
                    double max = logits(r, 0), exps = 0;
                    for (std::size_t c = 0; c < C; ++c) max = std::max(max, logits(r, c));
                    for (std::size_t c = 0; c < C; ++c) exps += elementary::exp(logits(r, c) - max);
                    CHECK(lse[r] == max + elementary::log(exps));
                    if (targets[r] == pad) {
                        for (std::size_t c = 0; c < C; ++c) CHECK(d(r, c) == 0.0);
                        continue;
                    }
                    sum += loss, ++count;
                    std::size_t same = 0;
                    for (std::size_t c = 0; c < C; ++c) same += d(r, c) == expected[c];
                    CHECK(same == C);
                }
                CHECK(alone.count == count);
                CHECK(both.count == count);
                CHECK(alone.sum == sum);
                CHECK(both.sum == sum);
            }
}

TEST_CASE(
    "the learning rate warms up linearly, peaks at the warm-up step, then decays as 1/√step") {
    AdamSettings s;
    s.d_model = 512;
    s.warmup = 4000;
    CHECK(learning_rate(s, 1) ==
          doctest::Approx(std::pow(512.0, -0.5) * std::pow(4000.0, -1.5)).epsilon(1e-14));
    CHECK(learning_rate(s, 2000) == doctest::Approx(learning_rate(s, 1) * 2000).epsilon(1e-12));
    CHECK(learning_rate(s, 4000) > learning_rate(s, 3999));
    CHECK(learning_rate(s, 4000) > learning_rate(s, 4001));
    CHECK(learning_rate(s, 16000) == doctest::Approx(learning_rate(s, 4000) / 2).epsilon(1e-12));
}

TEST_CASE(
    "one Adam step by hand: the first step moves each parameter by about lr against its gradient's "
    "sign") {
    AdamSettings s;
    s.d_model = 1;
    s.warmup = 1;
    s.factor = 0.5;  // lr(1) = 0.5
    Adam adam(s);
    Matrix p{{1.0, -2.0}}, g{{0.3, -4.0}};
    CHECK(adam.step({&p}, {&g}) == 0.5);
    // m̂ = g, v̂ = g², so the step is lr · g / (|g| + ε)
    CHECK(p(0, 0) == doctest::Approx(1.0 - 0.5 * 0.3 / (0.3 + 1e-9)).epsilon(1e-15));
    CHECK(p(0, 1) == doctest::Approx(-2.0 + 0.5 * 4.0 / (4.0 + 1e-9)).epsilon(1e-15));
    CHECK(adam.steps_taken() == 1);
}

TEST_CASE("reversal examples: digits then <eos>, reversed then <eos>, lengths in range") {
    Random rng(5);
    for (const Example& e : random_reversals(rng, 200, 1, 10)) {
        REQUIRE(e.source.size() >= 2);
        CHECK(e.source.size() <= 11);
        CHECK(e.source.back() == 2);
        CHECK(e.target.back() == 2);
        CHECK(Tokens(e.source.rbegin() + 1, e.source.rend()) ==
              Tokens(e.target.begin(), e.target.end() - 1));
        for (std::size_t i = 0; i + 1 < e.source.size(); ++i)
            CHECK((e.source[i] >= 3 && e.source[i] <= 12));
    }
    CHECK(reverse_vocabulary().size() == reverse_vocab_size);
    CHECK(reverse_vocabulary()[12] == "9");
}

TEST_CASE("the floor of the smoothed loss is the entropy of the smoothed target, and is reached") {
    // ε = 0.1, C = 13 (chapter 7): q = 0.9 + 0.1/13 for the target, 0.1/13 for the 12 others
    const double q = 0.9 + 0.1 / 13, o = 0.1 / 13;
    CHECK(smoothed_loss_floor(0.1, 13) ==
          doctest::Approx(-q * std::log(q) - 12 * o * std::log(o)).epsilon(1e-14));
    CHECK(smoothed_loss_floor(0.0, 13) == 0.0);  // no smoothing: a perfect model's loss is 0
    // logits whose softmax is q exactly give the floor
    Matrix logits(1, 13, std::log(o));
    logits(0, 5) = std::log(q);
    LossSum total;
    cross_entropy(logits, {5}, 0, 0.1, total);
    CHECK(total.sum == doctest::Approx(smoothed_loss_floor(0.1, 13)).epsilon(1e-12));
}

TEST_CASE("a gradient holding an infinity or a NaN stops the run before any weight moves") {
    const double inf = std::numeric_limits<double>::infinity(),
                 largest = std::numeric_limits<double>::max(),
                 tiniest = std::numeric_limits<double>::denorm_min();
    struct Case {
        double value;
        bool stops;
    };
    for (const Case k :
         {Case{inf, true}, Case{-inf, true}, Case{std::nan(""), true}, Case{-std::nan(""), true},
          Case{largest, false}, Case{-largest, false}, Case{tiniest, false}, Case{0.0, false}})
        for (const std::size_t where : {std::size_t{0}, std::size_t{7}, std::size_t{14}}) {
            CAPTURE(k.value);
            CAPTURE(where);
            Matrix w(3, 5, 0.25), g(3, 5, 0.01), bias(1, 4, 0.5), g_bias(1, 4, 0.02);
            g.data[where] = k.value;
            TrainingSettings s;
            s.max_steps = 1;
            const LoopResult run = optimise({&bias, &w}, s, [&](Random&) {
                return StepResult{1.0, {&g_bias, &g}, 1};
            });
            CHECK(run.diverged_at == (k.stops ? 1u : 0u));
            CHECK((w(0, 1) == 0.25) == k.stops);  // a weight the step would move
            CHECK((bias(0, 0) == 0.5) == k.stops);
        }
}

TEST_CASE("training that diverges stops at the step it happens and is never used or saved") {
    TransformerConfig c = small_config(8, 2, 12, 9, 7);
    Transformer m = random_transformer(c, 3);
    m.src_embedding(4, 0) = 1e308;  // × √d_model overflows: the first loss is not finite
    TrainingSettings s;
    s.max_steps = 5;
    const TrainingRun run = train(m, s, [](Random&) {
        return std::vector<Example>{{{4, 5, 2}, {5, 6, 2}}};
    });
    CHECK(run.diverged_at == 1);
    CHECK(run.losses.empty());
    const DataFile data = DataFile::parse("plan.json", "{}");
    CHECK_THROWS_WITH_AS(check_finite_run(data, "inputs.training", run),
                         doctest::Contains("training diverged at step 1"), DataError);
    // and a model that is not finite is never written (JSON would hold null)
    const std::string path = temp_directory("diverged") + "/model.json";
    m.src_embedding(4, 0) = std::nan("");
    CHECK_THROWS_AS(save_transformer(m, {"reverse", 1, 1.0, 0.0, 3}, path), std::runtime_error);
    CHECK_FALSE(fs::exists(path));
}
