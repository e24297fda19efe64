// batch.cpp — forward, loss and backward over a batch, one sequence at a time.
#include "train/batch.h"

#include "model/loss.h"
#include "model/parameters.h"

static std::size_t counted_targets(const std::vector<Example>& batch, int pad_id) {
    std::size_t n = 0;
    for (const Example& e : batch)
        for (int t : e.target) n += t != pad_id;
    return n;
}

// One sequence: forward with caches, loss, backward. gradient_scale is 1/N for a batch of N
// counted target positions, so that the gradients add up to those of the batch mean.
static void add_example_gradients(const Transformer& m, const Example& ex, double smoothing,
                                  double gradient_scale, LossSum& loss, Transformer& grad) {
    const Tokens input = shifted_right(ex.target, m.config.bos_id);
    EncodeCache ec;
    DecodeCache dc;
    const Matrix memory = encode(m, ex.source, &ec);
    const Matrix logits = decode(m, input, memory, ex.source, &dc);
    cross_entropy(logits, ex.target, m.config.pad_id, smoothing, loss);
    const Matrix d_logits =
        cross_entropy_backward(logits, ex.target, m.config.pad_id, smoothing, gradient_scale);
    const Matrix d_memory = decode_backward(m, d_logits, input, dc, grad);
    encode_backward(m, d_memory, ex.source, ec, grad);
}

double batch_gradients(const Transformer& m, const std::vector<Example>& batch, double smoothing,
                       Transformer& grad) {
    grad = zeros_like(m);
    const double scale = 1.0 / static_cast<double>(counted_targets(batch, m.config.pad_id));
    LossSum loss;
    for (const Example& e : batch) add_example_gradients(m, e, smoothing, scale, loss, grad);
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
