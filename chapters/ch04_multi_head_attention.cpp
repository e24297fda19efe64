// ch04_multi_head_attention — h attentions side by side, matched to nn.MultiheadAttention.
//
// Tutorial: 03 §2.1.6 (multi-head attention; fused W_Q, W_K, W_V "multiply then concatenate
// equals concatenate then multiply"); 04's multi-head section (the 2×3 heads → 2×24 → 2×4
// shape example; d_model 512, h 8, d_k = d_v = 64); 02 "多头带来的好处".
#include <string>

#include "model/masks.h"
#include "model/multi_head.h"
#include "report/chapter.h"
#include "report/heatmap.h"

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

// The weights under prefix, their shapes checked; a problem names the data key.
MultiHeadWeights read_weights(const DataFile& data, const std::string& prefix, bool with_bias) {
    MultiHeadWeights w;
    w.n_heads = data.size(prefix + "n_heads", 1, 4096);
    w.W_Q = data.matrix(prefix + "W_Q");
    w.W_K = data.matrix(prefix + "W_K");
    w.W_V = data.matrix(prefix + "W_V");
    w.W_O = data.matrix(prefix + "W_O");
    if (with_bias) {
        w.b_Q = data.vector(prefix + "b_Q");
        w.b_K = data.vector(prefix + "b_K");
        w.b_V = data.vector(prefix + "b_V");
        w.b_O = data.vector(prefix + "b_O");
    }
    try {
        check_multi_head(w);
    } catch (const std::invalid_argument& e) {  // "W_K: expected (8x8) ..." -> name the data key
        const std::string what = e.what();
        const std::size_t colon = what.find(": ");
        throw data.error(prefix + what.substr(0, colon), what.substr(colon + 2));
    }
    return w;
}

void require_rows(const DataFile& data, const std::string& key, std::size_t got, std::size_t want,
                  const std::string& what) {
    if (got != want) throw data.error(key, "expected " + what);
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
        throw data.error("inputs.n_heads",
                         "expected a divisor of d_model = " + std::to_string(d_model) +
                             " (nn.MultiheadAttention's d_k = d_v = d_model / h)");
    const std::string width = std::to_string(d_model) + " columns (d_model)";
    require_rows(data, "inputs.x", in.x.cols, d_model, width);
    require_rows(data, "inputs.source", in.source.cols, d_model, width);
    require_rows(data, "inputs.tokens", in.tokens.size(), in.x.rows,
                 "one token per row of inputs.x");
    require_rows(data, "inputs.source_tokens", in.source_tokens.size(), in.source.rows,
                 "one token per row of inputs.source");
    require_rows(data, "inputs.key_padding", in.pad.size(), in.x.rows,
                 "one flag per row of inputs.x");
    require_rows(data, "inputs.source_key_padding", in.source_pad.size(), in.source.rows,
                 "one flag per row of inputs.source");
    require_rows(data, "inputs.shape_example.x", in.example_x.cols, in.example.d_model(),
                 std::to_string(in.example.d_model()) + " columns");
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
            ch.show(key, "head " + std::to_string(i) + " weights", c.heads[i].weights, rows, cols);
        else ch.record(key, c.heads[i].weights);
        panels.push_back({"head " + std::to_string(i), c.heads[i].weights, rows, cols,
                          Scale::Weights, mask.empty() ? Matrix() : hidden_positions(mask)});
    }
    ch.picture("ch04_weights_" + name + ".svg",
               heatmaps_svg(name + " attention, every head", panels));
}

// What differs between the heads: where each query looks most, head by head.
void compare_heads(Chapter& ch, const MultiHeadCache& c, const Labels& rows, const Labels& cols) {
    Labels header = {"query"};
    for (std::size_t i = 0; i < c.heads.size(); ++i)
        header.push_back("head " + std::to_string(i) + " looks most at");
    Table t(header);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        Labels line = {rows[r]};
        for (const AttentionResult& h : c.heads) {
            const std::size_t j = argmax(h.weights, r);
            line.push_back(cols[j] + " (" + fixed(h.weights(r, j), 2) + ")");
        }
        t.add(line);
    }
    t.print(ch.out);
    ch.out
        << "The heads differ only by their projections: the same tokens, other W_Q^i and W_K^i, so\n"
           "other scores. That different heads learn different relations (03 §2.1.6, 02 多头带来的好处,\n"
           "05) is what training makes of this freedom; these weights are the data file's, not learnt.\n";
}

