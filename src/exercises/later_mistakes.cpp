// later_mistakes.cpp — the usual mistakes of exercises 15-26 (decoding, modern attention, the
// online softmax, Kneser-Ney, fewer bits, a head left out), each written as a student writes it:
// the correct function but for the one thing its hint names.
#include "exercises/mistakes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>

#include "exercises/student_loops.h"
#include "text/translate.h"

using namespace student;

namespace {

// --- 10 RoPE ---
Matrix rope_with(const Matrix& x, const std::vector<std::size_t>& pos, bool halves, double sign) {
    const std::size_t d = x.cols;
    Matrix y = x;
    for (std::size_t r = 0; r < x.rows; ++r)
        for (std::size_t i = 0; i < d / 2; ++i) {
            const std::size_t a = halves ? i : 2 * i, b = halves ? i + d / 2 : 2 * i + 1;
            const double theta = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
            const double angle = sign * static_cast<double>(pos[r]) * theta;
            y(r, a) = x(r, a) * std::cos(angle) - x(r, b) * std::sin(angle);
            y(r, b) = x(r, a) * std::sin(angle) + x(r, b) * std::cos(angle);
        }
    return y;
}
Matrix rope_halves(const Matrix& x, const std::vector<std::size_t>& p) { return rope_with(x, p, true, 1); }
Matrix rope_backwards(const Matrix& x, const std::vector<std::size_t>& p) { return rope_with(x, p, false, -1); }

// --- 11 ALiBi ---
double power_of_two_slope(std::size_t k, std::size_t heads) {  // k from 1
    return std::pow(2.0, -8.0 * static_cast<double>(k) / static_cast<double>(heads));
}
std::vector<double> slopes(std::size_t h, bool from_zero) {
    std::size_t p = 1;
    while (p * 2 <= h) p *= 2;
    const std::size_t shift = from_zero ? 1 : 0;
    std::vector<double> s;
    for (std::size_t k = 1; k <= p; ++k) s.push_back(power_of_two_slope(k - shift, p));
    for (std::size_t k = 1; s.size() < h; k += 2) s.push_back(power_of_two_slope(k - shift, 2 * p));
    return s;
}
Matrix alibi_with(std::size_t n, std::size_t h, std::size_t head, bool from_zero, double sign) {
    const double m = slopes(h, from_zero)[head];
    Matrix b(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            b(i, j) = -sign * m * std::fabs(static_cast<double>(i) - static_cast<double>(j));
    return b;
}
Matrix alibi_from_zero(std::size_t n, std::size_t h, std::size_t head) { return alibi_with(n, h, head, true, 1); }
Matrix alibi_positive(std::size_t n, std::size_t h, std::size_t head) { return alibi_with(n, h, head, false, -1); }

// --- 14 RMSNorm ---
Matrix rms_with(const Matrix& x, const Matrix& g, bool centre, bool eps_outside) {
    Matrix y(x.rows, x.cols);
    const double d = static_cast<double>(x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double mean = 0, ms = 0;
        if (centre)
            for (std::size_t c = 0; c < x.cols; ++c) mean += x(r, c) / d;
        for (std::size_t c = 0; c < x.cols; ++c) ms += (x(r, c) - mean) * (x(r, c) - mean) / d;
        const double rms = eps_outside ? std::sqrt(ms) + 1e-5 : std::sqrt(ms + 1e-5);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) = (x(r, c) - mean) / rms * g(0, c);
    }
    return y;
}
Matrix rms_centred(const Matrix& x, const Matrix& g) { return rms_with(x, g, true, false); }
Matrix rms_eps_outside(const Matrix& x, const Matrix& g) { return rms_with(x, g, false, true); }

// --- 18 KV cache ---
Matrix kv_attend_before_append(Matrix& K, Matrix& V, const Matrix& q, const Matrix& k, const Matrix& v) {
    const Matrix out = attend(q, K, V, 1 / std::sqrt(static_cast<double>(q.cols)), Matrix());
    append(K, k);
    append(V, v);
    return out;
}
Matrix kv_newest_only(Matrix& K, Matrix& V, const Matrix& q, const Matrix& k, const Matrix& v) {
    append(K, k);
    append(V, v);
    return attend(q, k, v, 1 / std::sqrt(static_cast<double>(q.cols)), Matrix());
}

// --- 19 beam search ---
std::vector<exercise::BeamCandidate> beam_with(const std::vector<double>& s, const Matrix& lp,
                                               std::size_t width, int kind) {
    std::vector<exercise::BeamCandidate> all;
    for (std::size_t b = 0; b < s.size(); ++b) {
        std::size_t best = 0;
        for (std::size_t t = 0; t < lp.cols; ++t) {
            if (lp(b, t) > lp(b, best)) best = t;
            if (kind == 1) all.push_back({b, static_cast<int>(t), lp(b, t)});
        }
        if (kind == 2) all.push_back({b, static_cast<int>(best), s[b] + lp(b, best)});
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.score > y.score; });
    all.resize(std::min(width, all.size()));
    return all;
}
std::vector<exercise::BeamCandidate> beam_token_only(const std::vector<double>& s, const Matrix& lp, std::size_t w) {
    return beam_with(s, lp, w, 1);
}
std::vector<exercise::BeamCandidate> beam_one_per_beam(const std::vector<double>& s, const Matrix& lp, std::size_t w) {
    return beam_with(s, lp, w, 2);
}

