// attention_mistakes.cpp — the usual mistakes of exercises 1-8 (scores, softmax, attention, the
// masks, the heads), each written as a student writes it: the correct function but for the one
// thing its hint names.
#include "exercises/mistakes.h"

#include <algorithm>
#include <cmath>

#include "exercises/student_loops.h"
#include "text/translate.h"

using namespace student;

namespace {

// --- 1 scores ---
Matrix scores_keys_first(const Matrix& Q, const Matrix& K) { return product(K, Q, true); }
Matrix scores_scaled(const Matrix& Q, const Matrix& K) {
    Matrix s = product(Q, K, true);
    for (double& x : s.data) x /= std::sqrt(static_cast<double>(Q.cols));
    return s;
}

// --- 2 softmax ---
Matrix softmax_unstable(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c));
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}
Matrix softmax_columns(const Matrix& x) {
    Matrix t(x.cols, x.rows);
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) t(c, r) = x(r, c);
    const Matrix s = softmax(t);
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = s(c, r);
    return y;
}
Matrix softmax_nan_row(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double m = -inf, sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) m = std::max(m, x(r, c));
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c) - m);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}

// --- 3 attention ---
Matrix attention_unscaled(const Matrix& Q, const Matrix& K, const Matrix& V) {
    return attend(Q, K, V, 1.0, Matrix());
}
Matrix attention_over_d_k(const Matrix& Q, const Matrix& K, const Matrix& V) {
    return attend(Q, K, V, 1.0 / static_cast<double>(K.cols), Matrix());
}

// --- 4 causal mask ---
Matrix causal_hides_diagonal(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) m(i, j) = -inf;
    return m;
}
Matrix causal_minus_1e9(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) m(i, j) = -1e9;
    return m;
}
Matrix causal_hides_past(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < i; ++j) m(i, j) = -inf;
    return m;
}

// --- 5 padding mask ---
Matrix padding_hides_queries(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n && i < pad.size(); ++i)
        if (pad[i])
            for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = -inf;
    return m;
}
Matrix padding_inverted(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = pad[j] ? 0.0 : -inf;
    return m;
}
Matrix padding_minus_1e9(std::size_t n, const std::vector<bool>& pad) {
    Matrix m(n, pad.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < pad.size(); ++j) m(i, j) = pad[j] ? -1e9 : 0.0;
    return m;
}

// --- 6 masked attention ---
Matrix masked_after_softmax(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    Matrix s = product(Q, K, true);
    for (double& x : s.data) x /= std::sqrt(static_cast<double>(K.cols));
    Matrix w = softmax(s);
    for (std::size_t i = 0; i < w.data.size(); ++i)
        if (mask.data[i] == -inf) w.data[i] = 0;
    return product(w, V, false);
}
Matrix masked_minus_1e9(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    Matrix finite = mask;
    for (double& x : finite.data)
        if (x == -inf) x = -1e9;
    return attend(Q, K, V, 1.0 / std::sqrt(static_cast<double>(K.cols)), finite);
}
// the tutorial's scores.masked_fill(mask == 0, -1e9) (article 01): a hidden score replaced by
// −1e9, not −1e9 added to it
Matrix masked_fill_minus_1e9(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    Matrix s = product(Q, K, true);
    for (double& x : s.data) x /= std::sqrt(static_cast<double>(K.cols));
    for (std::size_t i = 0; i < s.data.size(); ++i)
        if (mask.data[i] == -inf) s.data[i] = -1e9;
    return product(softmax(s), V, false);
}
Matrix masked_unscaled(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask) {
    return attend(Q, K, V, 1.0, mask);
}

// --- 7 split heads ---
std::vector<Matrix> split_interleaved(const Matrix& x, std::size_t h) {
    std::vector<Matrix> heads(h, Matrix(x.rows, x.cols / h));
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t c = 0; c < x.cols; ++c) heads[c % h](r, c / h) = x(r, c);
    return heads;
}
std::vector<Matrix> split_rows(const Matrix& x, std::size_t h) {
    const std::size_t n = x.rows / h;
    std::vector<Matrix> heads(h, Matrix(n, x.cols));
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < x.cols; ++c) heads[k](r, c) = x(k * n + r, c);
    return heads;
}

// --- 8 merge heads ---
Matrix merge_reversed(const std::vector<Matrix>& heads) {
    const std::size_t h = heads.size(), d = heads[0].cols;
    Matrix x(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < x.rows; ++r)
            for (std::size_t c = 0; c < d; ++c) x(r, (h - 1 - k) * d + c) = heads[k](r, c);
    return x;
}
Matrix merge_interleaved(const std::vector<Matrix>& heads) {
    const std::size_t h = heads.size(), d = heads[0].cols;
    Matrix x(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < x.rows; ++r)
            for (std::size_t c = 0; c < d; ++c) x(r, c * h + k) = heads[k](r, c);
    return x;
}

}  // namespace

