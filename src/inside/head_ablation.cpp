// head_ablation.cpp — a head's output replaced, as an edit of W_O and b_O (see the header).
#include "inside/head_ablation.h"

#include <stdexcept>

#include "core/matmul.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_cache.h"

Gpt without_heads(const Gpt& model, const std::vector<HeadOut>& heads) {
    Gpt m = model;
    for (const HeadOut& h : heads) {
        MultiHeadWeights& w = m.blocks.at(h.layer).self_attn;
        const std::size_t d_v = w.d_v(), first = h.head * d_v;  // head i's rows of W_O
        if (h.head >= w.n_heads) throw std::out_of_range("without_heads: no such head");
        if (!h.value.empty()) {  // b_O += v·W_O^i: what the head adds on average
            if (w.b_O.empty()) w.b_O = Matrix(1, w.W_O.cols);
            add_to(w.b_O, matmul(h.value, row_block(w.W_O, first, d_v)));
        }
        for (std::size_t r = first; r < first + d_v; ++r)
            for (std::size_t c = 0; c < w.W_O.cols; ++c) w.W_O(r, c) = 0;
    }
    return m;
}

Matrix HeadOutputSums::mean(std::size_t layer, std::size_t head) const {
    return scale(column_block(sums.at(layer), head * d_v, d_v), 1.0 / static_cast<double>(rows));
}

void add_head_outputs(const Gpt& model, const GptCache& cache, HeadOutputSums& s) {
    if (model.blocks.empty()) return;
    const std::size_t width = model.blocks[0].self_attn.W_O.rows;  // h·d_v
    s.d_v = model.blocks[0].self_attn.d_v();
    s.sums.resize(model.blocks.size(), Matrix(1, width));
    for (std::size_t l = 0; l < model.blocks.size(); ++l)
        add_column_sums(s.sums[l], cache.blocks.at(l).self_attn.concat);
    s.rows += cache.blocks.at(0).self_attn.concat.rows;
}
