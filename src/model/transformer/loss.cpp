// loss.cpp — label-smoothed cross-entropy and its gradient.
#include "model/transformer/loss.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/elementary.h"
#include "fast/threads.h"

static void check_targets(const Matrix& logits, const Tokens& targets) {
    if (targets.size() != logits.rows)
        throw std::invalid_argument("cross_entropy: " + std::to_string(targets.size()) +
                                    " targets for logits " + shape_of(logits));
}

// q_c: the smoothed target probability of class c for a position whose target is y
static double smoothed_target(std::size_t c, int y, double smoothing, double classes) {
    return (static_cast<int>(c) == y ? 1.0 - smoothing : 0.0) + smoothing / classes;
}

namespace {

// A row's largest value, read as 4 interleaved runs whose maxima are then compared: the same
// value as one run from the left (a maximum does not depend on the order it is taken in), with
// 4 comparisons under way at a time instead of each waiting for the one before.
double row_max(const double* x, std::size_t C) {
    double m[4] = {x[0], x[0], x[0], x[0]};
    std::size_t c = 0;
    for (; c + 4 <= C; c += 4)
        for (std::size_t k = 0; k < 4; ++k) m[k] = std::max(m[k], x[c + k]);
    for (; c < C; ++c) m[0] = std::max(m[0], x[c]);
    return std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
}

// RB rows of logits at a time, side by side. Each row's sums still add c = 0, 1, 2, … in order
// (the same bits as one row alone), but a sum in order waits for each addition to finish
// before the next (3 or 4 cycles): with RB rows' sums in the same loop, their additions
// overlap (tests/bench/README.md has what it saved).
constexpr std::size_t RB = 4;

struct RowBlock {
    std::size_t n = 0;         // real rows, 1 … RB
    const double* x[RB] = {};  // their logits; past n, row 0 again (computed, unused)
    double* exps[RB] = {};     // where their exponentials are kept
    int target[RB] = {};
    double max[RB] = {}, sum[RB] = {}, log_sum[RB] = {}, loss[RB] = {};
};

// Block t of the logits: rows t·RB …, their exponentials kept in `scratch` (RB rows of it, in
// the cache while the block is worked on).
RowBlock block_at(const Matrix& logits, std::size_t t, std::vector<double>& scratch) {
    const std::size_t C = logits.cols;
    scratch.resize(RB * C);
    RowBlock b;
    b.n = std::min(RB, logits.rows - t * RB);
    for (std::size_t k = 0; k < RB; ++k) {
        b.x[k] = logits.row(t * RB + (k < b.n ? k : 0));
        b.exps[k] = scratch.data() + k * C;
    }
    return b;
}

// log Σ_c exp(x_c), computed stably as max + log Σ exp(x − max), for each row of the block; the
// rows' exponentials exp(x_c − max) are kept in exps, their sums in sum.
void log_sum_exp(RowBlock& b, std::size_t C) {
    for (std::size_t k = 0; k < RB; ++k) b.max[k] = row_max(b.x[k], C);
    // a loop of exponentials alone runs in vector registers; two rows' in one loop, because one
    // exponential is a chain of 13 multiply-adds, each waiting for the one before, and two
    // independent chains overlap (on AVX2; AVX-512 gained nothing). Each value is the same.
    static_assert(RB % 2 == 0, "rows in pairs");
    for (std::size_t k = 0; k < RB; k += 2) {
        const double *x0 = b.x[k], *x1 = b.x[k + 1], max0 = b.max[k], max1 = b.max[k + 1];
        double *e0 = b.exps[k], *e1 = b.exps[k + 1];
        for (std::size_t c = 0; c < C; ++c) {
            e0[c] = elementary::exp(x0[c] - max0);
            e1[c] = elementary::exp(x1[c] - max1);
        }
    }
    // then the sums, each in order (in local variables, which the compiler keeps in registers)
    const double* e[RB];
    double sum[RB] = {};
    for (std::size_t k = 0; k < RB; ++k) e[k] = b.exps[k];
    for (std::size_t c = 0; c < C; ++c)
        for (std::size_t k = 0; k < RB; ++k) sum[k] += e[k][c];
    for (std::size_t k = 0; k < RB; ++k) {
        b.sum[k] = sum[k];
        b.log_sum[k] = b.max[k] + elementary::log(sum[k]);
    }
}

// Each row's loss, −Σ_c q_c·log softmax(x)_c, where log softmax = x_c − log Σ exp(x).
void row_losses(RowBlock& b, std::size_t C, double smoothing) {
    log_sum_exp(b, C);
    // without smoothing every q_c but the target's is 0: the same sum, its zero terms skipped
    if (smoothing == 0.0) {
        for (std::size_t k = 0; k < RB; ++k) b.loss[k] = -(b.x[k][b.target[k]] - b.log_sum[k]);
        return;
    }
    const double classes = static_cast<double>(C);
    double loss[RB] = {};
    for (std::size_t c = 0; c < C; ++c)
        for (std::size_t k = 0; k < RB; ++k)
            loss[k] -=
                smoothed_target(c, b.target[k], smoothing, classes) * (b.x[k][c] - b.log_sum[k]);
    for (std::size_t k = 0; k < RB; ++k) b.loss[k] = loss[k];
}

// Each row's loss (0 where the target is padding), shared out among the threads in blocks of RB
// rows when the vocabulary is large (an exponential costs about as much as 20 multiply-adds). With
// `gradient` (the logits themselves, or nullptr), each row's gradient is written over its logits
// once the block's losses are taken: the logits are not needed after, and there is no second matrix
// of rows x vocabulary to fill with zeros and write (11.8 MB for a part of chapter 12's batch).
std::vector<double> losses_of_rows(const Matrix& logits, const Tokens& targets, int pad_id,
                                   double smoothing, Matrix* gradient, double gradient_scale) {
    std::vector<double> losses(logits.rows, 0.0);
    const std::size_t C = logits.cols;
    const double classes = static_cast<double>(C);
    const std::size_t blocks = (logits.rows + RB - 1) / RB;
    parallel_for(blocks, logits.rows * C * 20, [&](std::size_t t) {
        thread_local std::vector<double> scratch;
        RowBlock b = block_at(logits, t, scratch);
        for (std::size_t k = 0; k < RB; ++k) {
            const int target = targets[t * RB + (k < b.n ? k : 0)];
            b.target[k] = target == pad_id ? 0 : target;  // a pad row: computed, not counted
        }
        row_losses(b, C, smoothing);
        for (std::size_t k = 0; k < b.n; ++k) {
            const std::size_t row = t * RB + k;
            double* d = gradient ? gradient->row(row) : nullptr;
            if (targets[row] == pad_id) {  // ignored: no loss, a zero gradient
                if (gradient) std::fill(d, d + C, 0.0);
                continue;
            }
            losses[row] = b.loss[k];
            if (!gradient) continue;
            // softmax: the kept exponentials over their sum (softmax_rows' steps 2 and 3), then
            // d/dlogit_c of −Σ q log softmax = p_c − q_c
            const double* e = b.exps[k];
            for (std::size_t c = 0; c < C; ++c)
                d[c] = (e[c] / b.sum[k] - smoothed_target(c, targets[row], smoothing, classes)) *
                       gradient_scale;
        }
    });
    return losses;
}

// The rows' losses added in order: the same sum on any thread count.
void add_in_order(const std::vector<double>& losses, const Tokens& targets, int pad_id,
                  LossSum& total) {
    for (std::size_t t = 0; t < losses.size(); ++t)
        if (targets[t] != pad_id) total.sum += losses[t], total.count += 1;
}

}  // namespace