// The per-head form, each head with its own block of W_Q, W_K, W_V; returns its output.
Matrix per_head(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& w = in.w;
    const std::size_t d_k = w.d_k();
    ch.step("Per-head form: h sets of W_Q^i, W_K^i, W_V^i (03 §2.1.6)");
    ch.out << "d_model = " << w.d_model() << ", h = " << w.n_heads
           << ", so each head works in d_k = d_v = "
           << "d_model / h = " << d_k
           << " dimensions.\nHead i has its own projections; W_Q^i is block i of W_Q's "
           << "columns:\n";
    for (std::size_t i = 0; i < w.n_heads; ++i)
        print_matrix(ch.out,
                     "W_Q^" + std::to_string(i) + " = columns " + std::to_string(i * d_k) + ".." +
                         std::to_string((i + 1) * d_k - 1) + " of W_Q",
                     column_block(w.W_Q, i * d_k, d_k), {}, {}, 3);
    MultiHeadCache per_head;
    const Matrix per_head_output =
        multi_head_attention_per_head(in.x, in.x, w, Matrix(), &per_head);
    for (std::size_t i = 0; i < w.n_heads; ++i)
        print_matrix(ch.out, "head " + std::to_string(i) + " weights", per_head.heads[i].weights,
                     in.tokens, in.tokens);
    print_matrix(ch.out, "Concat(head_0, …, head_" + std::to_string(w.n_heads - 1) + ")",
                 per_head.concat, in.tokens);
    print_matrix(ch.out, "output = Concat·W_O + b_O", per_head_output, in.tokens);
    return per_head_output;
}

// The fused form, as the tutorial's code computes it, against the per-head form's output.
void fused(Chapter& ch, const Inputs& in, const Matrix& per_head_output) {
    const MultiHeadWeights& w = in.w;
    ch.step("Fused form: one matmul for all heads, then split (03 §2.1.6; 02 第一步)");
    ch.out << "The tutorial's code uses one d_model x d_model matrix per projection. Multiplying\n"
              "by the fused matrix and then cutting the product into column blocks gives each\n"
              "head's projection — \"multiply then split\" equals \"split then multiply\":\n";
    MultiHeadCache fused;
    const Matrix output = multi_head_attention(in.x, in.x, w, Matrix(), &fused);
    const double diff = max_abs_diff(output, per_head_output);
    ch.out << "max |fused − per-head| over the output = " << sci(diff)
           << (diff <= 1e-12 ? "  (≤ 1e-12: the same)\n" : "  (DIFFERENT)\n");
    ch.record("output_self", output);
    show_heads(ch, "self", fused, in.tokens, in.tokens, Matrix(),
               false);  // the per-head form printed them
    ch.step("What differs between the heads (03 §2.1.6; 02 多头带来的好处; 05)");
    compare_heads(ch, fused, in.tokens, in.tokens);
    ch.correction(
        "03 §2.1.6",
        "the MultiHeadAttention code would not run: it asserts args.n_embd % args.n_head, then "
        "reads args.n_heads and args.dim (three names for two sizes), and forward tests "
        "self.is_causal, which __init__ never sets. What it means — one fused matrix per "
        "projection, split into h column blocks — is right: the fused and per-head forms "
        "agree to " +
            sci(diff) + ".");
}