// --- 20 top-p ---
Matrix nucleus_with(const Matrix& probs, double p, bool strictly_below, bool renormalise) {
    std::vector<std::size_t> ids(probs.cols);
    std::iota(ids.begin(), ids.end(), std::size_t(0));
    std::stable_sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) { return probs(0, a) > probs(0, b); });
    Matrix kept(1, probs.cols);
    double sum = 0;
    for (std::size_t id : ids) {
        if (strictly_below ? sum + probs(0, id) >= p && sum > 0 : sum >= p) break;
        kept(0, id) = probs(0, id);
        sum += probs(0, id);
    }
    if (renormalise)
        for (double& x : kept.data) x /= sum;
    return kept;
}
Matrix nucleus_below_p(const Matrix& probs, double p) { return nucleus_with(probs, p, true, true); }
Matrix nucleus_unnormalised(const Matrix& probs, double p) { return nucleus_with(probs, p, false, false); }

// --- 21 online softmax ---
exercise::RunningSum online_unguarded(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum * std::exp(s.max - m) + std::exp(x - m)};
}
exercise::RunningSum online_not_rescaled(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum + std::exp(x - m)};
}
exercise::RunningSum online_rescaled_up(exercise::RunningSum s, double x) {
    const double m = std::max(s.max, x);
    return {m, s.sum * std::exp(m - s.max) + std::exp(x - m)};
}

// --- 22 grouped-query attention ---
Matrix gqa_with(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V, int kind) {
    std::vector<Matrix> out;
    const std::size_t group = Q.size() / K.size();
    for (std::size_t h = 0; h < Q.size(); ++h) {
        const std::size_t kv = kind == 1 ? h % K.size() : kind == 2 ? 0 : h / group;
        out.push_back(attend(Q[h], K[kv], V[kv], 1 / std::sqrt(static_cast<double>(Q[h].cols)), Matrix()));
    }
    Matrix x(Q[0].rows, 0);
    for (const Matrix& o : out) {
        Matrix wider(x.rows, x.cols + o.cols);
        for (std::size_t r = 0; r < x.rows; ++r) {
            for (std::size_t c = 0; c < x.cols; ++c) wider(r, c) = x(r, c);
            for (std::size_t c = 0; c < o.cols; ++c) wider(r, x.cols + c) = o(r, c);
        }
        x = wider;
    }
    return x;
}
Matrix gqa_interleaved(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V) {
    return gqa_with(Q, K, V, 1);
}
Matrix gqa_first_only(const std::vector<Matrix>& Q, const std::vector<Matrix>& K, const std::vector<Matrix>& V) {
    return gqa_with(Q, K, V, 2);
}

// --- 23 Kneser-Ney ---
std::vector<double> discounts(const std::map<std::pair<int, int>, double>& counts) {
    double n[5] = {0, 0, 0, 0, 0};
    for (const auto& kv : counts)
        if (kv.second <= 4) n[static_cast<int>(kv.second)] += 1;
    const std::vector<double> plain = {0.75, 0.75, 0.75};
    if (n[1] == 0 || n[2] == 0 || n[3] == 0) return plain;
    const double y = n[1] / (n[1] + 2 * n[2]);
    const std::vector<double> d = {1 - 2 * y * n[2] / n[1], 2 - 3 * y * n[3] / n[2], 3 - 4 * y * n[4] / n[3]};
    for (int k = 0; k < 3; ++k)
        if (!(d[k] > 0 && d[k] < k + 1)) return plain;
    return d;
}
// one level: counts keyed (history, w), history −1 for the unigram level's empty one
double level_probability(const std::map<std::pair<int, int>, double>& counts, int h, int w, double lower,
                         bool interpolate) {
    const std::vector<double> d = discounts(counts);
    double total = 0, n[3] = {0, 0, 0}, count = 0;
    for (const auto& [key, c] : counts)
        if (key.first == h) {
            total += c;
            n[c == 1 ? 0 : c == 2 ? 1 : 2] += 1;
            if (key.second == w) count = c;
        }
    if (total == 0) return lower;
    const double dc = count == 0 ? 0 : d[count == 1 ? 0 : count == 2 ? 1 : 2];
    const double gamma = (d[0] * n[0] + d[1] * n[1] + d[2] * n[2]) / total;
    if (!interpolate) return count > 0 ? (count - dc) / total : gamma * lower;
    return std::max(count - dc, 0.0) / total + gamma * lower;
}
double kn_with(const std::vector<std::vector<int>>& training, std::size_t vocab, int v, int w,
               bool continuation, bool interpolate) {
    std::map<std::pair<int, int>, double> bigrams, unigrams;
    for (const auto& s : training)
        for (std::size_t i = 1; i < s.size(); ++i) bigrams[{s[i - 1], s[i]}] += 1;
    for (const auto& [key, c] : bigrams) unigrams[{-1, key.second}] += continuation ? 1 : c;
    const double p1 = level_probability(unigrams, -1, w, 1.0 / static_cast<double>(vocab), true);
    return level_probability(bigrams, v, w, p1, interpolate);
}
double kn_plain_unigram(const std::vector<std::vector<int>>& t, std::size_t vocab, int v, int w) {
    return kn_with(t, vocab, v, w, false, true);
}
double kn_backoff(const std::vector<std::vector<int>>& t, std::size_t vocab, int v, int w) {
    return kn_with(t, vocab, v, w, true, false);
}

