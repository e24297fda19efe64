// mistakes.cpp — each exercise's usual mistakes, written as a student writes them: plain loops,
// the C library's exp and sqrt. Each is the correct function but for the one thing its hint
// names.
#include "exercises/mistakes.h"

#include "text/translate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace {

const double inf = std::numeric_limits<double>::infinity();

Matrix product(const Matrix& a, const Matrix& b, bool b_transposed) {
    const std::size_t cols = b_transposed ? b.rows : b.cols;
    const std::size_t inner = b_transposed ? b.cols : b.rows;
    if (a.cols != inner) throw std::invalid_argument("shapes do not fit");
    Matrix c(a.rows, cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t k = 0; k < inner; ++k)
                c(i, j) += a(i, k) * (b_transposed ? b(j, k) : b(k, j));
    return c;
}

// softmax of each row: stable, a row of −inf all zeros (the correct one, for the mistakes of
// later exercises to build on)
Matrix softmax(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double m = -inf, sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) m = std::max(m, x(r, c));
        if (m == -inf) continue;
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c) - m);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}

Matrix attend(const Matrix& Q, const Matrix& K, const Matrix& V, double scale, const Matrix& mask) {
    Matrix s = product(Q, K, true);
    for (std::size_t i = 0; i < s.data.size(); ++i)
        s.data[i] = s.data[i] * scale + (mask.empty() ? 0.0 : mask.data[i]);
    return product(softmax(s), V, false);
}

