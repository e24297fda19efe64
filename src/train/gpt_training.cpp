// gpt_training.cpp — windows, batches, the held-out loss.
#include "train/gpt_training.h"

#include <algorithm>

#include "model/transformer/loss.h"
#include "model/transformer/parameters.h"
#include "train/parts.h"

namespace {

// AdamW shrinks the matrices, not the biases and gains (as the usual two parameter groups).
std::vector<bool> weight_decayed(Gpt& model) {
    std::vector<bool> decayed;
    for (const Parameter& p : parameters(model)) decayed.push_back(!p.is_vector());
    return decayed;
}

// A batch is computed in parts of 8 windows (train/parts.h): part p of `all`, and how many
// tokens each part holds.
constexpr std::size_t per_part = 8;

std::vector<Tokens> part_of(const std::vector<Tokens>& all, std::size_t p) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(p * per_part);
    return std::vector<Tokens>(
        first, first + static_cast<std::ptrdiff_t>(std::min(per_part, all.size() - p * per_part)));
}

std::vector<std::size_t> tokens_in_parts(const std::vector<Tokens>& inputs) {
    std::vector<std::size_t> tokens((inputs.size() + per_part - 1) / per_part, 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) tokens[i / per_part] += inputs[i].size();
    return tokens;
}

// The batch's mean loss and its gradient, computed in parts.
double batch_in_parts(const Gpt& model, const std::vector<Tokens>& inputs,
                      const std::vector<Tokens>& targets, const TrainingSettings& settings,
                      Gpt& grad) {
    const std::vector<std::size_t> tokens = tokens_in_parts(inputs);
    const std::size_t parts = tokens.size();
    const double scale =
        1.0 / static_cast<double>(counted_targets(concatenated(targets), model.config.pad_id));
    std::vector<Gpt> part_grad(parts);
    std::vector<LossSum> part_loss(parts);
    // the multiply-adds of a token: about one per weight, three times (forward and backward)
    run_parts(tokens, 3 * parameter_count(model), [&](std::size_t p) {
        part_loss[p] = gpt_loss_sum(model, part_of(inputs, p), part_of(targets, p), &part_grad[p],
                                    settings.smoothing, scale, settings.unlikelihood);
    });
    std::vector<std::vector<Matrix*>> grads;
    for (Gpt& g : part_grad) grads.push_back(parameter_matrices(g));
    add_in_order(grads);
    grad = std::move(part_grad.front());
    LossSum loss;
    for (const LossSum& l : part_loss) loss.sum += l.sum, loss.count += l.count;
    return loss.mean();
}

}  // namespace

std::size_t parts_in(const std::vector<Tokens>& inputs) {
    return (inputs.size() + per_part - 1) / per_part;
}

void logits_in_parts(const Gpt& model, const std::vector<Tokens>& inputs,
                     const std::vector<Tokens>& targets, const PartLogits& each) {
    run_parts(tokens_in_parts(inputs), parameter_count(model), [&](std::size_t p) {
        const std::vector<Tokens> part_inputs = part_of(inputs, p);
        const std::vector<Tokens> part_targets = part_of(targets, p);
        Matrix x = gpt_blocks(model, part_inputs, gpt_embed(model, part_inputs), 0,
                              model.blocks.size());
        // the read-out (rows x vocabulary, the largest product) only on the rows with a target:
        // a sliding window counts its last row alone. A row of a product is the same sums
        // whatever rows stand beside it: the same logits.
        const Tokens all = concatenated(part_targets);
        std::vector<std::size_t> counted;
        for (std::size_t r = 0; r < all.size(); ++r)
            if (all[r] != model.config.pad_id) counted.push_back(r);
        if (counted.size() < x.rows) {
            Matrix kept(counted.size(), x.cols);
            for (std::size_t k = 0; k < counted.size(); ++k)
                std::copy(x.row(counted[k]), x.row(counted[k]) + x.cols, kept.row(k));
            x = std::move(kept);
        }
        each(p, gpt_readout(model, x), part_inputs, part_targets);
    });
}