MistakeTable attention_mistakes() {
    return {
        {"scores",
         {
             {N_("K·Qᵀ in place of Q·Kᵀ"), N_("rows are queries and columns keys: you computed K·Qᵀ, the transpose"),
              [](Answers& a) { a.scores = scores_keys_first; }},
             {N_("the scale put into the scores"), N_("the scores are the plain dot products Q·Kᵀ; the 1/√d_k belongs to attention, not here"),
              [](Answers& a) { a.scores = scores_scaled; }},
         }},
        {"softmax_rows",
         {
             {N_("NaN for a row of −inf"), N_("a row whose scores are all −inf has no largest finite score: give it all zeros, not the NaN of (−inf) − (−inf)"),
              [](Answers& a) { a.softmax_rows = softmax_nan_row; }},
             {N_("exp of the raw scores"), N_("exp of a large score overflows to inf (inf/inf is NaN): subtract the row's largest score before exp"),
              [](Answers& a) { a.softmax_rows = softmax_unstable; }},
             {N_("each column normalised"), N_("each row must sum to 1: you normalised each column"),
              [](Answers& a) { a.softmax_rows = softmax_columns; }},
         }},
        {"attention",
         {
             {N_("the scale left out"), N_("the scores are divided by √d_k before the softmax: you left the scale out"),
              [](Answers& a) { a.attention = attention_unscaled; }},
             {N_("divided by d_k"), N_("divide by √d_k, the square root: you divided by d_k itself"),
              [](Answers& a) { a.attention = attention_over_d_k; }},
         }},
        {"causal_mask",
         {
             {N_("the diagonal hidden"), N_("a query sees itself: keep the diagonal, hide only the keys after it (j > i)"),
              [](Answers& a) { a.causal_mask = causal_hides_diagonal; }},
             {N_("the past hidden"), N_("hide the future, not the past: query i may see keys 0 … i"),
              [](Answers& a) { a.causal_mask = causal_hides_past; }},
             {N_("−1e9 for a hidden entry"), N_("−1e9 is not −inf: a hidden entry must be −inf, so that a hidden key gets exactly zero weight whatever the scores (chapters 3 and 10 fail on −1e9)"),
              [](Answers& a) { a.causal_mask = causal_minus_1e9; }},
         }},
        {"padding_mask",
         {
             {N_("the padded rows hidden"), N_("a padded key is hidden from every query: mask its column, not its row"),
              [](Answers& a) { a.padding_mask = padding_hides_queries; }},
             {N_("the flags read the wrong way round"), N_("true in key_is_padding means ignore that key: your mask hides the real keys and keeps the padding"),
              [](Answers& a) { a.padding_mask = padding_inverted; }},
             {N_("−1e9 for a padded key"), N_("hide with −inf, not −1e9: a mask must give exactly zero weight, whatever the scores"),
              [](Answers& a) { a.padding_mask = padding_minus_1e9; }},
         }},
        {"masked_attention",
         {
             {N_("the weights zeroed after the softmax"), N_("add the mask to the scores before the softmax: zeroing weights after it leaves rows that no longer sum to 1"),
              [](Answers& a) { a.masked_attention = masked_after_softmax; }},
             {N_("masked_fill with −1e9"), N_("masked_fill(…, −1e9), the tutorial's form, is not −inf: a row with every key masked gets equal weights on all of them, the mean of V, instead of zeros"),
              [](Answers& a) { a.masked_attention = masked_fill_minus_1e9; }},
             {N_("−1e9 added to the scores"), N_("−1e9 added to the scores is not −inf: a row with every key masked keeps the differences of its scores, so it gets the weights it would have with no mask at all, instead of zeros"),
              [](Answers& a) { a.masked_attention = masked_minus_1e9; }},
             {N_("the scale left out"), N_("the scores are divided by √d_k before the mask is added: you left the scale out"),
              [](Answers& a) { a.masked_attention = masked_unscaled; }},
         }},
        {"split_heads",
         {
             {N_("every h-th column to a head"), N_("head h takes the columns h·d_k … (h+1)·d_k − 1 side by side, not every h-th column"),
              [](Answers& a) { a.split_heads = split_interleaved; }},
             {N_("the rows split among the heads"), N_("every head sees every position: split the columns (the features), not the rows"),
              [](Answers& a) { a.split_heads = split_rows; }},
         }},
        {"merge_heads",
         {
             {N_("the heads in reverse order"), N_("head 0's columns come first: you put the heads in reverse order"),
              [](Answers& a) { a.merge_heads = merge_reversed; }},
             {N_("the heads' columns interleaved"), N_("put each head's columns side by side as one block, not interleaved column by column"),
              [](Answers& a) { a.merge_heads = merge_interleaved; }},
         }},
    };
}
