// layer_mistakes.cpp — the usual mistakes of exercises 9-14 (sinusoidal positions, LayerNorm and
// its backward pass, the softmax's backward pass, the smoothed loss, Adam), each written as a
// student writes it: the correct function but for the one thing its hint names.
#include "exercises/mistakes.h"

#include <algorithm>
#include <cmath>

#include "exercises/student_loops.h"
#include "text/translate.h"

using namespace student;

namespace {

// --- 9 sinusoidal ---
Matrix sinusoidal_with(std::size_t n, std::size_t d, bool cos_first, bool column_exponent) {
    Matrix pe(n, d);
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t c = 0; c < d; ++c) {
            const double i2 = column_exponent ? static_cast<double>(c) : static_cast<double>(c - c % 2);
            const double angle = static_cast<double>(p) / std::pow(10000.0, i2 / static_cast<double>(d));
            pe(p, c) = (c % 2 == 0) != cos_first ? std::sin(angle) : std::cos(angle);
        }
    return pe;
}
Matrix sinusoidal_swapped(std::size_t n, std::size_t d) { return sinusoidal_with(n, d, true, false); }
Matrix sinusoidal_column_exponent(std::size_t n, std::size_t d) {
    return sinusoidal_with(n, d, false, true);
}

// --- 12 LayerNorm ---
Matrix layer_norm_with(const Matrix& x, const Matrix& g, const Matrix& b, bool unbiased, bool eps_outside) {
    Matrix y(x.rows, x.cols);
    const double d = static_cast<double>(x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double mean = 0, var = 0;
        for (std::size_t c = 0; c < x.cols; ++c) mean += x(r, c) / d;
        for (std::size_t c = 0; c < x.cols; ++c) var += (x(r, c) - mean) * (x(r, c) - mean);
        var /= unbiased ? d - 1 : d;
        const double sd = eps_outside ? std::sqrt(var) + 1e-5 : std::sqrt(var + 1e-5);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = (x(r, c) - mean) / sd * g(0, c) + b(0, c);
    }
    return y;
}
Matrix layer_norm_unbiased(const Matrix& x, const Matrix& g, const Matrix& b) {
    return layer_norm_with(x, g, b, true, false);
}
Matrix layer_norm_eps_outside(const Matrix& x, const Matrix& g, const Matrix& b) {
    return layer_norm_with(x, g, b, false, true);
}

// --- 13 LayerNorm backward ---
Matrix layer_norm_dx_with(const Matrix& x, const Matrix& g, const Matrix& dy, int terms) {
    Matrix dx(x.rows, x.cols);
    const double d = static_cast<double>(x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double mean = 0, var = 0;
        for (std::size_t c = 0; c < x.cols; ++c) mean += x(r, c) / d;
        for (std::size_t c = 0; c < x.cols; ++c) var += (x(r, c) - mean) * (x(r, c) - mean) / d;
        const double inv = 1 / std::sqrt(var + 1e-5);
        double mean_g = 0, mean_gx = 0;
        for (std::size_t c = 0; c < x.cols; ++c) {
            mean_g += g(0, c) * dy(r, c) / d;
            mean_gx += g(0, c) * dy(r, c) * (x(r, c) - mean) * inv / d;
        }
        for (std::size_t c = 0; c < x.cols; ++c) {
            const double x_hat = (x(r, c) - mean) * inv;
            double v = g(0, c) * dy(r, c);
            if (terms >= 1) v -= mean_g;
            if (terms >= 2) v -= x_hat * mean_gx;
            dx(r, c) = v * inv;
        }
    }
    return dx;
}
Matrix layer_norm_dx_constants(const Matrix& x, const Matrix& g, const Matrix& dy) {
    return layer_norm_dx_with(x, g, dy, 0);
}
Matrix layer_norm_dx_no_variance(const Matrix& x, const Matrix& g, const Matrix& dy) {
    return layer_norm_dx_with(x, g, dy, 1);
}

// --- 15 softmax backward ---
Matrix softmax_dx_with(const Matrix& dy, const Matrix& y, int kind) {
    Matrix dx(y.rows, y.cols);
    for (std::size_t r = 0; r < y.rows; ++r) {
        double dot = 0;
        for (std::size_t c = 0; c < y.cols; ++c) dot += kind == 2 ? dy(r, c) : dy(r, c) * y(r, c);
        for (std::size_t c = 0; c < y.cols; ++c)
            dx(r, c) = kind == 1 ? dy(r, c) * y(r, c) : y(r, c) * (dy(r, c) - dot);
    }
    return dx;
}
Matrix softmax_dx_elementwise(const Matrix& dy, const Matrix& y) { return softmax_dx_with(dy, y, 1); }
Matrix softmax_dx_unweighted(const Matrix& dy, const Matrix& y) { return softmax_dx_with(dy, y, 2); }

