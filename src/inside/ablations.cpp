// ablations.cpp — the loss on a sample with each head, and each layer's heads, taken out.
#include "inside/ablations.h"

#include <cmath>

#include "inside/head_ablation.h"
#include "model/gpt/gpt.h"

double change_error(const SampleLosses& changed, const SampleLosses& base) {
    double total = 0;
    std::size_t n = 0;
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p)
        total += changed.poem_sums[p] - base.poem_sums[p], n += base.poem_counts[p];
    if (n == 0) return 0;
    const double change = total / static_cast<double>(n);
    double squares = 0;
    for (std::size_t p = 0; p < base.poem_sums.size(); ++p) {
        const double d = changed.poem_sums[p] - base.poem_sums[p] -
                         change * static_cast<double>(base.poem_counts[p]);
        squares += d * d;
    }
    return std::sqrt(squares) / static_cast<double>(n);
}

namespace {

// The heads of one layer (or one head of it) taken out, zeroed or mean-replaced.
std::vector<HeadOut> taken_out(const PoemSample& s, std::size_t layer, std::size_t first,
                               std::size_t count, bool mean) {
    std::vector<HeadOut> out;
    for (std::size_t i = first; i < first + count; ++i)
        out.push_back({layer, i, mean ? s.head_outputs.mean(layer, i) : Matrix()});
    return out;
}

// The model without those heads, run from their layer on.
Ablated without(const Gpt& model, const PoemSample& s, const std::vector<HeadOut>& heads,
                const SampleLosses& base) {
    const SampleLosses r =
        sample_losses(without_heads(model, heads), s, heads.at(0).layer, model.blocks.size());
    return {r.loss(), change_error(r, base), r.repeat()};
}

}  // namespace

Ablations ablate_heads(const Gpt& model, const PoemSample& s,
                       const std::function<void(std::size_t, std::size_t)>& done) {
    Ablations a;
    const std::size_t L = model.blocks.size();
    const SampleLosses base = sample_losses(model, s, 0, L);
    a.loss = base.loss(), a.repeat = base.repeat();
    std::size_t doubled = 0, positions = 0;
    for (const PoemReading& p : s.poems)
        for (const std::size_t t : body_characters(p))
            doubled += p.targets[t] == p.inputs[t], positions += 1;
    a.repeat_rate = positions ? static_cast<double>(doubled) / static_cast<double>(positions) : 0;
    std::size_t total = 0, finished = 0;
    for (std::size_t l = 0; l < L; ++l) total += 2 * (model.blocks[l].self_attn.n_heads + 1);
    const auto tell = [&] {
        if (done) done(++finished, total);
    };
    for (const bool mean : {false, true}) {
        std::vector<Ablated>& heads = mean ? a.mean : a.zero;
        std::vector<Ablated>& layers = mean ? a.layer_mean : a.layer_zero;
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t h = model.blocks[l].self_attn.n_heads;
            for (std::size_t i = 0; i < h; ++i) {
                heads.push_back(without(model, s, taken_out(s, l, i, 1, mean), base));
                tell();
            }
            layers.push_back(without(model, s, taken_out(s, l, 0, h, mean), base));
            tell();
        }
    }
    return a;
}
