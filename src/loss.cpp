// loss.cpp — label-smoothed cross-entropy and its gradient.
#include "loss.h"

#include <cmath>
#include <stdexcept>
#include <string>

void cross_entropy(const Matrix& logits, const std::vector<int>& targets, int pad_id, double smoothing,
                   LossSum& total, Matrix* d_logits, double gradient_scale) {
    if (targets.size() != logits.rows)
        throw std::invalid_argument("cross_entropy: " + std::to_string(targets.size()) + " targets for logits " + shape_of(logits));
    const Matrix p = softmax_rows(logits);
    const double C = static_cast<double>(logits.cols);
    if (d_logits) *d_logits = Matrix(logits.rows, logits.cols);
    for (std::size_t t = 0; t < logits.rows; ++t) {
        if (targets[t] == pad_id) continue;
        // log softmax, stably: x_c − max − log Σ exp(x − max)
        double max = logits(t, 0), sum = 0.0;
        for (std::size_t c = 0; c < logits.cols; ++c) max = std::max(max, logits(t, c));
        for (std::size_t c = 0; c < logits.cols; ++c) sum += std::exp(logits(t, c) - max);
        const double log_sum = max + std::log(sum);
        double loss = 0.0;
        for (std::size_t c = 0; c < logits.cols; ++c) {
            const double q = (static_cast<int>(c) == targets[t] ? 1.0 - smoothing : 0.0) + smoothing / C;
            loss -= q * (logits(t, c) - log_sum);
            if (d_logits) (*d_logits)(t, c) = (p(t, c) - q) * gradient_scale;  // d/dlogit of −Σ q log p
        }
        total.sum += loss;
        total.count += 1;
    }
}
