// later_exercises.cpp — exercises 15-26: decoding (the KV cache, beam search, top-p), modern
// attention (RoPE, ALiBi, RMSNorm, grouped-query heads), the online softmax, the n-gram
// baseline, fewer bits, a head left out (chapters 9-14, beyond the tutorial).
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "core/number_formats.h"
#include "exercises/case_helpers.h"
#include "exercises/exercise_parts.h"
#include "text/translate.h"

using namespace cases;

namespace {

Exercise kv_cache_exercise() {
    return {"kv_cache_step", 9, N_("one decoding step with a KV cache"),
            N_("chapter 9 (the cache: each step's new key and value appended, nothing recomputed)"),
            "src/model/decoding/kv_cache.cpp, decode_step",
            [](const Answers& a, const Inputs& in) {
                Matrix K = in[0].value, V = in[1].value;
                const Matrix out = a.kv_cache_step(K, V, in[2].value, in[3].value, in[4].value);
                return stacked({out, K, V});
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t m = i == 0 ? 0 : random_size(rng, 1, 5), d = random_size(rng, 1, 4);
                return Inputs{{"K_cache", random_matrix(rng, m, d)}, {"V_cache", random_matrix(rng, m, d)},
                              {"q", random_matrix(rng, 1, d)}, {"k", random_matrix(rng, 1, d)}, {"v", random_matrix(rng, 1, d)}};
            },
            1e-12, N_("append k to K_cache and v to V_cache, then attention(q, K_cache, V_cache); the checker shows the output, then the two caches")};
}

Exercise beam_exercise() {
    return {"beam_step", 9, N_("one step of beam search"),
            N_("the paper's §6.1 (beam 4); chapter 9"),
            "src/model/decoding/beam_search.cpp, ranked_extensions",
            [](const Answers& a, const Inputs& in) {
                const std::vector<exercise::BeamCandidate> best =
                    a.beam_step(in[0].value.data, in[1].value, size_of(in[2]));
                Matrix m(best.size(), 3);
                for (std::size_t r = 0; r < best.size(); ++r) {
                    m(r, 0) = static_cast<double>(best[r].beam);
                    m(r, 1) = best[r].token;
                    m(r, 2) = best[r].score;
                }
                return m;
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t beams = i == 0 ? 1 : random_size(rng, 2, 4), vocab = random_size(rng, 2, 6);
                Matrix scores = random_matrix(rng, 1, beams);
                for (double& s : scores.data) s = -std::fabs(s) * 3;
                Matrix lp = random_matrix(rng, beams, vocab);
                lp = map(softmax_rows(lp), [](double p) { return std::log(p); });
                return Inputs{{"beam_scores", scores}, {"log_probs", lp}, {"width", number(static_cast<double>(random_size(rng, 1, beams + 1)))}};
            },
            1e-12, N_("every beam b and token t make a candidate scored beam_scores[b] + log_probs(b, t); keep the best `width`, best first (ties: the lower beam, then the lower token); the checker shows each as a row: beam, token, score")};
}

Exercise nucleus_exercise() {
    return {"nucleus", 9, N_("top-p (nucleus) filtering"),
            N_("chapter 9 (sampling: temperature, top-k, top-p)"),
            "src/model/decoding/sampling.cpp, nucleus",
            [](const Answers& a, const Inputs& in) { return a.nucleus(in[0].value, in[1].value(0, 0)); },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t v = i == 0 ? 1 : random_size(rng, 2, 8);
                const Matrix probs = softmax_rows(random_matrix(rng, 1, v, 2.0));
                return Inputs{{"probs", probs}, {"top_p", number(i % 4 == 3 ? 1.0 : 0.3 + 0.6 * rng.uniform())}};
            },
            1e-12, N_("sort the tokens by probability, most probable first; keep them until their sum reaches top_p (the one that reaches it included); divide the kept by their sum; the rest get 0")};
}

Exercise rope_exercise() {
    return {"rope_rotate", 10, N_("RoPE: rotating pairs of a query's columns by its position"),
            N_("chapter 10 (Su et al. 2021; LLaMA)"),
            "src/model/positions/rotary.cpp, rope_rotate",
            [](const Answers& a, const Inputs& in) {
                std::vector<std::size_t> pos;
                for (double p : in[1].value.data) pos.push_back(static_cast<std::size_t>(p));
                return a.rope_rotate(in[0].value, pos);
            },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch10_modern_attention");
                const Matrix q = d.vector("inputs.rope.q"), p = d.vector("inputs.rope.positions");
                Matrix rows;
                for (std::size_t i = 0; i < p.cols; ++i) append_rows(rows, q);
                return std::vector<Case>{golden_case(d, "rope_rotated_q", {{"x: q at every position", rows}, {"positions", p}})};
            },
            [](Random& rng, int) {
                const std::size_t n = random_size(rng, 1, 4), d = 2 * random_size(rng, 1, 4);
                Matrix p(1, n);
                for (double& x : p.data) x = static_cast<double>(random_size(rng, 0, 50));
                return Inputs{{"x", random_matrix(rng, n, d)}, {"positions", p}};
            },
            1e-12, N_("the pair (x_2i, x_2i+1) of row r turns by the angle p·θ_i, θ_i = 10000^(−2i/d), p = positions[r]: (a·cos − b·sin, a·sin + b·cos)")};
}

