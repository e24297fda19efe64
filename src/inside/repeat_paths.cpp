// repeat_paths.cpp — the preference to repeat, path by path (repeat_paths.h).
#include "inside/repeat_paths.h"
#include "model/attention/attention.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_cache.h"
#include "model/transformer/caches.h"
#include "model/transformer/config.h"
#include "model/transformer/tokens.h"


double RepeatPaths::parts() const {
    double sum = direct + norm_bias;
    for (std::size_t l = 0; l < heads.size(); ++l) {
        for (const double h : heads[l]) sum += h;
        sum += attention_bias[l] + feed_forward[l];
    }
    return sum;
}

namespace {

// A vector y in the output's space read out by the output table W (the embedding table when
// tied): its logit for c minus its mean logit, y·W_c − y·w̄ (w̄: the table's mean row).
double read_out(const Gpt& m, const std::vector<double>& y, const std::vector<double>& mean_row,
                int c) {
    double own = 0, average = 0;
    for (std::size_t k = 0; k < y.size(); ++k)
        own += y[k] * output_table(m)(std::size_t(c), k), average += y[k] * mean_row[k];
    return own - average;
}

// One path's part at a row: the path through the final norm's scale and gain (the path's own
// mean taken out first for LayerNorm), read out.
double part_of(const Gpt& m, const std::vector<double>& path, double inv_std,
               const std::vector<double>& mean_row, int c) {
    const std::size_t d = path.size();
    double mean = 0;
    if (m.norm.kind == NormKind::Layer)
        for (const double x : path) mean += x / double(d);
    std::vector<double> y(d);
    for (std::size_t k = 0; k < d; ++k) y[k] = (path[k] - mean) * inv_std * m.norm.gain(0, k);
    return read_out(m, y, mean_row, c);
}

std::vector<double> row_values(const Matrix& x, std::size_t r) {
    return std::vector<double>(x.data.begin() + std::ptrdiff_t(r * x.cols),
                               x.data.begin() + std::ptrdiff_t((r + 1) * x.cols));
}

// Block l's paths into the logit of c at row r (s: the final norm's 1/σ there): each head's
// output through its rows of W_O, W_O's bias, and the feed-forward net's output.
void add_block_paths(const Gpt& m, const EncoderLayerCache& cache, std::size_t l, std::size_t r,
                     double s, const std::vector<double>& mean_row, int c, RepeatPaths& p) {
    const MultiHeadWeights& w = m.blocks[l].self_attn;
    const Matrix& concat = cache.self_attn.concat;
    const std::size_t dv = concat.cols / w.n_heads;
    for (std::size_t h = 0; h < w.n_heads; ++h) {
        std::vector<double> path(w.W_O.cols, 0.0);
        for (std::size_t i = 0; i < dv; ++i)
            for (std::size_t k = 0; k < w.W_O.cols; ++k)
                path[k] += concat(r, h * dv + i) * w.W_O(h * dv + i, k);
        p.heads[l][h] += part_of(m, path, s, mean_row, c);
    }
    if (!w.b_O.data.empty()) p.attention_bias[l] += part_of(m, row_values(w.b_O, 0), s, mean_row, c);
    const FeedForward& f = m.blocks[l].ffn;
    const Matrix& hidden = cache.ffn.hidden;
    std::vector<double> path = row_values(f.b2, 0);
    for (std::size_t i = 0; i < hidden.cols; ++i)
        for (std::size_t k = 0; k < f.W2.cols; ++k) path[k] += hidden(r, i) * f.W2(i, k);
    p.feed_forward[l] += part_of(m, path, s, mean_row, c);
}

}  // namespace

RepeatPaths repeat_paths(const Gpt& m, const PoemSample& sample) {
    RepeatPaths p;
    const std::size_t L = m.blocks.size();
    p.additive = m.config.norm_first;
    p.heads.assign(L, std::vector<double>(m.config.n_heads, 0.0));
    p.attention_bias.assign(L, 0.0);
    p.feed_forward.assign(L, 0.0);
    if (!p.additive) return p;
    const Matrix& E = output_table(m);
    std::vector<double> mean_row(E.cols, 0.0);
    for (std::size_t j = 0; j < E.rows; ++j)
        for (std::size_t k = 0; k < E.cols; ++k) mean_row[k] += E(j, k) / double(E.rows);
    for (std::size_t b = 0; b + 1 < sample.batch_first.size(); ++b) {
        std::vector<Tokens> inputs;
        std::vector<const PoemReading*> poems;
        for (std::size_t i = sample.batch_first[b]; i < sample.batch_first[b + 1]; ++i)
            inputs.push_back(sample.poems[i].inputs), poems.push_back(&sample.poems[i]);
        GptCache cache;
        for (std::size_t l = 0; l < L; ++l)
            gpt_blocks(m, inputs, sample.stream[b][l], l, l + 1, &cache);
        GptCache out;
        const Matrix logits = gpt_readout(m, sample.stream[b][L], &out);
        std::size_t offset = 0;
        for (const PoemReading* poem : poems) {
            for (const std::size_t t : body_characters(*poem)) {
                const std::size_t r = offset + t;
                const int c = poem->inputs[t];
                double mean = 0;
                for (std::size_t j = 0; j < logits.cols; ++j) mean += logits(r, j) / double(logits.cols);
                p.total += logits(r, std::size_t(c)) - mean;
                const double s = out.norm.inv_std[r];
                p.direct += part_of(m, row_values(sample.stream[b][0], r), s, mean_row, c);
                for (std::size_t l = 0; l < L; ++l)
                    add_block_paths(m, cache.blocks[l], l, r, s, mean_row, c, p);
                if (!m.norm.bias.data.empty())  // added after the scale: read out as it is
                    p.norm_bias += read_out(m, row_values(m.norm.bias, 0), mean_row, c);
                ++p.positions;
            }
            offset += poem->inputs.size();
        }
    }
    const double n = p.positions ? double(p.positions) : 1.0;
    p.total /= n, p.direct /= n, p.norm_bias /= n;
    for (std::size_t l = 0; l < L; ++l) {
        for (double& h : p.heads[l]) h /= n;
        p.attention_bias[l] /= n, p.feed_forward[l] /= n;
    }
    return p;
}
