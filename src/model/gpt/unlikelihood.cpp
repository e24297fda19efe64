// unlikelihood.cpp — the penalty on repeating the token just read, and its gradient.
#include "model/gpt/unlikelihood.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/elementary.h"
#include "fast/threads.h"

double unlikelihood_sum(const Matrix& logits, const Tokens& read, const Tokens& targets,
                        int pad_id, double weight, double gradient_scale, Matrix* d_logits) {
    if (read.size() != logits.rows || targets.size() != logits.rows)
        throw std::invalid_argument("unlikelihood_sum: one token read and one target per row");
    const std::size_t C = logits.cols;
    std::vector<double> terms(logits.rows, 0.0);
    // each row on its own (shared out among the threads), the terms added in row order below:
    // the same sum on any thread count
    parallel_for(logits.rows, logits.rows * C * 20, [&](std::size_t r) {
        const int c = read[r];
        if (targets[r] == pad_id || targets[r] == c || c < 0 || std::size_t(c) >= C) return;
        const double* z = logits.row(r);
        // each sum shifted by its own largest logit, so that neither can round to 0:
        // all = Σ_j e^{z_j − top}, others = Σ_{j≠c} e^{z_j − rest}
        double top = z[c], rest = -HUGE_VAL;
        for (std::size_t j = 0; j < C; ++j) {
            top = std::max(top, z[j]);
            if (j != std::size_t(c)) rest = std::max(rest, z[j]);
        }
        double all = 0.0, others = 0.0;
        for (std::size_t j = 0; j < C; ++j) {
            all += elementary::exp(z[j] - top);
            if (j != std::size_t(c)) others += elementary::exp(z[j] - rest);
        }
        // −log(1 − p_c) = log Σ_j e^{z_j} − log Σ_{j≠c} e^{z_j}
        terms[r] = (top + elementary::log(all)) - (rest + elementary::log(others));
        if (!d_logits) return;
        // weight · scale · p_c/(1 − p_c) · (δ_jc − p_j), with p_c/(1 − p_c) = e^{z_c} / Σ_{j≠c} e^{z_j}
        const double w = weight * gradient_scale * elementary::exp(z[c] - rest) / others;
        double* d = d_logits->row(r);
        for (std::size_t j = 0; j < C; ++j) d[j] -= w * elementary::exp(z[j] - top) / all;
        d[c] += w;
    });
    double sum = 0.0;
    for (const double t : terms) sum += t;
    return sum;
}