std::vector<double> log_sum_exp_rows(const Matrix& logits) {
    std::vector<double> out(logits.rows, 0.0);
    parallel_for((logits.rows + RB - 1) / RB, logits.rows * logits.cols * 20, [&](std::size_t t) {
        thread_local std::vector<double> scratch;
        RowBlock b = block_at(logits, t, scratch);
        log_sum_exp(b, logits.cols);
        for (std::size_t k = 0; k < b.n; ++k) out[t * RB + k] = b.log_sum[k];
    });
    return out;
}

void cross_entropy(const Matrix& logits, const Tokens& targets, int pad_id, double smoothing,
                   LossSum& total) {
    check_targets(logits, targets);
    add_in_order(losses_of_rows(logits, targets, pad_id, smoothing, nullptr, 0.0), targets, pad_id,
                 total);
}

std::vector<double> row_losses(const Matrix& logits, const Tokens& targets, int pad_id,
                               double smoothing) {
    check_targets(logits, targets);
    return losses_of_rows(logits, targets, pad_id, smoothing, nullptr, 0.0);
}

Matrix cross_entropy_with_gradient(Matrix logits, const Tokens& targets, int pad_id,
                                   double smoothing, double gradient_scale, LossSum& total) {
    check_targets(logits, targets);
    add_in_order(losses_of_rows(logits, targets, pad_id, smoothing, &logits, gradient_scale),
                 targets, pad_id, total);
    return logits;  // now the gradient
}

std::size_t counted_targets(const Tokens& targets, int pad_id) {
    std::size_t n = 0;
    for (int t : targets) n += t != pad_id;
    return n;
}

double smoothed_loss_floor(double smoothing, std::size_t classes) {
    const double C = static_cast<double>(classes), q_true = 1.0 - smoothing + smoothing / C,
                 q_other = smoothing / C;
    const double h_true = q_true > 0 ? -q_true * elementary::log(q_true) : 0.0;
    const double h_other = q_other > 0 ? -(C - 1) * q_other * elementary::log(q_other) : 0.0;
    return h_true + h_other;
}

Matrix cross_entropy_backward(const Matrix& logits, const Tokens& targets, int pad_id,
                              double smoothing, double gradient_scale) {
    check_targets(logits, targets);
    const Matrix p = softmax_rows(logits);
    const double C = static_cast<double>(logits.cols);
    Matrix d_logits(logits.rows, logits.cols);
    for (std::size_t t = 0; t < logits.rows; ++t) {
        if (targets[t] == pad_id) continue;            // ignored: no gradient
        for (std::size_t c = 0; c < logits.cols; ++c)  // d/dlogit_c of −Σ q log softmax = p_c − q_c
            d_logits(t, c) =
                (p(t, c) - smoothed_target(c, targets[t], smoothing, C)) * gradient_scale;
    }
    return d_logits;
}
