// induction.cpp — repeated random sequences: copying measured (see the header).
#include "inside/induction.h"

#include "core/random.h"
#include "inside/head_ablation.h"
#include "model/gpt/gpt.h"
#include "model/transformer/loss.h"
#include "inside/head_patterns.h"
#include "model/transformer/tokens.h"
#include "verse/poems.h"

std::vector<Tokens> repeated_sequences(const std::vector<int>& characters, std::size_t count,
                                       std::size_t length, std::uint64_t seed) {
    Random rng(seed);
    std::vector<Tokens> out;
    for (std::size_t s = 0; s < count; ++s) {
        Tokens r;
        for (std::size_t t = 0; t < length; ++t)
            r.push_back(characters.at(rng.next() % characters.size()));
        Tokens seq{CharVocabulary::bos};
        seq.insert(seq.end(), r.begin(), r.end());
        seq.insert(seq.end(), r.begin(), r.end());
        out.push_back(seq);
    }
    return out;
}

namespace {

// The mean loss on r[1 …] of the first copy and of the second: positions 1 … length − 1
// predict them in the first, length + 1 … 2·length − 1 in the second.
std::pair<double, double> copy_losses(const Gpt& model, const std::vector<Tokens>& sequences,
                                      std::size_t length) {
    std::vector<Tokens> inputs, targets;
    for (const Tokens& s : sequences) {
        inputs.emplace_back(s.begin(), s.end() - 1);
        targets.emplace_back(s.begin() + 1, s.end());
    }
    const Matrix logits = gpt_logits(model, inputs);
    const std::vector<double> log_sums = log_sum_exp_rows(logits);
    double first = 0, second = 0;
    std::size_t row = 0;
    for (const Tokens& t : targets) {
        for (std::size_t i = 1; i < length; ++i) {
            first += log_sums[row + i] - logits(row + i, static_cast<std::size_t>(t[i]));
            const std::size_t j = length + i;
            second += log_sums[row + j] - logits(row + j, static_cast<std::size_t>(t[j]));
        }
        row += t.size();
    }
    const double n = static_cast<double>(sequences.size() * (length - 1));
    return {first / n, second / n};
}

}  // namespace

Induction induction_test(const Gpt& model, const std::vector<Tokens>& sequences,
                         std::size_t length) {
    Induction out;
    const auto both = copy_losses(model, sequences, length);
    out.first_loss = both.first, out.second_loss = both.second;
    const std::size_t L = model.blocks.size();
    const std::size_t h = L ? model.blocks[0].self_attn.n_heads : 0;
    out.prefix_matching.assign(L * h, 0.0);
    for (const Tokens& s : sequences) {
        const std::vector<Matrix> W = attention_weights(model, Tokens(s.begin(), s.end() - 1));
        for (std::size_t k = 0; k < W.size(); ++k)
            for (std::size_t t = length + 1; t < 2 * length; ++t)
                out.prefix_matching[k] += W[k](t, t - length + 1);
    }
    for (double& x : out.prefix_matching) x /= static_cast<double>(sequences.size() * (length - 1));
    for (std::size_t l = 0; l < L; ++l)
        for (std::size_t i = 0; i < h; ++i) {
            const auto zeroed = copy_losses(without_heads(model, {{l, i, Matrix()}}), sequences, length);
            out.first_loss_zeroed.push_back(zeroed.first);
            out.second_loss_zeroed.push_back(zeroed.second);
        }
    return out;
}
