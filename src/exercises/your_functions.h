// your_functions.h — the functions the exercises ask you to write, one per exercise, each in
// its own file of chapters/exercises/ (make exercises copies them there once; they are yours).
//
// Every signature here is the one your file defines, in namespace exercise. A body you have
// not written yet calls not_written_yet(__func__): the checker says "not written yet" and
// moves on. The project's own function that answers each one is named in the file's comment
// and in `build/exercises list`.
//
// What you have: the Matrix type (core/matrix_type.h) — m.rows, m.cols, m(r, c) to read and
// write an entry, Matrix(rows, cols) full of zeros, m.data the entries row after row — and the
// C++ library. None of the project's functions: writing them is the exercise (a later exercise
// may call your earlier ones, as exercise::softmax_rows(…) or just softmax_rows(…)).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/matrix_type.h"

namespace exercise {

// Thrown by a body not written yet; the checker reports it and nothing else.
struct NotWrittenYet {
    const char* function;
};
[[noreturn]] void not_written_yet(const char* function);

// A candidate of one beam-search step: which beam it extends, by which token, its new score.
struct BeamCandidate {
    std::size_t beam;
    int token;
    double score;
};

// The two numbers an online softmax carries along a row (chapter 11).
struct RunningSum {
    double max;
    double sum;
};

// --- attention (chapters 1-4) ---
Matrix scores(const Matrix& Q, const Matrix& K);
Matrix softmax_rows(const Matrix& x);
Matrix attention(const Matrix& Q, const Matrix& K, const Matrix& V);
Matrix causal_mask(std::size_t n);
Matrix padding_mask(std::size_t n_queries, const std::vector<bool>& key_is_padding);
Matrix masked_attention(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask);
std::vector<Matrix> split_heads(const Matrix& x, std::size_t n_heads);
Matrix merge_heads(const std::vector<Matrix>& heads);
// --- positions (chapters 5, 10) ---
Matrix sinusoidal_encoding(std::size_t n, std::size_t d_model);
Matrix rope_rotate(const Matrix& x, const std::vector<std::size_t>& positions);
Matrix alibi_bias(std::size_t n, std::size_t n_heads, std::size_t head);
// --- the layers and training (chapters 6, 7, 10) ---
Matrix layer_norm(const Matrix& x, const Matrix& gain, const Matrix& bias);
Matrix layer_norm_backward(const Matrix& x, const Matrix& gain, const Matrix& dy);
Matrix rms_norm(const Matrix& x, const Matrix& gain);
Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y);
double smoothed_cross_entropy(const Matrix& logits, const std::vector<int>& targets,
                              double smoothing);
void adam_step(Matrix& param, const Matrix& grad, Matrix& m, Matrix& v, int step, double lr,
               double beta1, double beta2, double eps);
// --- decoding (chapter 9) ---
Matrix kv_cache_step(Matrix& K_cache, Matrix& V_cache, const Matrix& q, const Matrix& k,
                     const Matrix& v);
std::vector<BeamCandidate> beam_step(const std::vector<double>& beam_scores,
                                     const Matrix& log_probs, std::size_t width);
Matrix nucleus(const Matrix& probs, double top_p);
// --- long sequences, modern attention (chapters 10, 11) ---
RunningSum online_softmax_update(RunningSum s, double score);
Matrix grouped_query_attention(const std::vector<Matrix>& Q, const std::vector<Matrix>& K,
                               const std::vector<Matrix>& V);
// --- the poet, fewer bits, inside the poet (chapters 12-14) ---
double kneser_ney_bigram(const std::vector<std::vector<int>>& training, std::size_t vocab,
                         int previous, int next);
float quantize_group(const std::vector<float>& x, std::vector<std::int8_t>& q);
double to_bfloat16(double x);
Matrix without_head(const std::vector<Matrix>& heads, const Matrix& W_O, std::size_t head);

}  // namespace exercise
