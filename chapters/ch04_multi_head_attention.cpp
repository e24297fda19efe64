// ch04_multi_head_attention — h attentions side by side, matched to nn.MultiheadAttention.
//
// Tutorial: 03 §2.1.6 (multi-head attention; fused W_Q, W_K, W_V "multiply then concatenate
// equals concatenate then multiply"); 04's multi-head section (the 2×3 heads → 2×24 → 2×4
// shape example; d_model 512, h 8, d_k = d_v = 64); 02 "多头带来的好处".
#include <algorithm>
#include <string>
#include <vector>

#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/multi_head/multi_head.h"
#include "report/chapter.h"
#include "report/heatmap.h"
#include "text/translate.h"

namespace {

struct Inputs {
    Labels tokens, source_tokens;
    Matrix x;                  // (n x d_model): the decoder-side sequence, queries
    Matrix source;             // (m x d_model): the encoder-side sequence, for cross-attention
    MultiHeadWeights w;        // with biases
    MultiHeadWeights no_bias;  // the same matrices without them
    std::vector<bool> pad, source_pad;
    MultiHeadWeights example;  // 04's shape example: 8 heads of width 3
    Matrix example_x;
};

// "(8x8)": the shape a weight should have
std::string shape_text(std::size_t rows, std::size_t cols) { return shape_of(Matrix(rows, cols)); }

// The weights under prefix, their shapes checked against each other (the rules of
// check_multi_head in model/multi_head/multi_head.h, worded for the reader of a data file).
MultiHeadWeights read_weights(const DataFile& data, const std::string& prefix, bool with_bias) {
    MultiHeadWeights w;
    w.n_heads = data.size(prefix + "n_heads", 1, 4096);
    w.W_Q = data.matrix(prefix + "W_Q");
    w.W_K = data.matrix(prefix + "W_K");
    w.W_V = data.matrix(prefix + "W_V");
    w.W_O = data.matrix(prefix + "W_O");
    const std::size_t d = w.W_Q.rows, h = w.n_heads;
    for (const auto& [name, W] :
         {std::pair<const char*, const Matrix*>{"W_Q", &w.W_Q}, {"W_V", &w.W_V}})
        if (W->cols % h != 0)
            throw data.error(prefix + name,
                             tr("{} columns cannot be split into {} heads (n_heads)", W->cols, h));
    if (w.W_K.rows != d || w.W_K.cols != w.W_Q.cols)
        throw data.error(prefix + "W_K", tr("expected {} like W_Q, got {}",
                                            shape_text(d, w.W_Q.cols), shape_of(w.W_K)));
    if (w.W_V.rows != d)
        throw data.error(prefix + "W_V",
                         tr("expected {} rows (d_model, like W_Q), got {}", d, shape_of(w.W_V)));
    if (w.W_O.rows != w.W_V.cols || w.W_O.cols != d)
        throw data.error(prefix + "W_O", tr("expected {} (h·d_v x d_model), got {}",
                                            shape_text(w.W_V.cols, d), shape_of(w.W_O)));
    if (!with_bias) return w;
    const std::pair<const char*, Matrix*> biases[] = {
        {"b_Q", &w.b_Q}, {"b_K", &w.b_K}, {"b_V", &w.b_V}, {"b_O", &w.b_O}};
    const std::size_t widths[] = {w.W_Q.cols, w.W_K.cols, w.W_V.cols, w.W_O.cols};
    for (std::size_t i = 0; i < 4; ++i) {
        *biases[i].second = data.vector(prefix + biases[i].first);
        if (biases[i].second->cols != widths[i])
            throw data.error(prefix + biases[i].first,
                             tr("expected {} values, one per column of its weight", widths[i]));
    }
    return w;
}

void require_rows(const DataFile& data, const std::string& key, std::size_t got, std::size_t want,
                  const std::string& what) {
    if (got != want) throw data.error(key, tr("expected {}", what));
}

Inputs read_inputs(const DataFile& data) {
    Inputs in{data.texts("inputs.tokens"),
              data.texts("inputs.source_tokens"),
              data.matrix("inputs.x"),
              data.matrix("inputs.source"),
              read_weights(data, "inputs.", true),
              read_weights(data, "inputs.", false),
              data.flags("inputs.key_padding"),
              data.flags("inputs.source_key_padding"),
              read_weights(data, "inputs.shape_example.", false),
              data.matrix("inputs.shape_example.x")};
    const std::size_t d_model = in.w.d_model();
    if (in.w.W_Q.cols != d_model || in.w.W_V.cols != d_model)
        throw data.error("inputs.n_heads", tr("expected a divisor of d_model = {} "
                                              "(nn.MultiheadAttention's d_k = d_v = d_model / h)",
                                              d_model));
    const std::string width = tr("{} columns (d_model)", d_model);
    require_rows(data, "inputs.x", in.x.cols, d_model, width);
    require_rows(data, "inputs.source", in.source.cols, d_model, width);
    require_rows(data, "inputs.tokens", in.tokens.size(), in.x.rows,
                 tr("one token per row of inputs.x"));
    require_rows(data, "inputs.source_tokens", in.source_tokens.size(), in.source.rows,
                 tr("one token per row of inputs.source"));
    require_rows(data, "inputs.key_padding", in.pad.size(), in.x.rows,
                 tr("one flag per row of inputs.x"));
    require_rows(data, "inputs.source_key_padding", in.source_pad.size(), in.source.rows,
                 tr("one flag per row of inputs.source"));
    require_rows(data, "inputs.shape_example.x", in.example_x.cols, in.example.d_model(),
                 tr("{} columns", in.example.d_model()));
    return in;
}

// Records each head's weights as weights_<name>_head<i> and prints them (unless they were
// printed already); one picture holds every head, on the one 0–1 scale of weights.
void show_heads(Chapter& ch, const std::string& name, const MultiHeadCache& c, const Labels& rows,
                const Labels& cols, const Matrix& mask, bool print = true) {
    std::vector<Heatmap> panels;
    for (std::size_t i = 0; i < c.heads.size(); ++i) {
        const std::string key = "weights_" + name + "_head" + std::to_string(i);
        if (print)
            ch.show(key, tr("head {} weights", i), c.heads[i].weights, rows, cols);
        else
            ch.record(key, c.heads[i].weights);
        panels.push_back({tr("head {}", i), c.heads[i].weights, rows, cols, Scale::Weights,
                          mask.empty() ? Matrix() : hidden_positions(mask)});
    }
    ch.picture("ch04_weights_" + name + ".svg",
               heatmaps_svg(tr("{} attention, every head", tr(name)), panels));
}

// Where each query looks most, head by head: top[r][i] is the key head i weighs most for
// query r; rows_that_differ counts the queries whose heads do not all agree on one key.
struct HeadLeaders {
    std::vector<std::vector<std::size_t>> top;
    std::size_t rows_that_differ = 0;
};
HeadLeaders head_leaders(const MultiHeadCache& c, std::size_t queries) {
    HeadLeaders l;
    for (std::size_t r = 0; r < queries; ++r) {
        std::vector<std::size_t> top;
        for (const AttentionResult& h : c.heads) top.push_back(argmax(h.weights, r));
        l.rows_that_differ += std::any_of(top.begin(), top.end(),
                                          [&](std::size_t j) { return j != top[0]; });
        l.top.push_back(top);
    }
    return l;
}

// What differs between the heads: where each query looks most, head by head.
void compare_heads(Chapter& ch, const MultiHeadCache& c, const Labels& rows, const Labels& cols) {
    const HeadLeaders l = head_leaders(c, rows.size());
    const std::size_t rows_that_differ = l.rows_that_differ;
    Labels header = {tr("query")};
    for (std::size_t i = 0; i < c.heads.size(); ++i)
        header.push_back(tr("head {} looks most at", i));
    Table t(header);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        Labels line = {rows[r]};
        for (std::size_t i = 0; i < c.heads.size(); ++i) {
            const std::size_t j = l.top[r][i];
            line.push_back(cols[j] + " (" + fixed(c.heads[i].weights(r, j), 2) + ")");
        }
        t.add(line);
    }
    ch.table(t);
    if (c.heads.size() < 2) {
        ch.say(
            tr("With one head there is nothing to compare: give the data file more heads "
               "(n_heads) to see them differ."));
        return;
    }
    ch.say(
        tr("In {} of the {} rows the heads look most at different keys. The heads differ only "
           "by their projections: the same tokens, other W_Q^i and W_K^i, so other scores. That "
           "different heads learn different relations (03 §2.1.6, 02 多头带来的好处, 05) is "
           "what training makes of this freedom; these weights are the data file's, not "
           "learnt.",
           rows_that_differ, rows.size()));
}