namespace {

// The targets that are not padding, in order: the rows logits_in_parts reads out.
Tokens counted_of(const std::vector<Tokens>& targets, int pad) {
    Tokens out;
    for (const Tokens& t : targets)
        for (int id : t)
            if (id != pad) out.push_back(id);
    return out;
}

// The windows' mean loss (no gradient) with the bits of gpt_loss on them all at once: each
// part's rows' losses on the threads, then every row's added in order. A row's logits do not
// depend on the other windows', so the cut changes no number. Shared so, a held-out pass like
// chapter 12's validation ran faster than with each product shared out instead
// (tests/bench/README.md).
double mean_loss_in_parts(const Gpt& model, const std::vector<Tokens>& inputs,
                          const std::vector<Tokens>& targets) {
    std::vector<std::vector<double>> losses(parts_in(inputs));
    logits_in_parts(model, inputs, targets,
                    [&](std::size_t p, const Matrix& logits, const std::vector<Tokens>&,
                        const std::vector<Tokens>& part_targets) {
                        const int pad = model.config.pad_id;
                        losses[p] = row_losses(logits, counted_of(part_targets, pad), pad, 0.0);
                    });
    LossSum total;  // every counted row's loss, in order
    for (const std::vector<double>& part : losses)
        for (double loss : part) total.sum += loss, total.count += 1;
    return total.mean();
}

}  // namespace

GptTrainingRun train_gpt(Gpt model, const std::vector<Tokens>& sequences, WindowBatches w,
                         const TrainingSettings& settings, const GptValidation& validation,
                         const StepReport& report, const CurveReport& curve_report) {
    GptTrainingRun run{std::move(model), {}, false, 0, 0, {}};
    Gpt best;
    double loss_sum = 0;  // the training losses since the last point of the curve
    std::size_t losses = 0;
    const bool validating = validation.every > 0 && validation.sequences;
    const StepReport each_step = [&](const StepStats& s) {
        if (report) report(s);
        loss_sum += s.loss, ++losses;
        if (!validating || (s.step % validation.every != 0 && s.step != s.max_steps)) return;
        const CurvePoint point{s.step, loss_sum / static_cast<double>(losses),
                               gpt_heldout_loss(run.model, *validation.sequences, w.context)};
        loss_sum = 0, losses = 0;
        run.curve.push_back(point);
        if (curve_report) curve_report(point);
        if (run.best_step == 0 || point.validation_loss < run.best_validation_loss) {
            run.best_step = s.step, run.best_validation_loss = point.validation_loss;
            best = run.model;
        }
    };
    Gpt grad;
    const GradientStep step = [&](Random& rng) {
        std::vector<Tokens> inputs, targets;
        StepResult r;
        for (std::size_t b = 0; b < w.batch; ++b) {
            const Tokens& s = sequences[static_cast<std::size_t>(rng.uniform() * sequences.size())];
            const std::size_t length = std::min(s.size(), w.context + 1);
            const std::size_t start = static_cast<std::size_t>(
                rng.uniform() * static_cast<double>(s.size() - length + 1));
            inputs.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(start),
                                s.begin() + static_cast<std::ptrdiff_t>(start + length - 1));
            targets.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(start + 1),
                                 s.begin() + static_cast<std::ptrdiff_t>(start + length));
            r.tokens += length - 1;
        }
        r.loss = batch_in_parts(run.model, inputs, targets, settings, grad);
        r.grads = parameter_matrices(grad);
        return r;
    };
    const std::vector<bool> decayed = weight_decayed(run.model);
    const StopRule patience_ran_out = [&] {
        if (!validating || validation.patience == 0 || run.curve.empty()) return false;
        const std::size_t since_best = run.curve.back().step - run.best_step;
        run.stopped_early = since_best >= validation.patience * validation.every;
        return run.stopped_early;
    };
    run.loop = optimise(parameter_matrices(run.model), settings, step, each_step, &decayed,
                        patience_ran_out);
    run.stopped_early = run.stopped_early && run.loop.losses.size() < run.loop.steps_planned;
    if (run.best_step > 0 && !run.loop.diverged_at) run.model = std::move(best);
    if (!validating) run.best_step = run.loop.losses.size();
    return run;
}

