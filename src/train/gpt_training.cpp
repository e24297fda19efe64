// gpt_training.cpp — windows, batches, the held-out loss.
#include "train/gpt_training.h"

#include <algorithm>

namespace {

// AdamW shrinks the matrices, not the biases and gains (as the usual two parameter groups).
std::vector<bool> weight_decayed(Gpt& model) {
    std::vector<bool> decayed;
    for (const Parameter& p : parameters(model)) decayed.push_back(!p.is_vector());
    return decayed;
}

}  // namespace

GptTrainingRun train_gpt(Gpt model, const std::vector<Tokens>& sequences, WindowBatches w,
                         const TrainingSettings& settings, const StepReport& report) {
    GptTrainingRun run{std::move(model), {}};
    Gpt grad;
    const GradientStep step = [&](Random& rng) {
        std::vector<Tokens> inputs, targets;
        StepResult r;
        for (std::size_t b = 0; b < w.batch; ++b) {
            const Tokens& s = sequences[static_cast<std::size_t>(rng.uniform() * sequences.size())];
            const std::size_t length = std::min(s.size(), w.context + 1);
            const std::size_t start = static_cast<std::size_t>(
                rng.uniform() * static_cast<double>(s.size() - length + 1));
            inputs.emplace_back(s.begin() + static_cast<long>(start),
                                s.begin() + static_cast<long>(start + length - 1));
            targets.emplace_back(s.begin() + static_cast<long>(start + 1),
                                 s.begin() + static_cast<long>(start + length));
            r.tokens += length - 1;
        }
        r.loss = gpt_loss(run.model, inputs, targets, &grad, settings.smoothing);
        r.grads = parameter_matrices(grad);
        return r;
    };
    const std::vector<bool> decayed = weight_decayed(run.model);
    run.loop = optimise(parameter_matrices(run.model), settings, step, report, &decayed);
    return run;
}

std::vector<double> steps_on_batch(Gpt& model, const std::vector<Tokens>& inputs,
                                   const std::vector<Tokens>& targets,
                                   const TrainingSettings& settings) {
    Gpt grad;
    const GradientStep step = [&](Random&) {
        StepResult r;
        r.loss = gpt_loss(model, inputs, targets, &grad, settings.smoothing);
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
        sum += gpt_loss(model, inputs, targets) * static_cast<double>(n);
        count += n;
        inputs.clear();
        targets.clear();
    };
    for (const Tokens& s : sequences)
        for (std::size_t first = 0; first + 1 < s.size(); first += context) {
            const std::size_t last = std::min(s.size(), first + context + 1);
            inputs.emplace_back(s.begin() + static_cast<long>(first),
                                s.begin() + static_cast<long>(last - 1));
            targets.emplace_back(s.begin() + static_cast<long>(first + 1),
                                 s.begin() + static_cast<long>(last));
            if (inputs.size() == 32) flush();
        }
    flush();
    return sum / static_cast<double>(count);
}