// The per-head form, each head with its own block of W_Q, W_K, W_V; returns its output.
Matrix per_head(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& w = in.w;
    MultiHeadCache per_head;
    const Matrix per_head_output =
        multi_head_attention_per_head(in.x, in.x, w, Matrix(), &per_head);
    const std::size_t d_k = w.d_k();
    ch.step(tr("Per-head form: h sets of W_Q^i, W_K^i, W_V^i (03 §2.1.6)"));
    ch.say(tr(
        "d_model = {}, h = {}, so each head works in d_k = d_v = d_model / h = {} dimensions. Head "
        "i has its own projections; W_Q^i is block i of W_Q's columns:",
        w.d_model(), w.n_heads, d_k));
    for (std::size_t i = 0; i < w.n_heads; ++i)
        ch.matrix(tr("W_Q^{} = columns {}..{} of W_Q", i, i * d_k, (i + 1) * d_k - 1),
                  column_block(w.W_Q, i * d_k, d_k), {}, {}, 3);
    for (std::size_t i = 0; i < w.n_heads; ++i)
        ch.matrix(tr("head {} weights", i), per_head.heads[i].weights, in.tokens, in.tokens);
    ch.matrix("Concat(head_0, …, head_" + std::to_string(w.n_heads - 1) + ")", per_head.concat,
              in.tokens);
    ch.matrix(tr("output = Concat·W_O + b_O"), per_head_output, in.tokens);
    return per_head_output;
}

