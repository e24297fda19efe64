// attention_exercises.cpp — exercises 1-8: scores, softmax, attention, the masks, the heads
// (chapters 1-4; the tutorial's articles 01-03).
#include "exercises/exercise_parts.h"

#include <cmath>
#include <limits>

#include "core/matmul.h"
#include "exercises/case_helpers.h"
#include "model/attention/masks.h"
#include "text/translate.h"

using namespace cases;

namespace {

const double inf = std::numeric_limits<double>::infinity();

// softmax(X·Xᵀ/√d + mask): what a mask does to the weights (chapter 3's cases)
Matrix weights_under(const Matrix& X, const Matrix& mask) {
    Matrix s = scale(matmul_bt(X, X), 1.0 / std::sqrt(static_cast<double>(X.cols)));
    return softmax_rows(add(s, mask));
}

Inputs qkv(Random& rng, int i) {
    const std::size_t n = i == 0 ? 1 : random_size(rng, 1, 6), m = i == 0 ? 1 : random_size(rng, 1, 6);
    const std::size_t d = i == 1 ? 1 : random_size(rng, 1, 8), dv = random_size(rng, 1, 5);
    return {{"Q", random_matrix(rng, n, d)}, {"K", random_matrix(rng, m, d)}, {"V", random_matrix(rng, m, dv)}};
}

// a random mask over m keys: causal, padding (sometimes every key) or both
Matrix random_mask(Random& rng, std::size_t n, std::size_t m, int i) {
    Matrix mask(n, m);
    const bool all_hidden_row = i % 4 == 0;
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < m; ++c)
            if ((all_hidden_row && r == 0) || rng.uniform() < 0.3) mask(r, c) = -inf;
    return mask;
}

Exercise scores_exercise() {
    return {"scores", 1, N_("the scores: every query's dot product with every key, Q·Kᵀ"),
            N_("tutorial 03, §2.1.2 (x = qKᵀ); 01, the hand calculation of X·Xᵀ; chapters 1-2"),
            "src/core/matmul.cpp, matmul_bt",
            [](const Answers& a, const Inputs& in) { return a.scores(in[0].value, in[1].value); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch02_self_attention");
                const Matrix X = d.matrix("inputs.X");
                return std::vector<Case>{golden_case(d, "XXt", {{"Q = X", X}, {"K = X", X}})};
            },
            [](Random& rng, int i) {
                Inputs in = qkv(rng, i);
                in.pop_back();
                return in;
            },
            1e-12, N_("score(i, j) = Σ_c Q(i, c)·K(j, c): row i of Q against row j of K")};
}

Exercise softmax_exercise() {
    return {"softmax_rows", 2, N_("a numerically stable softmax of each row"),
            N_("tutorial 03, §2.1.2 (softmax); 01, the hand calculation; chapter 2"),
            "src/core/matrix.cpp, softmax_rows",
            [](const Answers& a, const Inputs& in) { return a.softmax_rows(in[0].value); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch02_self_attention");
                return std::vector<Case>{
                    golden_case(d, "softmax_XXt", {{"x = X·Xᵀ", d.matrix("expected.XXt")}}),
                    golden_case(d, "softmax_scaled", {{"x = X·Xᵀ/√5", d.matrix("expected.scores_scaled")}})};
            },
            [](Random& rng, int i) {
                const bool hidden_row = i % 5 == 2;
                const std::size_t n = random_size(rng, hidden_row ? 2 : 1, 4), m = i == 0 ? 1 : random_size(rng, 1, 7);
                Matrix x = random_matrix(rng, n, m, 3.0);
                // scores large enough to overflow exp (a case of its own: a row of −inf is another)
                if (i % 3 == 1) {
                    x = scale(x, 300.0);
                    x(0, 0) = 1000;  // past exp's range, whatever was drawn
                }
                if (hidden_row)
                    for (std::size_t c = 0; c < m; ++c) x(0, c) = -inf;  // every key hidden
                return Inputs{{"x", x}};
            },
            1e-12, N_("weights(i, j) = exp(x(i, j) − max_j x(i, j)) / Σ_j exp(x(i, j) − max_j x(i, j)); a row whose every entry is −inf (every key hidden) gives all zeros")};
}