Exercise alibi_exercise() {
    return {"alibi_bias", 10, N_("ALiBi's bias for one head"),
            N_("chapter 10 (Press et al. 2022)"),
            "src/model/positions/alibi.cpp, alibi_slopes and alibi_bias",
            [](const Answers& a, const Inputs& in) { return a.alibi_bias(size_of(in[0]), size_of(in[1]), size_of(in[2])); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch10_modern_attention");
                const double n = d.number("inputs.alibi.n"), h = d.number("inputs.alibi.heads[0]");
                return std::vector<Case>{
                    golden_case(d, "alibi_bias_first_head", {{"n", number(n)}, {"n_heads", number(h)}, {"head", number(0)}}),
                    golden_case(d, "alibi_bias_last_head", {{"n", number(n)}, {"n_heads", number(h)}, {"head", number(h - 1)}})};
            },
            [](Random& rng, int) {
                const std::size_t h = random_size(rng, 1, 12);
                return Inputs{{"n", number(static_cast<double>(random_size(rng, 1, 6)))}, {"n_heads", number(static_cast<double>(h))},
                              {"head", number(static_cast<double>(random_size(rng, 0, h - 1)))}};
            },
            1e-12, N_("bias(i, j) = −m·|i − j|; for h heads, a power of 2, head k (from 0) has m = 2^(−8(k+1)/h); otherwise the slopes of the power of 2 below h, then every other slope of twice as many heads")};
}

Exercise rms_exercise() {
    return {"rms_norm", 10, N_("RMSNorm, as LLaMA's"),
            N_("chapter 10 (Zhang & Sennrich 2019)"),
            "src/model/transformer/norms.cpp, rms_norm",
            [](const Answers& a, const Inputs& in) { return a.rms_norm(in[0].value, in[1].value); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch10_modern_attention");
                const Matrix x = d.matrix("inputs.norms.x");
                return std::vector<Case>{golden_case(d, "rms_norm", {{"x", x}, {"gain", Matrix(1, x.cols, 1.0)}})};
            },
            [](Random& rng, int i) {
                const std::size_t d = i == 0 ? 1 : random_size(rng, 2, 8);
                return Inputs{{"x", random_matrix(rng, random_size(rng, 1, 4), d, i % 2 ? 0.01 : 3.0)}, {"gain", random_matrix(rng, 1, d)}};
            },
            1e-12, N_("each row: x / √(mean(x²) + 1e-5) · gain")};
}

Exercise gqa_exercise() {
    return {"grouped_query_attention", 10, N_("grouped-query attention: fewer key/value heads than query heads"),
            N_("chapter 10 (Ainslie et al. 2023)"),
            "src/model/multi_head/heads.cpp, attend_heads",
            [](const Answers& a, const Inputs& in) {
                return a.grouped_query_attention(column_blocks(in[0].value, size_of(in[3])),
                                                 column_blocks(in[1].value, size_of(in[4])),
                                                 column_blocks(in[2].value, size_of(in[4])));
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t kv = i == 0 ? 1 : random_size(rng, 1, 3), h = kv * random_size(rng, 1, 3);
                const std::size_t n = random_size(rng, 1, 4), m = random_size(rng, 1, 4), d = random_size(rng, 1, 3);
                return Inputs{{"Q, heads side by side", random_matrix(rng, n, h * d)}, {"K, heads side by side", random_matrix(rng, m, kv * d)},
                              {"V, heads side by side", random_matrix(rng, m, kv * d)}, {"query heads", number(static_cast<double>(h))},
                              {"key/value heads", number(static_cast<double>(kv))}};
            },
            1e-12, N_("query head h reads key/value head h / (query heads / key/value heads); each head is attention(Q_h, K_g, V_g); the heads' outputs side by side")};
}

