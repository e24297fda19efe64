// loss.cpp — label-smoothed cross-entropy and its gradient.
#include "model/transformer/loss.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

static void check_targets(const Matrix& logits, const Tokens& targets) {
    if (targets.size() != logits.rows)
        throw std::invalid_argument("cross_entropy: " + std::to_string(targets.size()) +
                                    " targets for logits " + shape_of(logits));
}

// q_c: the smoothed target probability of class c for a position whose target is y
static double smoothed_target(std::size_t c, int y, double smoothing, double classes) {
    return (static_cast<int>(c) == y ? 1.0 - smoothing : 0.0) + smoothing / classes;
}

void cross_entropy(const Matrix& logits, const Tokens& targets, int pad_id, double smoothing,
                   LossSum& total) {
    check_targets(logits, targets);
    const double C = static_cast<double>(logits.cols);
    for (std::size_t t = 0; t < logits.rows; ++t) {
        if (targets[t] == pad_id) continue;
        // log softmax, stably: x_c − max − log Σ exp(x − max)
        double max = logits(t, 0), sum = 0.0;
        for (std::size_t c = 0; c < logits.cols; ++c) max = std::max(max, logits(t, c));
        for (std::size_t c = 0; c < logits.cols; ++c) sum += std::exp(logits(t, c) - max);
        const double log_sum = max + std::log(sum);
        double loss = 0.0;
        for (std::size_t c = 0; c < logits.cols; ++c)
            loss -= smoothed_target(c, targets[t], smoothing, C) * (logits(t, c) - log_sum);
        total.sum += loss;
        total.count += 1;
    }
}

double smoothed_loss_floor(double smoothing, std::size_t classes) {
    const double C = static_cast<double>(classes), q_true = 1.0 - smoothing + smoothing / C,
                 q_other = smoothing / C;
    const double h_true = q_true > 0 ? -q_true * std::log(q_true) : 0.0;
    const double h_other = q_other > 0 ? -(C - 1) * q_other * std::log(q_other) : 0.0;
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