// --- 1 scores ---
Matrix scores_keys_first(const Matrix& Q, const Matrix& K) { return product(K, Q, true); }
Matrix scores_scaled(const Matrix& Q, const Matrix& K) {
    Matrix s = product(Q, K, true);
    for (double& x : s.data) x /= std::sqrt(static_cast<double>(Q.cols));
    return s;
}
// --- 2 softmax ---
Matrix softmax_unstable(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c));
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}
Matrix softmax_columns(const Matrix& x) {
    Matrix t(x.cols, x.rows);
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) t(c, r) = x(r, c);
    const Matrix s = softmax(t);
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = s(c, r);
    return y;
}
Matrix softmax_nan_row(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double m = -inf, sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) m = std::max(m, x(r, c));
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c) - m);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}
// --- 3 attention ---
Matrix attention_unscaled(const Matrix& Q, const Matrix& K, const Matrix& V) {
    return attend(Q, K, V, 1.0, Matrix());
}
Matrix attention_over_d_k(const Matrix& Q, const Matrix& K, const Matrix& V) {
    return attend(Q, K, V, 1.0 / static_cast<double>(K.cols), Matrix());
}
// --- 4 causal mask ---
Matrix causal_hides_diagonal(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) m(i, j) = -inf;
    return m;
}
Matrix causal_hides_past(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < i; ++j) m(i, j) = -inf;
    return m;
}
// --- 5 padding mask ---
Matrix padding_hides_queries(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n && i < pad.size(); ++i)
        if (pad[i])
            for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = -inf;
    return m;
}
Matrix padding_inverted(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = pad[j] ? 0.0 : -inf;
    return m;
}
Matrix padding_minus_1e9(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = pad[j] ? -1e9 : 0.0;
    return m;
}
// --- 6 masked attention ---
Matrix masked_after_softmax(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    Matrix s = product(Q, K, true);
    for (double& x : s.data) x /= std::sqrt(static_cast<double>(K.cols));
    Matrix w = softmax(s);
    for (std::size_t i = 0; i < w.data.size(); ++i)
        if (mask.data[i] == -inf) w.data[i] = 0;
    return product(w, V, false);
}
Matrix masked_minus_1e9(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    Matrix finite = mask;
    for (double& x : finite.data)
        if (x == -inf) x = -1e9;
    return attend(Q, K, V, 1.0 / std::sqrt(static_cast<double>(K.cols)), finite);
}
Matrix masked_unscaled(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    return attend(Q, K, V, 1.0, mask);
}
// --- 7 split heads ---
std::vector<Matrix> split_interleaved(const Matrix& x, std::size_t h) {
    std::vector<Matrix> heads(h, Matrix(x.rows, x.cols / h));
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) heads[c % h](r, c / h) = x(r, c);
    return heads;
}
std::vector<Matrix> split_rows(const Matrix& x, std::size_t h) {
    const std::size_t n = x.rows / h;
    std::vector<Matrix> heads(h, Matrix(n, x.cols));
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < x.cols; ++c) heads[k](r, c) = x(k * n + r, c);
    return heads;
}
// --- 8 merge heads ---
Matrix merge_reversed(const std::vector<Matrix>& heads) {
    const std::size_t h = heads.size(), d = heads[0].cols;
    Matrix x(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < x.rows; ++r)
            for (std::size_t c = 0; c < d; ++c) x(r, (h - 1 - k) * d + c) = heads[k](r, c);
    return x;
}
Matrix merge_interleaved(const std::vector<Matrix>& heads) {
    const std::size_t h = heads.size(), d = heads[0].cols;
    Matrix x(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < x.rows; ++r)
            for (std::size_t c = 0; c < d; ++c) x(r, c * h + k) = heads[k](r, c);
    return x;
}
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
// --- 10 RoPE ---
Matrix rope_with(const Matrix& x, const std::vector<std::size_t>& pos, bool halves, double sign) {
    const std::size_t d = x.cols;
    Matrix y = x;
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t i = 0; i < d / 2; ++i) {
            const std::size_t a = halves ? i : 2 * i, b = halves ? i + d / 2 : 2 * i + 1;
            const double theta = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
            const double angle = sign * static_cast<double>(pos[r]) * theta;
            y(r, a) = x(r, a) * std::cos(angle) - x(r, b) * std::sin(angle);
            y(r, b) = x(r, a) * std::sin(angle) + x(r, b) * std::cos(angle);
        }
    return y;
}
Matrix rope_halves(const Matrix& x, const std::vector<std::size_t>& p) { return rope_with(x, p, true, 1); }
Matrix rope_backwards(const Matrix& x, const std::vector<std::size_t>& p) { return rope_with(x, p, false, -1); }
// --- 11 ALiBi ---
double power_of_two_slope(std::size_t k, std::size_t heads) {  // k from 1
    return std::pow(2.0, -8.0 * static_cast<double>(k) / static_cast<double>(heads));
}
std::vector<double> slopes(std::size_t h, bool from_zero) {
    std::size_t p = 1;
    while (p * 2 <= h) p *= 2;
    const std::size_t shift = from_zero ? 1 : 0;
    std::vector<double> s;
    for (std::size_t k = 1; k <= p; ++k) s.push_back(power_of_two_slope(k - shift, p));
    for (std::size_t k = 1; s.size() < h; k += 2) s.push_back(power_of_two_slope(k - shift, 2 * p));
    return s;
}
Matrix alibi_with(std::size_t n, std::size_t h, std::size_t head, bool from_zero, double sign) {
    const double m = slopes(h, from_zero)[head];
    Matrix b(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            b(i, j) = -sign * m * std::fabs(static_cast<double>(i) - static_cast<double>(j));
    return b;
}
Matrix alibi_from_zero(std::size_t n, std::size_t h, std::size_t head) { return alibi_with(n, h, head, true, 1); }
Matrix alibi_positive(std::size_t n, std::size_t h, std::size_t head) { return alibi_with(n, h, head, false, -1); }
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
// --- 14 RMSNorm ---
Matrix rms_with(const Matrix& x, const Matrix& g, bool centre, bool eps_outside) {
    Matrix y(x.rows, x.cols);
    const double d = static_cast<double>(x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double mean = 0, ms = 0;
        if (centre)
            for (std::size_t c = 0; c < x.cols; ++c) mean += x(r, c) / d;
        for (std::size_t c = 0; c < x.cols; ++c) ms += (x(r, c) - mean) * (x(r, c) - mean) / d;
        const double rms = eps_outside ? std::sqrt(ms) + 1e-5 : std::sqrt(ms + 1e-5);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = (x(r, c) - mean) / rms * g(0, c);
    }
    return y;
}
Matrix rms_centred(const Matrix& x, const Matrix& g) { return rms_with(x, g, true, false); }
Matrix rms_eps_outside(const Matrix& x, const Matrix& g) { return rms_with(x, g, false, true); }
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
// --- 18 KV cache ---
void append(Matrix& into, const Matrix& row) {
    if (into.empty()) into = Matrix(0, row.cols);
    into.data.insert(into.data.end(), row.data.begin(), row.data.end());
    into.rows += 1;
}
Matrix kv_attend_before_append(Matrix& K, Matrix& V, const Matrix& q, const Matrix& k, const Matrix& v) {
    const Matrix out = attend(q, K, V, 1 / std::sqrt(static_cast<double>(q.cols)), Matrix());
    append(K, k);
    append(V, v);
    return out;
}
Matrix kv_newest_only(Matrix& K, Matrix& V, const Matrix& q, const Matrix& k, const Matrix& v) {
    append(K, k);
    append(V, v);
    return attend(q, k, v, 1 / std::sqrt(static_cast<double>(q.cols)), Matrix());
}
// --- 19 beam search ---
std::vector<exercise::BeamCandidate> beam_with(const std::vector<double>& s, const Matrix& lp,
                                               std::size_t width, int kind) {
    std::vector<exercise::BeamCandidate> all;
    for (std::size_t b = 0; b < s.size(); ++b) {
        std::size_t best = 0;
        for (std::size_t t = 0; t < lp.cols; ++t) {
            if (lp(b, t) > lp(b, best)) best = t;
            if (kind == 1) all.push_back({b, static_cast<int>(t), lp(b, t)});
        }
        if (kind == 2) all.push_back({b, static_cast<int>(best), s[b] + lp(b, best)});
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.score > y.score; });
    all.resize(std::min(width, all.size()));
    return all;
}
std::vector<exercise::BeamCandidate> beam_token_only(const std::vector<double>& s, const Matrix& lp, std::size_t w) {
    return beam_with(s, lp, w, 1);
}
std::vector<exercise::BeamCandidate> beam_one_per_beam(const std::vector<double>& s, const Matrix& lp, std::size_t w) {
    return beam_with(s, lp, w, 2);
}
// --- 20 top-p ---
Matrix nucleus_with(const Matrix& probs, double p, bool strictly_below, bool renormalise) {
    std::vector<std::size_t> ids(probs.cols);
    std::iota(ids.begin(), ids.end(), std::size_t(0));
    std::stable_sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) { return probs(0, a) > probs(0, b); });
    Matrix kept(1, probs.cols);
    double sum = 0;
    for (std::size_t id : ids) {
        if (strictly_below ? sum + probs(0, id) >= p && sum > 0 : sum >= p) break;
        kept(0, id) = probs(0, id);
        sum += probs(0, id);
    }
    if (renormalise)
        for (double& x : kept.data) x /= sum;
    return kept;
}
Matrix nucleus_below_p(const Matrix& probs, double p) { return nucleus_with(probs, p, true, true); }
Matrix nucleus_unnormalised(const Matrix& probs, double p) { return nucleus_with(probs, p, false, false); }
// --- 21 online softmax ---
exercise::RunningSum online_unguarded(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum * std::exp(s.max - m) + std::exp(x - m)};
}
exercise::RunningSum online_not_rescaled(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum + std::exp(x - m)};
}
exercise::RunningSum online_rescaled_up(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum * std::exp(m - s.max) + std::exp(x - m)};
}
// --- 22 grouped-query attention ---
Matrix gqa_with(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V, int kind) {
    std::vector<Matrix> out;
    const std::size_t group = Q.size() / K.size();
    for (std::size_t h = 0; h < Q.size(); ++h) {
        const std::size_t kv = kind == 1 ? h % K.size() : kind == 2 ? 0 : h / group;
        out.push_back(attend(Q[h], K[kv], V[kv], 1 / std::sqrt(static_cast<double>(Q[h].cols)), Matrix()));
    }
    Matrix x(Q[0].rows, 0);
    for (const Matrix& o : out) {
        Matrix wider(x.rows, x.cols + o.cols);
        for (std::size_t r = 0; r < x.rows; ++r) {
            for (std::size_t c = 0; c < x.cols; ++c) wider(r, c) = x(r, c);
            for (std::size_t c = 0; c < o.cols; ++c) wider(r, x.cols + c) = o(r, c);
        }
        x = wider;
    }
    return x;
}
Matrix gqa_interleaved(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V) {
    return gqa_with(Q, K, V, 1);
}
Matrix gqa_first_only(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V) {
    return gqa_with(Q, K, V, 2);
}
// --- 23 Kneser-Ney ---
std::vector<double> discounts(const std::map<std::pair<int, int>, double>& counts) {
    double n[5] = {0, 0, 0, 0, 0};
    for (const auto& kv : counts)
        if (kv.second <= 4) n[static_cast<int>(kv.second)] += 1;
    const std::vector<double> plain = {0.75, 0.75, 0.75};
    if (n[1] == 0 || n[2] == 0 || n[3] == 0) return plain;
    const double y = n[1] / (n[1] + 2 * n[2]);
    const std::vector<double> d = {1 - 2 * y * n[2] / n[1], 2 - 3 * y * n[3] / n[2], 3 - 4 * y * n[4] / n[3]};
    for (int k = 0; k < 3; ++k)
        if (!(d[k] > 0 && d[k] < k + 1)) return plain;
    return d;
}
// one level: counts keyed (history, w), history −1 for the unigram level's empty one
double level_probability(const std::map<std::pair<int, int>, double>& counts, int h, int w, double lower,
                         bool interpolate) {
    const std::vector<double> d = discounts(counts);
    double total = 0, n[3] = {0, 0, 0}, count = 0;
    for (const auto& [key, c] : counts)
        if (key.first == h) {
            total += c;
            n[c == 1 ? 0 : c == 2 ? 1 : 2] += 1;
            if (key.second == w) count = c;
        }
    if (total == 0) return lower;
    const double dc = count == 0 ? 0 : d[count == 1 ? 0 : count == 2 ? 1 : 2];
    const double gamma = (d[0] * n[0] + d[1] * n[1] + d[2] * n[2]) / total;
    if (!interpolate) return count > 0 ? (count - dc) / total : gamma * lower;
    return std::max(count - dc, 0.0) / total + gamma * lower;
}
double kn_with(const std::vector<std::vector<int>>& training, std::size_t vocab, int v, int w,
               bool continuation, bool interpolate) {
    std::map<std::pair<int, int>, double> bigrams, unigrams;
    for (const auto& s : training)
        for (std::size_t i = 1; i < s.size(); ++i) bigrams[{s[i - 1], s[i]}] += 1;
    for (const auto& [key, c] : bigrams) unigrams[{-1, key.second}] += continuation ? 1 : c;
    const double p1 = level_probability(unigrams, -1, w, 1.0 / static_cast<double>(vocab), true);
    return level_probability(bigrams, v, w, p1, interpolate);
}
double kn_plain_unigram(const std::vector<std::vector<int>>& t, std::size_t vocab, int v, int w) {
    return kn_with(t, vocab, v, w, false, true);
}
double kn_backoff(const std::vector<std::vector<int>>& t, std::size_t vocab, int v, int w) {
    return kn_with(t, vocab, v, w, true, false);
}
// --- 24 Q8_0 ---
float quantize_with(const std::vector<float>& x, std::vector<std::int8_t>& q, int kind) {
    float largest = 0;
    for (float v : x) largest = std::max(largest, std::fabs(v));
    const float scale = largest / (kind == 1 ? 128.0f : 127.0f);
    q.assign(x.size(), 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const float r = scale == 0 ? 0.0f : x[i] / scale;
        q[i] = static_cast<std::int8_t>(kind == 2 ? std::trunc(r) : kind == 3 ? std::nearbyint(r) : std::round(r));
    }
    return scale;
}
float quantize_over_128(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 1); }
float quantize_truncated(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 2); }
float quantize_half_even(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 3); }
// --- 25 bfloat16 ---
double bfloat16_with(double x, int kind) {
    const float f = static_cast<float>(x);
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (kind == 2) bits += 0x8000u;  // half away from zero: add half a unit, then cut
    bits &= 0xffff0000u;
    float r;
    std::memcpy(&r, &bits, 4);
    return r;
}
double bfloat16_truncated(double x) { return bfloat16_with(x, 1); }
double bfloat16_ties_away(double x) { return bfloat16_with(x, 2); }
// --- 26 a head left out ---
Matrix without_with(const std::vector<Matrix>& heads, const Matrix& W_O, std::size_t head, int kind) {
    const std::size_t d = heads[0].cols, h = heads.size();
    Matrix concat(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < concat.rows; ++r)
            for (std::size_t c = 0; c < d; ++c)
                concat(r, k * d + c) = kind == 1 && k == (head + 1) % h ? 0.0 : heads[k](r, c);
    Matrix out = product(concat, W_O, false);
    if (kind == 2)
        for (std::size_t r = 0; r < out.rows; ++r)
            for (std::size_t c = head * d; c < (head + 1) * d && c < out.cols; ++c) out(r, c) = 0;
    return out;
}
Matrix without_next_head(const std::vector<Matrix>& heads, const Matrix& W, std::size_t head) {
    return without_with(heads, W, head, 1);
}
Matrix without_after_projection(const std::vector<Matrix>& heads, const Matrix& W, std::size_t head) {
    return without_with(heads, W, head, 2);
}

}  // namespace

