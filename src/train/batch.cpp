// batch.cpp — forward, loss and backward over a batch, its sequences stacked.
#include "train/batch.h"

#include "model/4_transformer/loss.h"
#include "model/4_transformer/parameters.h"

static std::size_t counted_targets(const std::vector<Example>& batch, int pad_id) {
    std::size_t n = 0;
    for (const Example& e : batch)
        for (int t : e.target) n += t != pad_id;
    return n;
}

double batch_gradients(const Transformer& m, const std::vector<Example>& batch, double smoothing,
                       Transformer& grad) {
    grad = zeros_like(m);
    // the whole batch at once, its sequences stacked (model/stacking.h)
    std::vector<Tokens> sources, inputs, targets;
    for (const Example& e : batch) {
        sources.push_back(e.source);
        inputs.push_back(shifted_right(e.target, m.config.bos_id));
        targets.push_back(e.target);
    }
    const Tokens all_targets = concatenated(targets);
    EncodeCache ec;
    DecodeCache dc;
    const Matrix memory = encode(m, sources, &ec);
    const Matrix logits = decode(m, inputs, memory, sources, &dc);
    LossSum loss;
    cross_entropy(logits, all_targets, m.config.pad_id, smoothing, loss);
    // the gradient of the batch mean: each counted position weighs 1/N
    const double scale = 1.0 / static_cast<double>(counted_targets(batch, m.config.pad_id));
    const Matrix d_logits =
        cross_entropy_backward(logits, all_targets, m.config.pad_id, smoothing, scale);
    const Matrix d_memory = decode_backward(m, d_logits, inputs, dc, grad);
    encode_backward(m, d_memory, sources, ec, grad);
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