// The fused form, as the tutorial's code computes it, against the per-head form's output.
void fused(Chapter& ch, const Inputs& in, const Matrix& per_head_output) {
    const MultiHeadWeights& w = in.w;
    MultiHeadCache fused;
    const Matrix output = multi_head_attention(in.x, in.x, w, Matrix(), &fused);
    const double diff = max_abs_diff(output, per_head_output);
    ch.step(tr("Fused form: one matmul for all heads, then split (03 §2.1.6; 02 第一步)"));
    ch.say(tr(
        "The tutorial's code uses one d_model x d_model matrix per projection. Multiplying by the "
        "fused matrix and then cutting the product into column blocks gives each head's projection "
        "— \"multiply then split\" equals \"split then multiply\":"));
    ch.line((diff <= 1e-12
                 ? tr("max |fused − per-head| over the output = {}  (≤ 1e-12: the same)", sci(diff))
                 : tr("max |fused − per-head| over the output = {}  (DIFFERENT)", sci(diff))));
    ch.record("output_self", output);
    show_heads(ch, N_("self"), fused, in.tokens, in.tokens, Matrix(),
               false);  // the per-head form printed them
    ch.step(tr("What differs between the heads (03 §2.1.6; 02 多头带来的好处; 05)"));
    compare_heads(ch, fused, in.tokens, in.tokens);
    ch.correction("03 §2.1.6",
                  tr("the MultiHeadAttention code would not run: it asserts args.n_embd % "
                     "args.n_head, then reads args.n_heads and args.dim (three names for two "
                     "sizes), and forward tests self.is_causal, which __init__ never sets. What it "
                     "means — one fused matrix per projection, split into h column blocks — is "
                     "right: the fused and per-head forms agree to {}.",
                     sci(diff)));
}

void masked_and_cross(Chapter& ch, const Inputs& in) {
    const Matrix mask = add(causal_mask(in.x.rows), padding_mask(in.x.rows, in.pad));
    MultiHeadCache masked_cache;
    const Matrix masked = multi_head_attention(in.x, in.x, in.w, mask, &masked_cache);
    const Matrix source_mask = padding_mask(in.x.rows, in.source_pad);
    MultiHeadCache cross_cache;
    const Matrix cross = multi_head_attention(in.x, in.source, in.w, source_mask, &cross_cache);
    const Matrix no_bias = multi_head_attention(in.x, in.x, in.no_bias);
    ch.step(tr("Masks in every head: causal + padding (03 §2.1.5–2.1.6)"));
    ch.matrix(tr("mask"), mask, in.tokens, in.tokens);
    show_heads(ch, N_("masked"), masked_cache, in.tokens, in.tokens, mask);
    ch.show("output_masked", tr("output"), masked, in.tokens);
    ch.step(
        tr("Cross-attention: queries from one sequence, keys and values from another (04; 02)"));
    if (in.x.rows != in.source.rows)
        ch.say(
            tr("The decoder's queries ({1} tokens) attend to the encoder's output ({2} tokens): "
               "the weights are {1} x {2}, not square.",
               in.x.rows, in.source.rows));
    else
        ch.say(
            tr("The decoder's queries ({1} tokens) attend to the encoder's output ({1} tokens "
               "here too): the weights are {1} x {1}, square only because the two lengths "
               "happen to be equal.",
               in.x.rows));
    show_heads(ch, N_("cross"), cross_cache, in.tokens, in.source_tokens, source_mask);
    ch.show("output_cross", tr("output"), cross, in.tokens);
    ch.correction("03 §2.1.4",
                  tr("\"in the Decoder, Q comes from the Encoder's output, K and V from the "
                     "Decoder's input\": reversed. The decoder's queries attend to the encoder's "
                     "output, which gives the keys and values (paper §3.2.3; 02 and 04 say it the "
                     "right way round): here {} queries, {} keys.",
                     in.x.rows, in.source.rows));
    ch.step(tr("Without biases, as in the tutorial's code (bias=False; 03 §2.1.6)"));
    ch.show("output_nobias", tr("output"), no_bias, in.tokens);
}