void masked_and_cross(Chapter& ch, const Inputs& in) {
    ch.step("Masks in every head: causal + padding (03 §2.1.5–2.1.6)");
    const Matrix mask = add(causal_mask(in.x.rows), padding_mask(in.x.rows, in.pad));
    print_matrix(ch.out, "mask", mask, in.tokens, in.tokens);
    MultiHeadCache masked_cache;
    const Matrix masked = multi_head_attention(in.x, in.x, in.w, mask, &masked_cache);
    show_heads(ch, "masked", masked_cache, in.tokens, in.tokens, mask);
    ch.show("output_masked", "output", masked, in.tokens);
    ch.step("Cross-attention: queries from one sequence, keys and values from another (04; 02)");
    ch.say("The decoder's queries (" + std::to_string(in.x.rows) +
           " tokens) attend to the encoder's output (" + std::to_string(in.source.rows) +
           " tokens): the weights are " + std::to_string(in.x.rows) + " x " +
           std::to_string(in.source.rows) + ", not square.");
    MultiHeadCache cross_cache;
    const Matrix cross = multi_head_attention(in.x, in.source, in.w,
                                              padding_mask(in.x.rows, in.source_pad), &cross_cache);
    show_heads(ch, "cross", cross_cache, in.tokens, in.source_tokens,
               padding_mask(in.x.rows, in.source_pad));
    ch.show("output_cross", "output", cross, in.tokens);
    ch.correction(
        "03 §2.1.4",
        "\"in the Decoder, Q comes from the Encoder's output, K and V from the Decoder's "
        "input\": reversed. The decoder's queries attend to the encoder's output, which gives "
        "the keys and values (paper §3.2.3; 02 and 04 say it the right way round): here " +
            std::to_string(in.x.rows) + " queries, " + std::to_string(in.source.rows) + " keys.");
    ch.step("Without biases, as in the tutorial's code (bias=False; 03 §2.1.6)");
    ch.show("output_nobias", "output", multi_head_attention(in.x, in.x, in.no_bias), in.tokens);
}

void shapes(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& e = in.example;
    ch.step("The tutorial's shape example: 2 tokens, 8 heads of width 3 (04 多头自注意力机制)");
    MultiHeadCache c;
    const Matrix Z = multi_head_attention(in.example_x, in.example_x, e, Matrix(), &c);
    Table shapes({"step", "shape"});
    shapes.add({"x", shape_of(in.example_x)});
    shapes.add({"each head's W_Q^i, W_K^i", shape_of(Matrix(e.d_model(), e.d_k()))});
    shapes.add({"each head's W_V^i", shape_of(Matrix(e.d_model(), e.d_v()))});
    shapes.add({"each head z_i", shape_of(c.heads[0].output) + " × " + std::to_string(e.n_heads)});
    shapes.add({"Concat(z_1 … z_h)", shape_of(c.concat)});
    shapes.add({"W_O", shape_of(e.W_O)});
    shapes.add({"Z = Concat·W_O", shape_of(Z)});
    shapes.print(ch.out);
    ch.show("shape_example_output", "Z", Z);
    ch.out
        << "04's shapes are consistent: z_i (2x3), Concat (2x24), W^O (24x4), Z (2x4) — 8 heads of width 3\n"
           "with d_model = 4, the general form h·d_v ≠ d_model, which nn.MultiheadAttention cannot\n"
           "express (it fixes d_k = d_v = d_model / h); the oracle writes this one out in torch.\n";
    ch.step("The paper's sizes (04 投影参数矩阵; 02 第一步)");
    MultiHeadWeights paper;
    paper.n_heads = 8;
    paper.W_Q = paper.W_K = paper.W_V = paper.W_O = Matrix(512, 512);
    paper.b_Q = paper.b_K = paper.b_V = paper.b_O = Matrix(1, 512);
    ch.out << "d_model = 512, h = 8 → d_k = d_v = " << paper.d_k()
           << ". One multi-head layer holds four\n"
           << "512 x 512 matrices and four biases of 512: " << parameter_count(paper)
           << " parameters (" << 4 * 512 * 512 << " without biases).\n";
    ch.correction("04 编码器",
                  "\"d_k = 512\": 512 is d_model; with h = 8 heads d_k = d_v = d_model / h = " +
                      std::to_string(paper.d_k()) + " (04's own 投影参数矩阵 section says so).");
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
        "multi-head attention: per-head and fused forms, masks, cross-attention, shapes",
        "03 §2.1.6; 04's multi-head section; 02 \"多头带来的好处\"",
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
