// adam.cpp — Adam and the warm-up schedule.
#include "train/adam.h"

#include "core/elementary.h"
#include "fast/threads.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

double learning_rate(const AdamSettings& s, std::size_t step) {
    const double t = static_cast<double>(step), w = static_cast<double>(s.warmup);
    if (s.schedule == AdamSettings::Schedule::Cosine) {
        if (step <= s.warmup) return s.peak * t / w;
        const double span = static_cast<double>(std::max(s.steps, s.warmup + 1) - s.warmup);
        const double progress = std::min(1.0, (t - w) / span);
        const double pi = 3.14159265358979323846;
        return s.peak * (s.final_fraction +
                         (1 - s.final_fraction) * (1 + elementary::cos(pi * progress)) / 2);
    }
    return s.factor * elementary::pow(static_cast<double>(s.d_model), -0.5) *
           std::min(elementary::pow(t, -0.5), t * elementary::pow(w, -1.5));
}

double Adam::step(const std::vector<Matrix*>& params, const std::vector<Matrix*>& grads,
                  const std::vector<bool>* decayed) {
    if (params.size() != grads.size())
        throw std::invalid_argument("Adam::step: one gradient per parameter");
    if (m_.empty())
        for (const Matrix* p : params) {
            m_.emplace_back(p->rows, p->cols);
            v_.emplace_back(p->rows, p->cols);
        }
    ++t_;
    const double lr = learning_rate(s_, t_);
    const double bias1 = 1.0 - elementary::pow(s_.beta1, static_cast<double>(t_));
    const double bias2_sqrt = std::sqrt(1.0 - elementary::pow(s_.beta2, static_cast<double>(t_)));
    const double step_size = lr / bias1, beta1 = s_.beta1, beta2 = s_.beta2, eps = s_.eps;
    // Every parameter's update is its own: shared out in pieces. An update (a square root, two
    // divisions) takes the time of about 60 multiply-adds in registers: counted so.
    std::vector<std::size_t> sizes;
    for (const Matrix* p : params) sizes.push_back(p->data.size());
    parallel_for_pieces(sizes, 60, [&](std::size_t i, std::size_t begin, std::size_t end) {
        double* p = params[i]->data.data();
        if (s_.weight_decay > 0 && decayed && (*decayed)[i])
            for (std::size_t j = begin; j < end; ++j) p[j] *= 1.0 - lr * s_.weight_decay;
        const double* g = grads[i]->data.data();
        double* m = m_[i].data.data();
        double* v = v_[i].data.data();
        // the constants in the loop's own variables: read through the lambda's references, they
        // might change with every write to p, m or v as far as the compiler can tell, and the
        // loop stayed one parameter at a time instead of running in vector registers
        const double b1 = beta1, b2 = beta2, size = step_size, root = bias2_sqrt, e = eps;
        for (std::size_t j = begin; j < end; ++j) {
            m[j] = b1 * m[j] + (1.0 - b1) * g[j];
            v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
            p[j] -= size * m[j] / (std::sqrt(v[j]) / root + e);
        }
    });
    return lr;
}