// The paper's base model's attention layer: d_model = 512, h = 8 (its sizes, not its values).
MultiHeadWeights paper_layer() {
    MultiHeadWeights paper;
    paper.n_heads = 8;
    paper.W_Q = paper.W_K = paper.W_V = paper.W_O = Matrix(512, 512);
    paper.b_Q = paper.b_K = paper.b_V = paper.b_O = Matrix(1, 512);
    return paper;
}

void shapes(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& e = in.example;
    MultiHeadCache c;
    const Matrix Z = multi_head_attention(in.example_x, in.example_x, e, Matrix(), &c);
    const MultiHeadWeights paper = paper_layer();
    ch.step(tr("The shape example: {} tokens, {} heads of width {} (04 多头自注意力机制)",
               in.example_x.rows, e.n_heads, e.d_v()));
    Table shapes({tr("step"), tr("shape")});
    shapes.add({"x", shape_of(in.example_x)});
    shapes.add({tr("each head's W_Q^i, W_K^i"), shape_of(Matrix(e.d_model(), e.d_k()))});
    shapes.add({tr("each head's W_V^i"), shape_of(Matrix(e.d_model(), e.d_v()))});
    shapes.add(
        {tr("each head z_i"), shape_of(c.heads[0].output) + " × " + std::to_string(e.n_heads)});
    shapes.add({"Concat(z_1 … z_h)", shape_of(c.concat)});
    shapes.add({"W_O", shape_of(e.W_O)});
    shapes.add({"Z = Concat·W_O", shape_of(Z)});
    ch.table(shapes);
    ch.show("shape_example_output", "Z", Z);
    const std::size_t h = e.n_heads, dv = e.d_v(), d = e.d_model();
    if (h * dv != d)
        ch.say(
            tr("The shapes chain: z_i {}, Concat {}, W^O {}, Z {} — {} heads of width {} with "
               "d_model = {}, the general form h·d_v ≠ d_model, which nn.MultiheadAttention "
               "cannot express (it fixes d_k = d_v = d_model / h); the oracle writes this one "
               "out in torch.",
               shape_of(c.heads[0].output), shape_of(c.concat), shape_of(e.W_O), shape_of(Z), h, dv,
               d));
    else
        ch.say(
            tr("The shapes chain: z_i {}, Concat {}, W^O {}, Z {} — {} heads of width {} with "
               "d_model = {}: here h·d_v = d_model, as nn.MultiheadAttention requires.",
               shape_of(c.heads[0].output), shape_of(c.concat), shape_of(e.W_O), shape_of(Z), h, dv,
               d));
    if (in.example_x.rows == 2 && h == 8 && dv == 3 && d == 4)
        ch.say(
            tr("These are 04's own shapes — z_i (2x3), Concat (2x24), W^O (24x4), Z (2x4) — and "
               "they are consistent."));
    ch.step(tr("The paper's sizes (04 投影参数矩阵; 02 第一步)"));
    ch.say(tr(
        "d_model = 512, h = 8 → d_k = d_v = {}. One multi-head layer holds four 512 x 512 matrices "
        "and four biases of 512: {} parameters ({} without biases).",
        paper.d_k(), grouped(parameter_count(paper)), grouped(4 * 512 * 512)));
    ch.correction("04 编码器",
                  tr("\"d_k = 512\": 512 is d_model; with h = 8 heads d_k = d_v = d_model / h = {} "
                     "(04's own 投影参数矩阵 section says so).",
                     paper.d_k()));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    fused(ch, in, per_head(ch, in));
    masked_and_cross(ch, in);
    shapes(ch, in);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch04_multi_head_attention",
        N_("multi-head attention: per-head and fused forms, masks, cross-attention, shapes"),
        N_("03 §2.1.6; 04's multi-head section; 02 \"多头带来的好处\""),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
