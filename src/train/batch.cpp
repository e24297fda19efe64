// batch.cpp — forward, loss and backward over a batch: its parts on as many threads as there
// are, each part's sequences stacked.
#include "model/transformer/caches.h"
#include "model/transformer/transformer.h"
#include "train/batch.h"

#include <algorithm>
#include <utility>

#include "train/parts.h"
#include "model/transformer/loss.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer_init.h"

namespace {

std::size_t counted_targets(const std::vector<Example>& batch, int pad_id) {
    std::size_t n = 0;
    for (const Example& e : batch)
        for (int t : e.target) n += t != pad_id;
    return n;
}

// One part of the batch, its sequences stacked (model/stacking.h): its share of the loss (the
// sum over its positions) and of the gradient, each counted position weighing `scale`.
LossSum part_gradients(const Transformer& m, const Example* first, std::size_t count,
                       double smoothing, double scale, Transformer& grad) {
    std::vector<Tokens> sources, inputs, targets;
    for (const Example* e = first; e != first + count; ++e) {
        sources.push_back(e->source);
        inputs.push_back(shifted_right(e->target, m.config.bos_id));
        targets.push_back(e->target);
    }
    const Tokens all_targets = concatenated(targets);
    EncodeCache ec;
    DecodeCache dc;
    const Matrix memory = encode(m, sources, &ec);
    LossSum loss;
    const Matrix d_logits =
        cross_entropy_with_gradient(decode(m, inputs, memory, sources, &dc), all_targets,
                                    m.config.pad_id, smoothing, scale, loss);
    const Matrix d_memory = decode_backward(m, d_logits, inputs, dc, grad);
    encode_backward(m, d_memory, sources, ec, grad);
    return loss;
}

}  // namespace

double batch_gradients(const Transformer& m, const std::vector<Example>& batch, double smoothing,
                       Transformer& grad) {
    if (batch.empty()) {
        grad = zeros_like(m);
        return LossSum().mean();
    }
    // the gradient of the batch mean: each counted position weighs 1/N
    const double scale = 1.0 / static_cast<double>(counted_targets(batch, m.config.pad_id));
    // the batch in parts of `per_part` examples, whatever the number of threads (parts.h)
    constexpr std::size_t per_part = 8;
    const std::size_t parts = (batch.size() + per_part - 1) / per_part;
    std::vector<Transformer> part_grad(parts);
    std::vector<LossSum> part_loss(parts);
    std::vector<std::size_t> tokens(parts, 0);
    for (std::size_t i = 0; i < batch.size(); ++i)
        tokens[i / per_part] += batch[i].source.size() + batch[i].target.size();
    // the multiply-adds of a token: about one per weight
    run_parts(tokens, parameter_count(m), [&](std::size_t p) {
        part_grad[p] = zeros_like(m);
        part_loss[p] = part_gradients(m, batch.data() + p * per_part,
                                      std::min(per_part, batch.size() - p * per_part), smoothing,
                                      scale, part_grad[p]);
    });
    std::vector<std::vector<Matrix*>> grads;
    for (Transformer& g : part_grad) grads.push_back(parameter_matrices(g));
    add_in_order(grads);
    grad = std::move(part_grad.front());
    LossSum loss;
    for (const LossSum& l : part_loss) {
        loss.sum += l.sum;
        loss.count += l.count;
    }
    return loss.mean();
}

double batch_loss(const Transformer& m, const std::vector<Example>& batch, double smoothing) {
    LossSum loss;
    for (const Example& e : batch) {
        const Matrix logits =
            logits_teacher_forced(m, e.source, shifted_right(e.target, m.config.bos_id));
        cross_entropy(logits, e.target, m.config.pad_id, smoothing, loss);
    }
    return loss.mean();
}