// --- 16 cross-entropy with label smoothing ---
double smoothed_with(const Matrix& logits, const std::vector<int>& t, double eps, int kind) {
    double total = 0;
    const double C = static_cast<double>(logits.cols);
    for (std::size_t r = 0; r < logits.rows; ++r) {
        double m = -inf, sum = 0;
        for (std::size_t c = 0; c < logits.cols; ++c) m = std::max(m, logits(r, c));
        if (kind == 3) m = 0;  // no maximum taken out
        for (std::size_t c = 0; c < logits.cols; ++c) sum += std::exp(logits(r, c) - m);
        const double lse = m + std::log(sum);
        for (std::size_t c = 0; c < logits.cols; ++c) {
            const bool target = static_cast<int>(c) == t[r];
            const double q = kind == 1 ? (target ? 1 - eps : eps / (C - 1))
                                       : (target ? 1 - eps : 0) + eps / C;
            total += q * (lse - logits(r, c));
        }
    }
    return kind == 2 ? total : total / static_cast<double>(logits.rows);
}
double smoothed_other_classes(const Matrix& l, const std::vector<int>& t, double e) { return smoothed_with(l, t, e, 1); }
double smoothed_summed(const Matrix& l, const std::vector<int>& t, double e) { return smoothed_with(l, t, e, 2); }
double smoothed_unstable(const Matrix& l, const std::vector<int>& t, double e) { return smoothed_with(l, t, e, 3); }

// --- 17 Adam ---
void adam_with(Matrix& p, const Matrix& g, Matrix& m, Matrix& v, int t, double lr, double b1,
               double b2, double eps, bool corrected, bool eps_inside) {
    for (std::size_t i = 0; i < p.data.size(); ++i) {
        m.data[i] = b1 * m.data[i] + (1 - b1) * g.data[i];
        v.data[i] = b2 * v.data[i] + (1 - b2) * g.data[i] * g.data[i];
        const double m_hat = corrected ? m.data[i] / (1 - std::pow(b1, t)) : m.data[i];
        const double v_hat = corrected ? v.data[i] / (1 - std::pow(b2, t)) : v.data[i];
        p.data[i] -= lr * m_hat / (eps_inside ? std::sqrt(v_hat + eps) : std::sqrt(v_hat) + eps);
    }
}
void adam_uncorrected(Matrix& p, const Matrix& g, Matrix& m, Matrix& v, int t, double lr,
                      double b1, double b2, double eps) {
    adam_with(p, g, m, v, t, lr, b1, b2, eps, false, false);
}
void adam_eps_inside(Matrix& p, const Matrix& g, Matrix& m, Matrix& v, int t, double lr,
                     double b1, double b2, double eps) {
    adam_with(p, g, m, v, t, lr, b1, b2, eps, true, true);
}

}  // namespace

MistakeTable layer_mistakes() {
    return {
        {"sinusoidal_encoding",
         {
             {N_("sine and cosine swapped"), N_("even columns take the sine, odd columns the cosine: you swapped them"),
              [](Answers& a) { a.sinusoidal_encoding = sinusoidal_swapped; }},
             {N_("each column its own frequency"), N_("columns 2i and 2i+1 share one frequency, 1/10000^(2i/d_model): you used each column's own index"),
              [](Answers& a) { a.sinusoidal_encoding = sinusoidal_column_exponent; }},
         }},
        {"layer_norm",
         {
             {N_("the unbiased variance"), N_("nn.LayerNorm divides by d_model (the biased variance), not d_model − 1"),
              [](Answers& a) { a.layer_norm = layer_norm_unbiased; }},
             {N_("eps outside the square root"), N_("eps goes inside the square root, √(var + eps), not √var + eps"),
              [](Answers& a) { a.layer_norm = layer_norm_eps_outside; }},
         }},
        {"layer_norm_backward",
         {
             {N_("the mean and variance taken as constants"), N_("the mean and the variance depend on x too: dx is not just dy·γ/σ"),
              [](Answers& a) { a.layer_norm_backward = layer_norm_dx_constants; }},
             {N_("the variance's path left out"), N_("you took the mean's path into account but not the variance's: subtract x̂ times the mean of (γ·dy)·x̂ too"),
              [](Answers& a) { a.layer_norm_backward = layer_norm_dx_no_variance; }},
         }},
        {"softmax_rows_backward",
         {
             {N_("dy ⊙ y"), N_("every weight depends on every score of its row: dx = y ⊙ (dy − Σ_c dy_c·y_c), not dy ⊙ y"),
              [](Answers& a) { a.softmax_rows_backward = softmax_dx_elementwise; }},
             {N_("the sum unweighted"), N_("the sum to subtract is weighted by the weights: Σ_c dy_c·y_c, not Σ_c dy_c"),
              [](Answers& a) { a.softmax_rows_backward = softmax_dx_unweighted; }},
         }},
        {"smoothed_cross_entropy",
         {
             {N_("ε spread over the other C − 1 classes"), N_("PyTorch spreads ε over all C classes, the target included (ε/C each): you spread it over the C − 1 others"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_other_classes; }},
             {N_("the sum in place of the mean"), N_("the loss is the mean over the positions, not their sum"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_summed; }},
             {N_("exp of the raw logits"), N_("exp of a large logit overflows: take the row's largest logit out before exp (log-sum-exp)"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_unstable; }},
         }},
        {"adam_step",
         {
             {N_("no bias correction"), N_("divide m by 1 − β1^t and v by 1 − β2^t: without the bias correction the first steps are far too small"),
              [](Answers& a) { a.adam_step = adam_uncorrected; }},
             {N_("eps inside the square root"), N_("eps is added after the square root, √v̂ + eps, not inside it"),
              [](Answers& a) { a.adam_step = adam_eps_inside; }},
         }},
    };
}