Exercise attention_exercise() {
    return {"attention", 2, N_("scaled dot-product attention, softmax(Q·Kᵀ/√d_k)·V"),
            N_("tutorial 03, §2.1.2-2.1.3; 02, why scale by √d_k; chapter 2"),
            "src/model/attention/attention.cpp, attention",
            [](const Answers& a, const Inputs& in) { return a.attention(in[0].value, in[1].value, in[2].value); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch02_self_attention");
                const Matrix X = d.matrix("inputs.X");
                const Matrix Q = d.matrix("expected.Q"), K = d.matrix("expected.K"), V = d.matrix("expected.V");
                return std::vector<Case>{
                    golden_case(d, "output_scaled", {{"Q = X", X}, {"K = X", X}, {"V = X", X}}),
                    golden_case(d, "output_projected", {{"Q", Q}, {"K", K}, {"V", V}})};
            },
            qkv, 1e-12, N_("d_k is the number of columns of K; divide every score by √d_k, then softmax each row, then multiply by V")};
}

// The masks are judged on their entries, a hidden one −inf exactly (a −1e9 hides as well only
// until a row has every key hidden or the scores are large: chapter 3 and 10 fail on it), and on
// the chapter's weights through them.
Exercise causal_exercise() {
    return {"causal_mask", 3, N_("the causal mask: query i sees keys 0 … i"),
            N_("tutorial 03, §2.1.5 (torch.triu(…, diagonal=1)); 02, masked attention; chapter 3"),
            "src/model/attention/masks.cpp, causal_mask",
            [](const Answers& a, const Inputs& in) { return a.causal_mask(size_of(in[0])); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch03_masked_attention");
                // the oracle's 0/1 table of hidden entries, as the mask it stands for
                Matrix hidden = d.matrix("expected.causal_hidden");
                for (double& x : hidden.data) x = x != 0 ? -inf : 0.0;
                const Call weights = [](const Answers& a, const Inputs& in) {
                    return weights_under(in[0].value, a.causal_mask(in[0].value.rows));
                };
                return std::vector<Case>{
                    golden_case(d, "causal_hidden", {{"n", number(double(hidden.rows))}}, hidden),
                    golden_case(d, "weights_causal", {{"X", d.matrix("inputs.X")}}, Matrix(), weights)};
            },
            [](Random& rng, int i) {
                return Inputs{{"n", number(double(i == 0 ? 1 : random_size(rng, 2, 7)))}};
            },
            1e-12, N_("entry (i, j) is 0 where key j may be seen (j ≤ i) and −inf where it is hidden (j > i); checked entry by entry, and through the weights softmax(X·Xᵀ/√d + mask)")};
}

Exercise padding_exercise() {
    return {"padding_mask", 3, N_("the padding mask: no query sees a padded key"),
            N_("tutorial 02, masked attention (padding); chapter 3"),
            "src/model/attention/masks.cpp, padding_mask",
            [](const Answers& a, const Inputs& in) { return a.padding_mask(size_of(in[0]), flags_of(in[1])); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch03_masked_attention");
                std::vector<bool> pad;
                for (std::size_t i = 0; i < d.length("inputs.key_padding"); ++i)
                    pad.push_back(d.flag("inputs.key_padding[" + std::to_string(i) + "]"));
                const Call weights = [](const Answers& a, const Inputs& in) {
                    return weights_under(in[0].value, a.padding_mask(in[0].value.rows, flags_of(in[1])));
                };
                return std::vector<Case>{golden_case(d, "weights_padding", {{"X", d.matrix("inputs.X")}, {"key_is_padding", flags(pad)}},
                                                     Matrix(), weights)};
            },
            [](Random& rng, int i) {
                const std::size_t n = random_size(rng, 1, 6);
                std::vector<bool> pad(n);
                for (std::size_t j = 0; j < n; ++j) pad[j] = i % 5 == 3 || rng.uniform() < 0.4;
                return Inputs{{"n", number(double(random_size(rng, 1, 6)))}, {"key_is_padding", flags(pad)}};
            },
            1e-12, N_("an (n_queries x keys) matrix: column j all −inf where key j is padding, 0 elsewhere; checked entry by entry, and through the weights softmax(X·Xᵀ/√d + mask)")};
}