// Each exercise's mistakes, in the order the checker tries them.
const std::vector<Mistake>& mistakes_of(const std::string& exercise) {
    static const std::map<std::string, std::vector<Mistake>> all = {
        {"scores",
         {
             {N_("rows are queries and columns keys: you computed K·Qᵀ, the transpose"),
              [](Answers& a) { a.scores = scores_keys_first; }},
             {N_("the scores are the plain dot products Q·Kᵀ; the 1/√d_k belongs to attention, not here"),
              [](Answers& a) { a.scores = scores_scaled; }},
         }},
        {"softmax_rows",
         {
             {N_("exp of a large score overflows to inf (inf/inf is NaN): subtract the row's largest score before exp"),
              [](Answers& a) { a.softmax_rows = softmax_unstable; }},
             {N_("each row must sum to 1: you normalised each column"),
              [](Answers& a) { a.softmax_rows = softmax_columns; }},
             {N_("a row whose scores are all −inf has no largest finite score: give it all zeros, not the NaN of (−inf) − (−inf)"),
              [](Answers& a) { a.softmax_rows = softmax_nan_row; }},
         }},
        {"attention",
         {
             {N_("the scores are divided by √d_k before the softmax: you left the scale out"),
              [](Answers& a) { a.attention = attention_unscaled; }},
             {N_("divide by √d_k, the square root: you divided by d_k itself"),
              [](Answers& a) { a.attention = attention_over_d_k; }},
         }},
        {"causal_mask",
         {
             {N_("a query sees itself: keep the diagonal, hide only the keys after it (j > i)"),
              [](Answers& a) { a.causal_mask = causal_hides_diagonal; }},
             {N_("hide the future, not the past: query i may see keys 0 … i"),
              [](Answers& a) { a.causal_mask = causal_hides_past; }},
         }},
        {"padding_mask",
         {
             {N_("a padded key is hidden from every query: mask its column, not its row"),
              [](Answers& a) { a.padding_mask = padding_hides_queries; }},
             {N_("true in key_is_padding means ignore that key: your mask hides the real keys and keeps the padding"),
              [](Answers& a) { a.padding_mask = padding_inverted; }},
             {N_("hide with −inf, not −1e9: a mask must give exactly zero weight, whatever the scores"),
              [](Answers& a) { a.padding_mask = padding_minus_1e9; }},
         }},
        {"masked_attention",
         {
             {N_("add the mask to the scores before the softmax: zeroing weights after it leaves rows that no longer sum to 1"),
              [](Answers& a) { a.masked_attention = masked_after_softmax; }},
             {N_("−1e9 is not −inf: a row with every key masked then gets equal weights on all of them (the mean of V) instead of zeros"),
              [](Answers& a) { a.masked_attention = masked_minus_1e9; }},
             {N_("the scores are divided by √d_k before the mask is added: you left the scale out"),
              [](Answers& a) { a.masked_attention = masked_unscaled; }},
         }},
        {"split_heads",
         {
             {N_("head h takes the columns h·d_k … (h+1)·d_k − 1 side by side, not every h-th column"),
              [](Answers& a) { a.split_heads = split_interleaved; }},
             {N_("every head sees every position: split the columns (the features), not the rows"),
              [](Answers& a) { a.split_heads = split_rows; }},
         }},
        {"merge_heads",
         {
             {N_("head 0's columns come first: you put the heads in reverse order"),
              [](Answers& a) { a.merge_heads = merge_reversed; }},
             {N_("put each head's columns side by side as one block, not interleaved column by column"),
              [](Answers& a) { a.merge_heads = merge_interleaved; }},
         }},
        {"sinusoidal_encoding",
         {
             {N_("even columns take the sine, odd columns the cosine: you swapped them"),
              [](Answers& a) { a.sinusoidal_encoding = sinusoidal_swapped; }},
             {N_("columns 2i and 2i+1 share one frequency, 1/10000^(2i/d_model): you used each column's own index"),
              [](Answers& a) { a.sinusoidal_encoding = sinusoidal_column_exponent; }},
         }},
        {"rope_rotate",
         {
             {N_("rotate neighbouring pairs (x_2i, x_2i+1): you paired the first half with the second half (GPT-NeoX's layout, not this project's)"),
              [](Answers& a) { a.rope_rotate = rope_halves; }},
             {N_("rotate by +p·θ_i: your rotation turns the other way"),
              [](Answers& a) { a.rope_rotate = rope_backwards; }},
         }},
        {"alibi_bias",
         {
             {N_("the slopes start at 2^(−8/h) for the first head (k = 1), not at 1"),
              [](Answers& a) { a.alibi_bias = alibi_from_zero; }},
             {N_("the bias is a penalty, −m·|i − j|: yours rewards distance"),
              [](Answers& a) { a.alibi_bias = alibi_positive; }},
         }},
        {"layer_norm",
         {
             {N_("nn.LayerNorm divides by d_model (the biased variance), not d_model − 1"),
              [](Answers& a) { a.layer_norm = layer_norm_unbiased; }},
             {N_("eps goes inside the square root, √(var + eps), not √var + eps"),
              [](Answers& a) { a.layer_norm = layer_norm_eps_outside; }},
         }},
        {"layer_norm_backward",
         {
             {N_("the mean and the variance depend on x too: dx is not just dy·γ/σ"),
              [](Answers& a) { a.layer_norm_backward = layer_norm_dx_constants; }},
             {N_("you took the mean's path into account but not the variance's: subtract x̂ times the mean of (γ·dy)·x̂ too"),
              [](Answers& a) { a.layer_norm_backward = layer_norm_dx_no_variance; }},
         }},
        {"rms_norm",
         {
             {N_("RMSNorm does not subtract the mean: that is LayerNorm"),
              [](Answers& a) { a.rms_norm = rms_centred; }},
             {N_("eps goes inside the square root, √(mean(x²) + eps)"),
              [](Answers& a) { a.rms_norm = rms_eps_outside; }},
         }},
        {"softmax_rows_backward",
         {
             {N_("every weight depends on every score of its row: dx = y ⊙ (dy − Σ_c dy_c·y_c), not dy ⊙ y"),
              [](Answers& a) { a.softmax_rows_backward = softmax_dx_elementwise; }},
             {N_("the sum to subtract is weighted by the weights: Σ_c dy_c·y_c, not Σ_c dy_c"),
              [](Answers& a) { a.softmax_rows_backward = softmax_dx_unweighted; }},
         }},
        {"smoothed_cross_entropy",
         {
             {N_("PyTorch spreads ε over all C classes, the target included (ε/C each): you spread it over the C − 1 others"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_other_classes; }},
             {N_("the loss is the mean over the positions, not their sum"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_summed; }},
             {N_("exp of a large logit overflows: take the row's largest logit out before exp (log-sum-exp)"),
              [](Answers& a) { a.smoothed_cross_entropy = smoothed_unstable; }},
         }},
        {"adam_step",
         {
             {N_("divide m by 1 − β1^t and v by 1 − β2^t: without the bias correction the first steps are far too small"),
              [](Answers& a) { a.adam_step = adam_uncorrected; }},
             {N_("eps is added after the square root, √v̂ + eps, not inside it"),
              [](Answers& a) { a.adam_step = adam_eps_inside; }},
         }},
        {"kv_cache_step",
         {
             {N_("append the new key and value before attending: the new token must see itself"),
              [](Answers& a) { a.kv_cache_step = kv_attend_before_append; }},
             {N_("the new query attends to every cached key, not only to the newest one"),
              [](Answers& a) { a.kv_cache_step = kv_newest_only; }},
         }},
        {"beam_step",
         {
             {N_("rank by the whole hypothesis's log-probability, the beam's score plus the token's, not the token's alone"),
              [](Answers& a) { a.beam_step = beam_token_only; }},
             {N_("rank every extension of every beam together: a good beam may keep two of its extensions and a poor one none"),
              [](Answers& a) { a.beam_step = beam_one_per_beam; }},
         }},
        {"nucleus",
         {
             {N_("keep the token that takes the sum to p or past it: the kept set's probabilities add up to at least p"),
              [](Answers& a) { a.nucleus = nucleus_below_p; }},
             {N_("renormalise the kept probabilities so that they sum to 1"),
              [](Answers& a) { a.nucleus = nucleus_unnormalised; }},
         }},
        {"online_softmax_update",
         {
             {N_("a hidden score (−inf) adds nothing: while every score so far is −inf, keep (−inf, 0) — exp(−inf − (−inf)) is NaN"),
              [](Answers& a) { a.online_softmax_update = online_unguarded; }},
             {N_("when the maximum grows, the sum so far must be multiplied by exp(m − m′) to be relative to the new maximum"),
              [](Answers& a) { a.online_softmax_update = online_not_rescaled; }},
             {N_("the correction is exp(m − m′), at most 1: yours is its inverse, exp(m′ − m)"),
              [](Answers& a) { a.online_softmax_update = online_rescaled_up; }},
         }},
        {"grouped_query_attention",
         {
             {N_("query heads share key/value heads in consecutive groups: head h reads kv head h / (h_q / h_kv), not h % h_kv"),
              [](Answers& a) { a.grouped_query_attention = gqa_interleaved; }},
             {N_("each group of query heads has its own key/value head: you gave every query head the first"),
              [](Answers& a) { a.grouped_query_attention = gqa_first_only; }},
         }},
        {"kneser_ney_bigram",
         {
             {N_("the lower order counts after how many distinct tokens a token came (continuation counts), not how often it came"),
              [](Answers& a) { a.kneser_ney_bigram = kn_plain_unigram; }},
             {N_("interpolate always: add γ(v)·P_lower(w) to the discounted count even when v w was seen"),
              [](Answers& a) { a.kneser_ney_bigram = kn_backoff; }},
         }},
        {"quantize_group",
         {
             {N_("the scale is max|x| / 127, so that the largest number becomes ±127"),
              [](Answers& a) { a.quantize_group = quantize_over_128; }},
             {N_("round to the nearest integer (half away from zero): casting to int truncates"),
              [](Answers& a) { a.quantize_group = quantize_truncated; }},
             {N_("round halves away from zero as llama2.c does (std::round), not to even"),
              [](Answers& a) { a.quantize_group = quantize_half_even; }},
         }},
        {"to_bfloat16",
         {
             {N_("round to nearest: cutting the low 16 bits off the float rounds towards zero"),
              [](Answers& a) { a.to_bfloat16 = bfloat16_truncated; }},
             {N_("a tie rounds to the even neighbour: adding half a unit and cutting rounds ties away from zero"),
              [](Answers& a) { a.to_bfloat16 = bfloat16_ties_away; }},
         }},
        {"without_head",
         {
             {N_("heads count from 0: you zeroed the head after the one asked for"),
              [](Answers& a) { a.without_head = without_next_head; }},
             {N_("zero the head's columns of the concatenation before W_O: after the projection every output column mixes every head"),
              [](Answers& a) { a.without_head = without_after_projection; }},
         }},
    };
    static const std::vector<Mistake> none;
    const auto it = all.find(exercise);
    return it == all.end() ? none : it->second;
}
