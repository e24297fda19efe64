// answers.cpp — the project's own functions, called as each exercise asks: the answers.
// Where an exercise's signature is simpler than the project's (one head, no cache, no model),
// a few lines here pass it through; the work is the project's function named beside it, which
// `build/exercises list` names too.
#include "exercises/answers.h"

#include "core/int8_groups.h"
#include "core/matmul.h"
#include "core/number_formats.h"
#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/attention/online_softmax.h"
#include "model/decoding/beam_search.h"
#include "model/decoding/sampling.h"
#include "model/multi_head/heads.h"
#include "model/multi_head/multi_head.h"
#include "model/positions/alibi.h"
#include "model/positions/positional.h"
#include "model/positions/rotary.h"
#include "model/transformer/loss.h"
#include "model/transformer/norms.h"
#include "train/adam.h"
#include "ngram/kneser_ney.h"

namespace {

Matrix scores(const Matrix& Q, const Matrix& K) { return matmul_bt(Q, K); }
Matrix attention_output(const Matrix& Q, const Matrix& K, const Matrix& V) {
    return attention(Q, K, V).output;
}
Matrix masked_output(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    return attention(Q, K, V, mask).output;
}
Matrix causal(std::size_t n) { return causal_mask(n); }
// multi_head_attention_per_head takes each head's columns so: column_block
std::vector<Matrix> split_heads(const Matrix& x, std::size_t n_heads) {
    const std::size_t d_k = x.cols / n_heads;
    std::vector<Matrix> heads;
    for (std::size_t h = 0; h < n_heads; ++h) heads.push_back(column_block(x, h * d_k, d_k));
    return heads;
}
Matrix sinusoidal(std::size_t n, std::size_t d_model) { return sinusoidal_encoding(n, d_model); }
Matrix rope(const Matrix& x, const std::vector<std::size_t>& positions) {
    return rope_rotate(x, x.cols, positions);
}
Matrix alibi(std::size_t n, std::size_t n_heads, std::size_t head) {
    return alibi_bias(n, n, alibi_slopes(n_heads)[head]);
}
Matrix layer_norm_of(const Matrix& x, const Matrix& gain, const Matrix& bias) {
    return layer_norm(x, Norm{gain, bias});
}
Matrix layer_norm_dx(const Matrix& x, const Matrix& gain, const Matrix& dy) {
    const Norm norm{gain, Matrix(1, gain.cols)};
    NormCache cache;
    layer_norm(x, norm, &cache);
    Norm grad{Matrix(1, gain.cols), Matrix(1, gain.cols)};
    return layer_norm_backward(dy, norm, cache, grad);
}
Matrix rms_norm_of(const Matrix& x, const Matrix& gain) {
    return rms_norm(x, Norm{gain, Matrix(), 1e-5, NormKind::RMS});
}
double smoothed_loss(const Matrix& logits, const std::vector<int>& targets, double smoothing) {
    LossSum total;
    cross_entropy(logits, targets, -1, smoothing, total);  // pad id −1: no target is ignored
    return total.mean();
}
void adam(Matrix& param, const Matrix& grad, Matrix& m, Matrix& v, int step, double lr,
          double beta1, double beta2, double eps) {
    adam_update(param.data.data(), grad.data.data(), m.data.data(), v.data.data(),
                param.data.size(), lr, static_cast<std::size_t>(step), beta1, beta2, eps);
}
// decode_step (kv_cache.cpp) does this inside each layer, for every head
Matrix kv_step(Matrix& K_cache, Matrix& V_cache, const Matrix& q, const Matrix& k,
               const Matrix& v) {
    append_rows(K_cache, k);
    append_rows(V_cache, v);
    return attention(q, K_cache, V_cache).output;
}
std::vector<exercise::BeamCandidate> beam(const std::vector<double>& beam_scores,
                                          const Matrix& log_probs, std::size_t width) {
    const std::vector<Extension> all =
        ranked_extensions(beam_scores, log_probs, [](int) { return true; });
    std::vector<exercise::BeamCandidate> best;
    for (std::size_t i = 0; i < width && i < all.size(); ++i)
        best.push_back({all[i].parent, all[i].token, all[i].log_prob});
    return best;
}
exercise::RunningSum online(exercise::RunningSum s, double score) {
    RunningSum r;
    r.max = s.max;
    r.sum = s.sum;
    r.add(score);
    return {r.max, r.sum};
}
Matrix grouped(const std::vector<Matrix>& Q, const std::vector<Matrix>& K,
               const std::vector<Matrix>& V) {
    HeadOptions heads;
    heads.n_heads = Q.size(), heads.n_kv_heads = K.size();
    return attend_heads(concat_columns(Q), concat_columns(K), concat_columns(V), Matrix(), heads);
}
double kneser_ney(const std::vector<std::vector<int>>& training, std::size_t vocab,
                  int previous, int next) {
    const KneserNey model(training, vocab, 2);
    const int history[1] = {previous};
    return model.probability(history + 1, next);
}
float quantize(const std::vector<float>& x, std::vector<std::int8_t>& q) {
    q.assign(x.size(), 0);
    return quantize_group(x.data(), x.size(), q.data());
}
double bfloat16(double x) { return to_format(x, FloatFormat::BFloat16); }
// what chapter 14's ablation does to one head of the poet (head_ablation.cpp), on one layer
Matrix without(const std::vector<Matrix>& heads, const Matrix& W_O, std::size_t head) {
    std::vector<Matrix> kept = heads;
    kept[head] = Matrix(heads[head].rows, heads[head].cols);
    return matmul(concat_columns(kept), W_O);
}

}  // namespace

Answers project_answers() {
    return {scores,         softmax_rows,  attention_output, causal,     padding_mask,
            masked_output,  split_heads,   concat_columns,   sinusoidal, rope,
            alibi,          layer_norm_of, layer_norm_dx,    rms_norm_of, softmax_rows_backward,
            smoothed_loss,  adam,          kv_step,          beam,       nucleus,
            online,         grouped,       kneser_ney,       quantize,   bfloat16,
            without};
}