Exercise online_exercise() {
    return {"online_softmax_update", 11, N_("the online softmax: reading one more score"),
            N_("chapter 11 (Milakov & Gimelshein 2018; FlashAttention)"),
            "src/model/attention/online_softmax.cpp, RunningSum::add",
            [](const Answers& a, const Inputs& in) {
                const double inf = std::numeric_limits<double>::infinity();
                exercise::RunningSum s{-inf, 0.0};
                Matrix steps(in[0].value.cols, 2);
                for (std::size_t i = 0; i < in[0].value.cols; ++i) {
                    s = a.online_softmax_update(s, in[0].value(0, i));
                    steps(i, 0) = s.max;
                    steps(i, 1) = s.sum;
                }
                return steps;
            },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch11_long_sequences");
                const Matrix m = d.vector("expected.online_max"), l = d.vector("expected.online_sum");
                Matrix both(m.cols, 2);
                for (std::size_t i = 0; i < m.cols; ++i) {
                    both(i, 0) = m(0, i);
                    both(i, 1) = l(0, i);
                }
                Case c = golden_case(d, "online_max, expected.online_sum", {{"scores (笔, 记, 本)", d.vector("inputs.online.scores")}}, both);
                return std::vector<Case>{c};
            },
            [](Random& rng, int i) {
                Matrix scores = random_matrix(rng, 1, i == 0 ? 1 : random_size(rng, 2, 8), 5.0);
                if (i % 4 == 3)  // hidden keys: the first, then each at random (sometimes all)
                    for (std::size_t c = 0; c < scores.cols; ++c)
                        if (c == 0 || i % 8 == 7 || rng.uniform() < 0.3) scores(0, c) = -std::numeric_limits<double>::infinity();
                return Inputs{{"scores", scores}};
            },
            1e-12, N_("from (max −inf, sum 0): m′ = max(m, x), sum′ = sum·exp(m − m′) + exp(x − m′), except that while every score so far is −inf (hidden) the state stays (−inf, 0); the checker shows (max, sum) after each score, a row each")};
}

Exercise kneser_ney_exercise() {
    return {"kneser_ney_bigram", 12, N_("one probability of the interpolated modified Kneser-Ney bigram"),
            N_("chapter 12 (the baseline: Chen & Goodman 1998)"),
            "src/ngram/kneser_ney.cpp, KneserNey::probability",
            [](const Answers& a, const Inputs& in) {
                std::vector<std::vector<int>> training;
                for (std::size_t r = 0; r < in[0].value.rows; ++r) {
                    std::vector<int> s;
                    for (std::size_t c = 0; c < in[0].value.cols; ++c)
                        if (in[0].value(r, c) >= 0) s.push_back(static_cast<int>(in[0].value(r, c)));
                    training.push_back(s);
                }
                const std::size_t vocab = size_of(in[1]);
                Matrix p(vocab, vocab);
                for (std::size_t v = 0; v < vocab; ++v)
                    for (std::size_t w = 0; w < vocab; ++w)
                        p(v, w) = a.kneser_ney_bigram(training, vocab, static_cast<int>(v), static_cast<int>(w));
                return p;
            },
            nullptr,
            [](Random& rng, int) {
                const std::size_t vocab = random_size(rng, 2, 6), sequences = random_size(rng, 2, 8), length = 12;
                Matrix t(sequences, length, -1.0);  // −1: past the sequence's end
                for (std::size_t r = 0; r < sequences; ++r) {
                    const std::size_t n = random_size(rng, 2, length);
                    for (std::size_t c = 0; c < n; ++c)
                        t(r, c) = static_cast<double>(random_size(rng, 0, c % 3 == 0 ? 1 : vocab - 1));
                }
                return Inputs{{"training sequences (−1: past the end)", t}, {"vocab", number(static_cast<double>(vocab))}};
            },
            1e-12, N_("P(w | v) = max(c(v w) − D, 0) / c(v ·) + γ(v)·P₁(w), γ(v) = (D1·N1(v ·) + D2·N2(v ·) + D3+·N3+(v ·)) / c(v ·); P₁ the same one level down on continuation counts, above 1/vocab; the checker shows every P(w | v), row v")};
}