std::vector<double> steps_on_batch(Gpt& model, const std::vector<Tokens>& inputs,
                                   const std::vector<Tokens>& targets,
                                   const TrainingSettings& settings) {
    Gpt grad;
    const GradientStep step = [&](Random&) {
        StepResult r;
        r.loss = gpt_loss(model, inputs, targets, &grad, settings.smoothing, settings.unlikelihood);
        r.grads = parameter_matrices(grad);
        for (const Tokens& t : targets) r.tokens += t.size();
        return r;
    };
    const std::vector<bool> decayed = weight_decayed(model);
    return optimise(parameter_matrices(model), settings, step, {}, &decayed).losses;
}

double gpt_heldout_loss(const Gpt& model, const std::vector<Tokens>& sequences,
                        std::size_t context) {
    // windows [i·C, i·C + C + 1): consecutive windows share one token, so every token after
    // <bos> is predicted exactly once; read 32 windows at a time
    std::vector<Tokens> inputs, targets;
    double sum = 0;
    std::size_t count = 0;
    const auto flush = [&] {
        if (inputs.empty()) return;
        std::size_t n = 0;
        for (const Tokens& t : targets) n += t.size();
        sum += mean_loss_in_parts(model, inputs, targets) * static_cast<double>(n);
        count += n;
        inputs.clear();
        targets.clear();
    };
    for (const Tokens& s : sequences)
        for (std::size_t first = 0; first + 1 < s.size(); first += context) {
            const std::size_t last = std::min(s.size(), first + context + 1);
            inputs.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(first),
                                s.begin() + static_cast<std::ptrdiff_t>(last - 1));
            targets.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(first + 1),
                                 s.begin() + static_cast<std::ptrdiff_t>(last));
            if (inputs.size() == 32) flush();
        }
    flush();
    return sum / static_cast<double>(count);
}

void for_sliding_windows(const std::vector<Tokens>& sequences, std::size_t context, int pad,
                         const WindowsReport& each) {
    // windows of at most context tokens; a target of <pad> is not counted (the loss skips it),
    // so a later window counts only its last target
    std::vector<Tokens> inputs, targets;
    const auto flush = [&] {
        if (inputs.empty()) return;
        each(inputs, targets);
        inputs.clear();
        targets.clear();
    };
    for (const Tokens& s : sequences) {
        const std::size_t first = std::min(s.size(), context + 1);  // tokens in the first window
        if (first >= 2) {
            inputs.emplace_back(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(first - 1));
            targets.emplace_back(s.begin() + 1, s.begin() + static_cast<std::ptrdiff_t>(first));
        }
        for (std::size_t j = first; j < s.size(); ++j) {  // token j from the context before it
            inputs.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(j - context),
                                s.begin() + static_cast<std::ptrdiff_t>(j));
            targets.emplace_back(context, pad);
            targets.back().back() = s[j];
            if (inputs.size() == 32) flush();
        }
        if (inputs.size() >= 32) flush();
    }
    flush();
}

double gpt_sliding_loss(const Gpt& model, const std::vector<Tokens>& sequences,
                        std::size_t context) {
    const int pad = model.config.pad_id;
    double sum = 0;
    std::size_t count = 0;
    for_sliding_windows(sequences, context, pad,
                        [&](const std::vector<Tokens>& inputs, const std::vector<Tokens>& targets) {
                            std::size_t n = 0;
                            for (const Tokens& t : targets)
                                n += static_cast<std::size_t>(std::count_if(
                                    t.begin(), t.end(), [pad](int id) { return id != pad; }));
                            sum +=
                                mean_loss_in_parts(model, inputs, targets) * static_cast<double>(n);
                            count += n;
                        });
    return sum / static_cast<double>(count);
}
