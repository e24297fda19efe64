// repeat_correction.cpp — β fitted by likelihood on the previous token's logit
// (repeat_correction.h).
#include "verse/repeat_correction.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "model/gpt/gpt.h"
#include "model/transformer/loss.h"
#include "train/gpt_training.h"


std::vector<RepeatTarget> repeat_targets(const Gpt& model, const std::vector<Tokens>& sequences,
                                         std::size_t context) {
    const int pad = model.config.pad_id;
    std::vector<RepeatTarget> out;
    for_sliding_windows(
        sequences, context, pad,
        [&](const std::vector<Tokens>& inputs, const std::vector<Tokens>& targets) {
            // each part of the windows on a thread of its own, its rows kept in order
            std::vector<std::vector<RepeatTarget>> parts(parts_in(inputs));
            logits_in_parts(
                model, inputs, targets,
                [&](std::size_t part, const Matrix& logits, const std::vector<Tokens>& part_inputs,
                    const std::vector<Tokens>& part_targets) {
                    // each row's log-sum-exp as the loss computes it (its vectorised exponential)
                    const std::vector<double> log_sums = log_sum_exp_rows(logits);
                    std::size_t row = 0;  // the rows of the targets that are not <pad>
                    for (std::size_t w = 0; w < part_inputs.size(); ++w)
                        for (std::size_t i = 0; i < part_inputs[w].size(); ++i)
                            if (part_targets[w][i] != pad) {
                                const int target = part_targets[w][i], previous = part_inputs[w][i];
                                parts[part].push_back({log_sums[row],
                                                       logits(row, std::size_t(target)),
                                                       logits(row, std::size_t(previous)),
                                                       target == previous});
                                ++row;
                            }
                });
            for (const std::vector<RepeatTarget>& p : parts)
                out.insert(out.end(), p.begin(), p.end());
        });
    return out;
}

void mark_kinds(std::vector<RepeatTarget>& targets, const std::vector<Tokens>& sequences, int pad,
                const KindOf& kind_of) {
    // the windows predict every token after the first of each sequence, in order
    std::size_t k = 0;
    for (const Tokens& s : sequences)
        for (std::size_t j = 1; j < s.size() && k < targets.size(); ++j) {
            if (s[j] == pad) continue;
            targets[k++].kind = kind_of(s, j);
        }
}

std::vector<RepeatTarget> repeat_targets(const Gpt& model, const std::vector<Tokens>& sequences,
                                         std::size_t context, const KindOf& kind_of) {
    std::vector<RepeatTarget> out = repeat_targets(model, sequences, context);
    mark_kinds(out, sequences, model.config.pad_id, kind_of);
    return out;
}

double corrected_loss(const std::vector<RepeatTarget>& targets, const RepeatKinds& beta) {
    double sum = 0;
    for (const RepeatTarget& r : targets) {
        const double b = beta[std::size_t(r.kind)];
        // log(Σ exp z − exp z_p + exp(z_p − β)), relative to the row's log-sum-exp: the previous
        // token's share of the row, q = exp(z_p − lse), becomes q·e^−β
        const double q = std::exp(r.previous - r.log_sum);
        const double log_sum = r.log_sum + std::log1p(q * std::expm1(-b));
        sum += log_sum - (r.target - (r.same ? b : 0.0));
    }
    return targets.empty() ? 0.0 : sum / double(targets.size());
}

namespace {

// The x in [low, high] where f is least (f convex), to 1e-6.
template <typename F>
double golden_section(F f, double low, double high) {
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double a = high - ratio * (high - low), b = low + ratio * (high - low);
    double fa = f(a), fb = f(b);
    while (high - low > 1e-6) {
        if (fa <= fb) {
            high = b, b = a, fb = fa;
            a = high - ratio * (high - low), fa = f(a);
        } else {
            low = a, a = b, fa = fb;
            b = low + ratio * (high - low), fb = f(b);
        }
    }
    return (low + high) / 2;
}

}  // namespace

RepeatKinds fit_repeat_correction(const std::vector<RepeatTarget>& targets) {
    RepeatKinds beta = {0, 0};
    for (int round = 0; round < 50; ++round) {
        const RepeatKinds before = beta;
        for (std::size_t k = 0; k < beta.size(); ++k)
            beta[k] = golden_section(
                [&](double x) {
                    RepeatKinds trial = beta;
                    trial[k] = x;
                    return corrected_loss(targets, trial);
                },
                0.0, 12.0);
        if (std::fabs(beta[0] - before[0]) < 1e-6 && std::fabs(beta[1] - before[1]) < 1e-6) break;
    }
    return beta;
}
