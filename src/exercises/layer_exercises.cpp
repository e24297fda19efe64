// layer_exercises.cpp — exercises 9-14: sinusoidal positions, LayerNorm forward and backward,
// the softmax's backward pass, the smoothed loss, one step of Adam (chapters 5-7; the
// tutorial's articles 02 and 04).
#include <cmath>

#include "exercises/case_helpers.h"
#include "exercises/exercise_parts.h"
#include "text/translate.h"

using namespace cases;

namespace {

Exercise sinusoidal_exercise() {
    return {"sinusoidal_encoding", 5, N_("sinusoidal positions"),
            N_("tutorial 04, positional encoding; 02, its design choices; chapter 5"),
            "src/model/positions/positional.cpp, sinusoidal_encoding",
            [](const Answers& a, const Inputs& in) { return a.sinusoidal_encoding(size_of(in[0]), size_of(in[1])); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch05_positional_encoding");
                const double n = static_cast<double>(d.integer("inputs.pe_positions", 1, 4096));
                return std::vector<Case>{
                    golden_case(d, "pe", {{"n", number(n)}, {"d_model", number(d.number("inputs.d_model"))}}),
                    golden_case(d, "pe_odd", {{"n", number(n)}, {"d_model", number(d.number("inputs.odd_d_model"))}})};
            },
            [](Random& rng, int i) {
                return Inputs{{"n", number(i == 0 ? 1.0 : static_cast<double>(random_size(rng, 2, 40)))},
                              {"d_model", number(static_cast<double>(random_size(rng, 1, 12)))}};
            },
            1e-12, N_("PE(p, 2i) = sin(p / 10000^(2i/d_model)), PE(p, 2i+1) = cos(p / 10000^(2i/d_model)); an odd d_model ends on a sine")};
}

Inputs norm_inputs(Random& rng, int i, bool with_bias) {
    const std::size_t d = i == 0 ? 1 : random_size(rng, 2, 8);
    Inputs in{{"x", random_matrix(rng, random_size(rng, 1, 4), d, i % 2 ? 5.0 : 1.0)},
              {"gain", random_matrix(rng, 1, d)}};
    if (with_bias) in.push_back({"bias", random_matrix(rng, 1, d)});
    return in;
}

Exercise layer_norm_exercise() {
    return {"layer_norm", 6, N_("LayerNorm, as nn.LayerNorm"),
            N_("tutorial 04, LayerNorm against BatchNorm; chapter 6 (Add & Norm)"),
            "src/model/transformer/norms.cpp, layer_norm",
            [](const Answers& a, const Inputs& in) { return a.layer_norm(in[0].value, in[1].value, in[2].value); },
            [](const std::string& dir) {
                const DataFile d = chapter_data(dir, "ch10_modern_attention");
                const Matrix x = d.matrix("inputs.norms.x");
                return std::vector<Case>{golden_case(d, "layer_norm", {{"x", x}, {"gain", Matrix(1, x.cols, 1.0)}, {"bias", Matrix(1, x.cols)}})};
            },
            [](Random& rng, int i) { return norm_inputs(rng, i, true); },
            1e-12, N_("each row: (x − mean) / √(var + 1e-5) · gain + bias, var the mean of (x − mean)²")};
}

Exercise layer_norm_backward_exercise() {
    return {"layer_norm_backward", 7, N_("LayerNorm's backward pass: dL/dx from dL/dy"),
            N_("chapter 7 (training: every backward pass beside its forward one)"),
            "src/model/transformer/norms.cpp, layer_norm_backward",
            [](const Answers& a, const Inputs& in) { return a.layer_norm_backward(in[0].value, in[1].value, in[2].value); },
            nullptr,
            [](Random& rng, int i) {
                Inputs in = norm_inputs(rng, i, false);
                in.push_back({"dy", random_matrix(rng, in[0].value.rows, in[0].value.cols)});
                return in;
            },
            1e-10, N_("with x̂ = (x − mean)/σ and g = gain ⊙ dy: dx = (g − mean(g) − x̂ · mean(g ⊙ x̂)) / σ, σ = √(var + 1e-5), row by row")};
}

Exercise softmax_backward_exercise() {
    return {"softmax_rows_backward", 7, N_("the softmax's backward pass"),
            N_("chapter 7; chapter 11's attention backward uses the same"),
            "src/core/matrix.cpp, softmax_rows_backward",
            [](const Answers& a, const Inputs& in) { return a.softmax_rows_backward(in[0].value, in[1].value); },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t n = random_size(rng, 1, 4), m = i == 0 ? 1 : random_size(rng, 2, 6);
                return Inputs{{"dy", random_matrix(rng, n, m)}, {"y", softmax_rows(random_matrix(rng, n, m, 2.0))}};
            },
            1e-12, N_("y = softmax(x) row by row; dx(i, j) = y(i, j) · (dy(i, j) − Σ_c dy(i, c)·y(i, c))")};
}