// --- 24 Q8_0 ---
float quantize_with(const std::vector<float>& x, std::vector<std::int8_t>& q, int kind) {
    float largest = 0;
    for (float v : x) largest = std::max(largest, std::fabs(v));
    const float scale = largest / (kind == 1 ? 128.0f : 127.0f);
    q.assign(x.size(), 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const float r = scale == 0 ? 0.0f : x[i] / scale;
        q[i] = static_cast<std::int8_t>(kind == 2 ? std::trunc(r) : kind == 3 ? std::nearbyint(r) : std::round(r));
    }
    return scale;
}
float quantize_over_128(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 1); }
float quantize_truncated(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 2); }
float quantize_half_even(const std::vector<float>& x, std::vector<std::int8_t>& q) { return quantize_with(x, q, 3); }

// --- 25 bfloat16 ---
double bfloat16_with(double x, int kind) {
    const float f = static_cast<float>(x);
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (kind == 2) bits += 0x8000u;  // half away from zero: add half a unit, then cut
    bits &= 0xffff0000u;
    float r;
    std::memcpy(&r, &bits, 4);
    return r;
}
double bfloat16_truncated(double x) { return bfloat16_with(x, 1); }
double bfloat16_ties_away(double x) { return bfloat16_with(x, 2); }

// --- 26 a head left out ---
Matrix without_with(const std::vector<Matrix>& heads, const Matrix& W_O, std::size_t head, int kind) {
    const std::size_t d = heads[0].cols, h = heads.size();
    Matrix concat(heads[0].rows, h * d);
    for (std::size_t k = 0; k < h; ++k)
        for (std::size_t r = 0; r < concat.rows; ++r)
            for (std::size_t c = 0; c < d; ++c)
                concat(r, k * d + c) = kind == 1 && k == (head + 1) % h ? 0.0 : heads[k](r, c);
    Matrix out = product(concat, W_O, false);
    if (kind == 2)
        for (std::size_t r = 0; r < out.rows; ++r)
            for (std::size_t c = head * d; c < (head + 1) * d && c < out.cols; ++c) out(r, c) = 0;
    return out;
}
Matrix without_next_head(const std::vector<Matrix>& heads, const Matrix& W, std::size_t head) {
    return without_with(heads, W, head, 1);
}
Matrix without_after_projection(const std::vector<Matrix>& heads, const Matrix& W, std::size_t head) {
    return without_with(heads, W, head, 2);
}

}  // namespace

