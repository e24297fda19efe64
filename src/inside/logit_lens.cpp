// logit_lens.cpp — the stream read out after each block (see the header).
#include "inside/logit_lens.h"
#include "model/gpt/gpt.h"
#include "model/transformer/tokens.h"

#include <algorithm>
#include <numeric>

std::vector<double> lens_losses(const Gpt& model, const PoemSample& sample) {
    std::vector<double> out;
    for (std::size_t l = 0; l <= model.blocks.size(); ++l)
        out.push_back(sample_losses(model, sample, l, l).loss());
    return out;
}

std::vector<std::vector<TopTokens>> lens_top(const Gpt& model, const Tokens& inputs,
                                             std::size_t k) {
    std::vector<std::vector<TopTokens>> out;
    Matrix x = gpt_embed(model, {inputs});
    for (std::size_t l = 0; l <= model.blocks.size(); ++l) {
        if (l > 0) x = gpt_blocks(model, {inputs}, x, l - 1, l);
        const Matrix p = softmax_rows(gpt_readout(model, x));
        std::vector<TopTokens> at;
        for (std::size_t t = 0; t < p.rows; ++t) {
            std::vector<int> order(p.cols);
            std::iota(order.begin(), order.end(), 0);
            const auto likelier = [&](int a, int b) {
                return p(t, a) != p(t, b) ? p(t, a) > p(t, b) : a < b;
            };
            const std::size_t n = std::min(k, order.size());
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                              likelier);
            TopTokens top;
            for (std::size_t i = 0; i < n; ++i)
                top.ids.push_back(order[i]), top.probabilities.push_back(p(t, order[i]));
            at.push_back(top);
        }
        out.push_back(at);
    }
    return out;
}
