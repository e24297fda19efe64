// gradient_check.cpp — central finite differences against backward passes.
#include "model/transformer/transformer.h"
#include "train/gradient_check.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/transformer/parameters.h"

double gradient_error(double analytic, double numeric) {
    return std::fabs(analytic - numeric) /
           std::max({std::fabs(analytic), std::fabs(numeric), 1e-3});
}

std::vector<GradientCheck> check_gradient(const std::string& name, Matrix& value,
                                          const Matrix& analytic,
                                          const std::function<double()>& loss, std::size_t samples,
                                          Random& pick) {
    if (analytic.rows != value.rows || analytic.cols != value.cols)
        throw std::invalid_argument("check_gradient: " + name + ": gradient " + shape_of(analytic) +
                                    " for " + shape_of(value));
    const double h = 1e-5;
    std::vector<GradientCheck> checks;
    for (std::size_t s = 0; s < samples && !value.empty(); ++s) {
        const std::size_t i = pick.next() % value.data.size();
        const double saved = value.data[i];
        value.data[i] = saved + h;
        const double up = loss();
        value.data[i] = saved - h;
        const double down = loss();
        value.data[i] = saved;
        checks.push_back(
            {name + "[" + std::to_string(i) + "]", analytic.data[i], (up - down) / (2 * h)});
    }
    return checks;
}

double worst_error(const std::vector<GradientCheck>& checks) {
    double worst = 0.0;
    for (const GradientCheck& c : checks) worst = std::max(worst, c.error());
    return worst;
}

std::vector<GradientCheck> check_model_gradients(Transformer& model,
                                                 const std::vector<Example>& batch,
                                                 double smoothing, std::size_t samples,
                                                 Random& pick) {
    Transformer grad;
    batch_gradients(model, batch, smoothing, grad);
    const std::vector<Parameter> params = parameters(model), grads = parameters(grad);
    std::vector<GradientCheck> checks;
    for (std::size_t p = 0; p < params.size(); ++p) {
        const std::vector<GradientCheck> some = check_gradient(
            params[p].label(), *params[p].value, *grads[p].value,
            [&] { return batch_loss(model, batch, smoothing); }, samples, pick);
        checks.insert(checks.end(), some.begin(), some.end());
    }
    return checks;
}

double weighted_sum(const Matrix& y, const Matrix& G) {
    if (y.rows != G.rows || y.cols != G.cols)
        throw std::invalid_argument("weighted_sum: " + shape_of(y) + " and " + shape_of(G) +
                                    ": shapes differ");
    double s = 0.0;
    for (std::size_t i = 0; i < y.data.size(); ++i) s += G.data[i] * y.data[i];
    return s;
}