MistakeTable later_mistakes() {
    return {
        {"rope_rotate",
         {
             {N_("the halves paired"), N_("rotate neighbouring pairs (x_2i, x_2i+1): you paired the first half with the second half (GPT-NeoX's layout, not this project's)"),
              [](Answers& a) { a.rope_rotate = rope_halves; }},
             {N_("the rotation reversed"), N_("rotate by +p·θ_i: your rotation turns the other way"),
              [](Answers& a) { a.rope_rotate = rope_backwards; }},
         }},
        {"alibi_bias",
         {
             {N_("the slopes started at 1"), N_("the slopes start at 2^(−8/h) for the first head (k = 1), not at 1"),
              [](Answers& a) { a.alibi_bias = alibi_from_zero; }},
             {N_("the bias a reward"), N_("the bias is a penalty, −m·|i − j|: yours rewards distance"),
              [](Answers& a) { a.alibi_bias = alibi_positive; }},
         }},
        {"rms_norm",
         {
             {N_("the mean subtracted"), N_("RMSNorm does not subtract the mean: that is LayerNorm"),
              [](Answers& a) { a.rms_norm = rms_centred; }},
             {N_("eps outside the square root"), N_("eps goes inside the square root, √(mean(x²) + eps)"),
              [](Answers& a) { a.rms_norm = rms_eps_outside; }},
         }},
        {"kv_cache_step",
         {
             {N_("the new key appended after attending"), N_("append the new key and value before attending: the new token must see itself"),
              [](Answers& a) { a.kv_cache_step = kv_attend_before_append; }},
             {N_("only the newest key attended to"), N_("the new query attends to every cached key, not only to the newest one"),
              [](Answers& a) { a.kv_cache_step = kv_newest_only; }},
         }},
        {"beam_step",
         {
             {N_("ranked by the token's log-probability alone"), N_("rank by the whole hypothesis's log-probability, the beam's score plus the token's, not the token's alone"),
              [](Answers& a) { a.beam_step = beam_token_only; }},
             {N_("each beam's extensions ranked apart"), N_("rank every extension of every beam together: a good beam may keep two of its extensions and a poor one none"),
              [](Answers& a) { a.beam_step = beam_one_per_beam; }},
         }},
        {"nucleus",
         {
             {N_("the token that reaches p left out"), N_("keep the token that takes the sum to p or past it: the kept set's probabilities add up to at least p"),
              [](Answers& a) { a.nucleus = nucleus_below_p; }},
             {N_("the kept probabilities not renormalised"), N_("renormalise the kept probabilities so that they sum to 1"),
              [](Answers& a) { a.nucleus = nucleus_unnormalised; }},
         }},
        {"online_softmax_update",
         {
             {N_("NaN while every score is −inf"), N_("a hidden score (−inf) adds nothing: while every score so far is −inf, keep (−inf, 0) — exp(−inf − (−inf)) is NaN"),
              [](Answers& a) { a.online_softmax_update = online_unguarded; }},
             {N_("the sum not rescaled"), N_("when the maximum grows, the sum so far must be multiplied by exp(m − m′) to be relative to the new maximum"),
              [](Answers& a) { a.online_softmax_update = online_not_rescaled; }},
             {N_("the correction inverted"), N_("the correction is exp(m − m′), at most 1: yours is its inverse, exp(m′ − m)"),
              [](Answers& a) { a.online_softmax_update = online_rescaled_up; }},
         }},
        {"grouped_query_attention",
         {
             {N_("kv head h % h_kv"), N_("query heads share key/value heads in consecutive groups: head h reads kv head h / (h_q / h_kv), not h % h_kv"),
              [](Answers& a) { a.grouped_query_attention = gqa_interleaved; }},
             {N_("every query head on the first kv head"), N_("each group of query heads has its own key/value head: you gave every query head the first"),
              [](Answers& a) { a.grouped_query_attention = gqa_first_only; }},
         }},
        {"kneser_ney_bigram",
         {
             {N_("raw counts for the lower order"), N_("the lower order counts after how many distinct tokens a token came (continuation counts), not how often it came"),
              [](Answers& a) { a.kneser_ney_bigram = kn_plain_unigram; }},
             {N_("no interpolation where v w was seen"), N_("interpolate always: add γ(v)·P_lower(w) to the discounted count even when v w was seen"),
              [](Answers& a) { a.kneser_ney_bigram = kn_backoff; }},
         }},
        {"quantize_group",
         {
             {N_("the wrong scale"), N_("the scale is max|x| / 127, so that the largest number becomes ±127"),
              [](Answers& a) { a.quantize_group = quantize_over_128; }},
             {N_("truncation in place of rounding"), N_("round to the nearest integer (half away from zero): casting to int truncates"),
              [](Answers& a) { a.quantize_group = quantize_truncated; }},
             {N_("halves rounded to even"), N_("round halves away from zero as llama2.c does (std::round), not to even"),
              [](Answers& a) { a.quantize_group = quantize_half_even; }},
         }},
        {"to_bfloat16",
         {
             {N_("the low 16 bits cut off"), N_("round to nearest: cutting the low 16 bits off the float rounds towards zero"),
              [](Answers& a) { a.to_bfloat16 = bfloat16_truncated; }},
             {N_("ties rounded away from zero"), N_("a tie rounds to the even neighbour: adding half a unit and cutting rounds ties away from zero"),
              [](Answers& a) { a.to_bfloat16 = bfloat16_ties_away; }},
         }},
        {"without_head",
         {
             {N_("the head after the one asked for"), N_("heads count from 0: you zeroed the head after the one asked for"),
              [](Answers& a) { a.without_head = without_next_head; }},
             {N_("the head zeroed after W_O"), N_("zero the head's columns of the concatenation before W_O: after the projection every output column mixes every head"),
              [](Answers& a) { a.without_head = without_after_projection; }},
         }},
    };
}
