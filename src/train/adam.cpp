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

void adam_update(double* p, const double* g, double* m, double* v, std::size_t count, double lr,
                 std::size_t t, double beta1, double beta2, double eps) {
    const double step_size = lr / (1.0 - elementary::pow(beta1, static_cast<double>(t)));
    const double root = std::sqrt(1.0 - elementary::pow(beta2, static_cast<double>(t)));
    for (std::size_t j = 0; j < count; ++j) {
        m[j] = beta1 * m[j] + (1.0 - beta1) * g[j];
        v[j] = beta2 * v[j] + (1.0 - beta2) * g[j] * g[j];
        p[j] -= step_size * m[j] / (std::sqrt(v[j]) / root + eps);
    }
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
    // Every parameter's update is its own: shared out in pieces. An update (a square root, two
    // divisions) takes the time of about 60 multiply-adds in registers: counted so.
    std::vector<std::size_t> sizes;
    for (const Matrix* p : params) sizes.push_back(p->data.size());
    parallel_for_pieces(sizes, 60, [&](std::size_t i, std::size_t begin, std::size_t end) {
        double* p = params[i]->data.data();
        if (s_.weight_decay > 0 && decayed && (*decayed)[i])
            for (std::size_t j = begin; j < end; ++j) p[j] *= 1.0 - lr * s_.weight_decay;
        adam_update(p + begin, grads[i]->data.data() + begin, m_[i].data.data() + begin,
                    v_[i].data.data() + begin, end - begin, lr, t_, s_.beta1, s_.beta2, s_.eps);
    });
    return lr;
}