Exercise masked_exercise() {
    return {"masked_attention", 3, N_("attention under a mask, a row with every key hidden included"),
            N_("tutorial 03, §2.1.5; 02, masked attention; chapter 3"),
            "src/model/attention/attention.cpp, attention (with a mask)",
            [](const Answers& a, const Inputs& in) {
                return a.masked_attention(in[0].value, in[1].value, in[2].value, in[3].value);
            },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch03_masked_attention");
                const Matrix X = d.matrix("inputs.X");
                const std::size_t n = X.rows;
                std::vector<bool> pad, left;
                for (std::size_t i = 0; i < n; ++i) {
                    pad.push_back(d.flag("inputs.key_padding[" + std::to_string(i) + "]"));
                    left.push_back(d.flag("inputs.left_key_padding[" + std::to_string(i) + "]"));
                }
                const auto with = [&](const Matrix& mask) {
                    return Inputs{{"Q = X", X}, {"K = X", X}, {"V = X", X}, {"mask", mask}};
                };
                return std::vector<Case>{
                    golden_case(d, "output_causal", with(causal_mask(n))),
                    golden_case(d, "output_padding", with(padding_mask(n, pad))),
                    golden_case(d, "output_left_padded_causal", with(add(causal_mask(n), padding_mask(n, left))))};
            },
            [](Random& rng, int i) {
                Inputs in = qkv(rng, i);
                in.push_back({"mask", random_mask(rng, in[0].value.rows, in[1].value.rows, i)});
                return in;
            },
            1e-12, N_("add the mask to the scaled scores, then softmax; a row whose keys are all hidden gets all-zero weights, so its output is 0")};
}

Exercise split_exercise() {
    return {"split_heads", 4, N_("splitting the projected x into heads"),
            N_("tutorial 03, §2.1.6 (view, transpose); 04, the shape example; chapter 4"),
            "src/model/multi_head/multi_head.cpp, multi_head_attention_per_head (column_block)",
            [](const Answers& a, const Inputs& in) { return stacked(a.split_heads(in[0].value, size_of(in[1]))); },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t h = i == 0 ? 1 : random_size(rng, 2, 4);
                return Inputs{{"x", random_matrix(rng, random_size(rng, 1, 4) * (i % 2 ? h : 1), h * random_size(rng, 1, 3))},
                              {"n_heads", number(static_cast<double>(h))}};
            },
            1e-12, N_("head h is the block of columns h·d_k … (h+1)·d_k − 1, every row; the checker shows the heads one below the other")};
}

Exercise merge_exercise() {
    return {"merge_heads", 4, N_("merging the heads' outputs back into one matrix"),
            N_("tutorial 03, §2.1.6 (Concat(head_1, …, head_h)); chapter 4"),
            "src/core/matrix.cpp, concat_columns",
            [](const Answers& a, const Inputs& in) { return a.merge_heads(column_blocks(in[0].value, size_of(in[1]))); },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t h = i == 0 ? 1 : random_size(rng, 2, 4);
                return Inputs{{"heads, side by side", random_matrix(rng, random_size(rng, 1, 4), h * random_size(rng, 1, 3))},
                              {"n_heads", number(static_cast<double>(h))}};
            },
            1e-12, N_("the heads side by side: head 0's columns, then head 1's, …")};
}

}  // namespace

std::vector<Exercise> attention_exercises() {
    return {scores_exercise(), softmax_exercise(), attention_exercise(), causal_exercise(),
            padding_exercise(), masked_exercise(),  split_exercise(),     merge_exercise()};
}