Exercise smoothed_loss_exercise() {
    return {"smoothed_cross_entropy", 7, N_("cross-entropy with label smoothing, as nn.CrossEntropyLoss"),
            N_("the paper's §5.4 (ε = 0.1); chapter 7"),
            "src/model/transformer/loss.cpp, cross_entropy",
            [](const Answers& a, const Inputs& in) {
                std::vector<int> targets;
                for (double t : in[1].value.data) targets.push_back(static_cast<int>(t));
                return number(a.smoothed_cross_entropy(in[0].value, targets, in[2].value(0, 0)));
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t n = random_size(rng, 1, 4), c = random_size(rng, 2, 7);
                Matrix t(1, n);
                for (double& x : t.data) x = static_cast<double>(random_size(rng, 0, c - 1));
                return Inputs{{"logits", random_matrix(rng, n, c, i % 3 == 2 ? 400.0 : 2.0)}, {"targets", t},
                              {"smoothing", number(i % 4 == 0 ? 0.0 : 0.1)}};
            },
            1e-12, N_("q = (1 − ε)·onehot(target) + ε/C over the C classes; loss = −Σ_c q_c·log softmax(logits)_c, the mean over the rows")};
}

Exercise adam_exercise() {
    return {"adam_step", 7, N_("one step of Adam"),
            N_("the paper's §5.3; chapter 7"),
            "src/train/adam.cpp, adam_update",
            [](const Answers& a, const Inputs& in) {
                Matrix p = in[0].value, m = in[2].value, v = in[3].value;
                const Matrix& h = in[5].value;  // lr, β1, β2, ε
                a.adam_step(p, in[1].value, m, v, static_cast<int>(in[4].value(0, 0)), h(0, 0), h(0, 1), h(0, 2), h(0, 3));
                return stacked({p, m, v});
            },
            nullptr,
            [](Random& rng, int i) {
                const std::size_t r = random_size(rng, 1, 3), c = random_size(rng, 1, 4);
                const bool first = i % 2 == 0;
                Matrix v = random_matrix(rng, r, c, 0.1);
                for (double& x : v.data) x = first ? 0.0 : x * x;
                return Inputs{{"param", random_matrix(rng, r, c)}, {"grad", random_matrix(rng, r, c, 0.1)},
                              {"m", first ? Matrix(r, c) : random_matrix(rng, r, c, 0.01)}, {"v", v},
                              {"step", number(first ? 1.0 : static_cast<double>(random_size(rng, 2, 9)))},
                              {"lr, β1, β2, ε", Matrix{{1e-3, 0.9, i % 3 ? 0.98 : 0.999, i % 3 ? 1e-3 : 1e-8}}}};
            },
            1e-12, N_("m ← β1·m + (1 − β1)·g, v ← β2·v + (1 − β2)·g², then param ← param − lr · m̂ / (√v̂ + ε) with m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t); the checker shows param, m and v one below the other")};
}

}  // namespace

std::vector<Exercise> layer_exercises() {
    return {sinusoidal_exercise(),        layer_norm_exercise(),    layer_norm_backward_exercise(),
            softmax_backward_exercise(),  smoothed_loss_exercise(), adam_exercise()};
}