Exercise quantize_exercise() {
    return {"quantize_group", 13, N_("a group of numbers in 8 bits (Q8_0)"),
            N_("chapter 13 (llama.cpp's Q8_0, llama2.c's runq)"),
            "src/core/int8_groups.cpp, quantize_group",
            [](const Answers& a, const Inputs& in) {
                std::vector<float> x;
                for (double v : in[0].value.data) x.push_back(static_cast<float>(v));
                std::vector<std::int8_t> q;
                const float s = a.quantize_group(x, q);
                Matrix m(1, 1 + q.size());
                m(0, 0) = s;
                for (std::size_t i = 0; i < q.size(); ++i) m(0, i + 1) = q[i];
                return m;
            },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch13_precision");
                // each row of the tutorial's X one group, read back as q · scale
                const Call read_back = [](const Answers& a, const Inputs& in) {
                    Matrix y = in[0].value;
                    for (std::size_t r = 0; r < y.rows; ++r) {
                        std::vector<float> x;
                        for (std::size_t c = 0; c < y.cols; ++c) x.push_back(static_cast<float>(y(r, c)));
                        std::vector<std::int8_t> q;
                        const float s = a.quantize_group(x, q);
                        if (q.size() != x.size()) throw std::invalid_argument("q holds " + std::to_string(q.size()) + " numbers, x " + std::to_string(x.size()));
                        for (std::size_t c = 0; c < y.cols; ++c) y(r, c) = static_cast<float>(q[c]) * s;
                    }
                    return y;
                };
                return std::vector<Case>{golden_case(d, "tutorial_X_int8", {{"x: the tutorial's X (笔, 记, 本), each row a group", d.matrix("inputs.tutorial.X")}}, Matrix(), read_back)};
            },
            [](Random& rng, int i) {
                Matrix x = random_matrix(rng, 1, i == 0 ? 1 : random_size(rng, 2, 32), 2.0);
                if (i % 4 == 1) x = Matrix{{1, 2, 1, 2, 1}};      // the tutorial's X, row 1
                if (i % 4 == 3) x = Matrix{{127, 2.5, -0.5, 1.5, -126.5}};  // scale 1: halves
                for (double& v : x.data) v = static_cast<float>(v);
                return Inputs{{"x", x}};
            },
            0.0, N_("scale = max|x| / 127 (float), q = round(x / scale), halves away from zero; the checker shows scale, then q")};
}

Exercise bfloat16_exercise() {
    return {"to_bfloat16", 13, N_("rounding a double to bfloat16, ties to even"),
            N_("chapter 13 (bfloat16: float32's exponent, 8 bits of precision)"),
            "src/core/number_formats.cpp, to_format",
            [](const Answers& a, const Inputs& in) {
                Matrix y = in[0].value;
                for (double& v : y.data) v = a.to_bfloat16(v);
                return y;
            },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch13_precision");
                const std::size_t n = d.length("inputs.rounding.values");
                Matrix x(1, n);
                for (std::size_t i = 0; i < n; ++i)
                    x(0, i) = std::strtod(d.text("inputs.rounding.values[" + std::to_string(i) + "]").c_str(), nullptr);
                const Call bits = [](const Answers& a, const Inputs& in) {
                    Matrix y = in[0].value;
                    for (double& v : y.data) {  // a NaN counts as −1, whatever its bits (as chapter 13)
                        const double r = a.to_bfloat16(v);
                        v = std::isnan(r) ? -1.0 : static_cast<double>(to_format_bits(r, FloatFormat::BFloat16));
                    }
                    return y;
                };
                return std::vector<Case>{golden_case(d, "rounding_bfloat16_bits", {{"x", x}}, Matrix(), bits)};
            },
            [](Random& rng, int i) {
                Matrix x = random_matrix(rng, 1, 6, i % 2 ? 1e3 : 1.0);
                for (std::size_t c = 0; c < 6 && i % 3 == 0; c += 2)  // exact ties: 1 + (2k+1)·2^-8
                    x(0, c) = 1.0 + std::ldexp(2.0 * static_cast<double>(random_size(rng, 0, 60)) + 1, -8);
                return Inputs{{"x", x}};
            },
            0.0, N_("round the double to float first (a cast rounds to nearest even), then keep the float's top 16 bits, rounding the 16 cut off to nearest, ties to the even neighbour")};
}

Exercise ablation_exercise() {
    return {"without_head", 14, N_("a head left out (ablation): its share of the output zeroed"),
            N_("chapter 14 (inside the poet: which heads matter)"),
            "src/inside/head_ablation.cpp, without_heads",
            [](const Answers& a, const Inputs& in) {
                return a.without_head(column_blocks(in[0].value, size_of(in[2])), in[1].value, size_of(in[3]));
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t h = i == 0 ? 1 : random_size(rng, 2, 4), d = random_size(rng, 1, 3);
                return Inputs{{"heads, side by side", random_matrix(rng, random_size(rng, 1, 4), h * d)}, {"W_O", random_matrix(rng, h * d, h * d)},
                              {"n_heads", number(static_cast<double>(h))}, {"head", number(static_cast<double>(random_size(rng, 0, h - 1)))}};
            },
            1e-12, N_("Concat(head_0, …, head_h−1)·W_O with the chosen head's columns set to 0 before W_O")};
}

}  // namespace

std::vector<Exercise> later_exercises() {
    return {kv_cache_exercise(), beam_exercise(),    nucleus_exercise(),   rope_exercise(),
            alibi_exercise(),    rms_exercise(),     gqa_exercise(),       online_exercise(),
            kneser_ney_exercise(), quantize_exercise(), bfloat16_exercise(), ablation_exercise()};
}
