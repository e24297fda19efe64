// loss.cpp — label-smoothed cross-entropy and its gradient.
#include "model/transformer/loss.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/elementary.h"
#include "core/threads.h"

static void check_targets(const Matrix& logits, const Tokens& targets) {
    if (targets.size() != logits.rows)
        throw std::invalid_argument("cross_entropy: " + std::to_string(targets.size()) +
                                    " targets for logits " + shape_of(logits));
}

// q_c: the smoothed target probability of class c for a position whose target is y
static double smoothed_target(std::size_t c, int y, double smoothing, double classes) {
    return (static_cast<int>(c) == y ? 1.0 - smoothing : 0.0) + smoothing / classes;
}

namespace {

// log Σ_c exp(x_c), computed stably as max + log Σ exp(x − max). With exps given, the row's
// exponentials exp(x_c − max) are kept there, and their sum in *sum_out: what the gradient's
// softmax needs.
double log_sum_exp(const double* x, std::size_t C, double* exps, double* sum_out) {
    double max = x[0], sum = 0.0;
    for (std::size_t c = 0; c < C; ++c) max = std::max(max, x[c]);
    if (exps) {  // a loop of exponentials alone runs in vector registers; then the sum, in order
        for (std::size_t c = 0; c < C; ++c) exps[c] = elementary::exp(x[c] - max);
        for (std::size_t c = 0; c < C; ++c) sum += exps[c];
    } else {
        for (std::size_t c = 0; c < C; ++c) sum += elementary::exp(x[c] - max);
    }
    if (sum_out) *sum_out = sum;
    return max + elementary::log(sum);
}

// One row's loss, −Σ_c q_c·log softmax(x)_c, where log softmax = x_c − log Σ exp(x).
double row_loss(const double* x, std::size_t C, int target, double smoothing, double* exps,
                double* sum_out) {
    const double log_sum = log_sum_exp(x, C, exps, sum_out);
    // without smoothing every q_c but the target's is 0: the same sum, its zero terms skipped
    if (smoothing == 0.0) return -(x[target] - log_sum);
    const double classes = static_cast<double>(C);
    double loss = 0.0;
    for (std::size_t c = 0; c < C; ++c)
        loss -= smoothed_target(c, target, smoothing, classes) * (x[c] - log_sum);
    return loss;
}

// The rows' losses, shared out among the threads when the vocabulary is large (an exponential
// costs about as much as 20 multiply-adds), then added in order: the same sum on any count.
void add_row_losses(const Matrix& logits, const Tokens& targets, int pad_id, double smoothing,
                    Matrix* d_logits, double gradient_scale, LossSum& total) {
    std::vector<double> losses(logits.rows, 0.0);
    const double C = static_cast<double>(logits.cols);
    parallel_for(logits.rows, logits.rows * logits.cols * 20, [&](std::size_t t) {
        if (targets[t] == pad_id) return;
        if (!d_logits) {
            losses[t] = row_loss(logits.row(t), logits.cols, targets[t], smoothing, nullptr,
                                 nullptr);
            return;
        }
        double* d = d_logits->row(t);
        double sum = 0;
        losses[t] = row_loss(logits.row(t), logits.cols, targets[t], smoothing, d, &sum);
        // softmax: the kept exponentials over their sum (softmax_rows' steps 2 and 3), then
        // d/dlogit_c of −Σ q log softmax = p_c − q_c
        for (std::size_t c = 0; c < logits.cols; ++c) d[c] /= sum;
        for (std::size_t c = 0; c < logits.cols; ++c)
            d[c] = (d[c] - smoothed_target(c, targets[t], smoothing, C)) * gradient_scale;
    });
    for (std::size_t t = 0; t < logits.rows; ++t)
        if (targets[t] != pad_id) total.sum += losses[t], total.count += 1;
}

}  // namespace

std::vector<double> log_sum_exp_rows(const Matrix& logits) {
    std::vector<double> out(logits.rows, 0.0);
    parallel_for(logits.rows, logits.rows * logits.cols * 20, [&](std::size_t t) {
        out[t] = log_sum_exp(logits.row(t), logits.cols, nullptr, nullptr);
    });
    return out;
}

void cross_entropy(const Matrix& logits, const Tokens& targets, int pad_id, double smoothing,
                   LossSum& total) {
    check_targets(logits, targets);
    add_row_losses(logits, targets, pad_id, smoothing, nullptr, 0.0, total);
}

Matrix cross_entropy_with_gradient(const Matrix& logits, const Tokens& targets, int pad_id,
                                   double smoothing, double gradient_scale, LossSum& total) {
    check_targets(logits, targets);
    Matrix d_logits(logits.rows, logits.cols);  // ignored rows stay zero
    add_row_losses(logits, targets, pad_id, smoothing, &d_logits, gradient_scale, total);
    return d_logits;
}

std::size_t counted_targets(const Tokens& targets, int pad_id) {
    std::size_t n = 0;
    for (int t : targets) n += t != pad_id;
    return n;
}

double smoothed_loss_floor(double smoothing, std::size_t classes) {
    const double C = static_cast<double>(classes), q_true = 1.0 - smoothing + smoothing / C,
                 q_other = smoothing / C;
    const double h_true = q_true > 0 ? -q_true * elementary::log(q_true) : 0.0;
    const double h_other = q_other > 0 ? -(C - 1) * q_other * elementary::log(q_other) : 0.0;
    return h_true + h_other;
}

Matrix cross_entropy_backward(const Matrix& logits, const Tokens& targets, int pad_id,
                              double smoothing, double gradient_scale) {
    check_targets(logits, targets);
    const Matrix p = softmax_rows(logits);
    const double C = static_cast<double>(logits.cols);
    Matrix d_logits(logits.rows, logits.cols);
    for (std::size_t t = 0; t < logits.rows; ++t) {
        if (targets[t] == pad_id) continue;            // ignored: no gradient
        for (std::size_t c = 0; c < logits.cols; ++c)  // d/dlogit_c of −Σ q log softmax = p_c − q_c
            d_logits(t, c) =
                (p(t, c) - smoothed_target(c, targets[t], smoothing, C)) * gradient_scale;
    }
    return d_logits;
}
