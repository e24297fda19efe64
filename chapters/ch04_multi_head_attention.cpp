// ch04_multi_head_attention — h attentions side by side, matched to nn.MultiheadAttention.
//
// Tutorial: 03 §2.1.6 (multi-head attention; fused W_Q, W_K, W_V "multiply then concatenate
// equals concatenate then multiply"); 04's multi-head section (the 2×3 heads → 2×24 → 2×4
// shape example; d_model 512, h 8, d_k = d_v = 64); 02 "多头带来的好处".
#include <string>

#include "chapter.h"
#include "masks.h"
#include "multi_head.h"
#include "print.h"
#include "svg.h"

namespace {

MultiHeadWeights load_weights(const DataFile& data, const std::string& prefix, long n_heads, bool with_bias) {
    MultiHeadWeights w;
    w.n_heads = static_cast<std::size_t>(n_heads);
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
        check_shapes(w);
    } catch (const std::invalid_argument& e) {  // "W_K: expected (8x8) ..." -> name the data key
        const std::string what = e.what();
        const std::size_t colon = what.find(": ");
        throw data.error(prefix + what.substr(0, colon), what.substr(colon + 2));
    }
    return w;
}

void print_heads(std::ostream& out, const MultiHeadResult& r, const Labels& rows, const Labels& cols) {
    for (std::size_t i = 0; i < r.head_weights.size(); ++i)
        print_matrix(out, "head " + std::to_string(i) + " weights", r.head_weights[i], rows, cols);
}

void add_heads(Results& results, const std::string& name, const MultiHeadResult& r, const Labels& rows, const Labels& cols) {
    for (std::size_t i = 0; i < r.head_weights.size(); ++i) {
        const std::string key = "weights_" + name + "_head" + std::to_string(i);
        results.add(key, r.head_weights[i]);
        results.add_figure("ch04_" + key + ".svg", {name + " attention, head " + std::to_string(i), r.head_weights[i], rows, cols});
    }
}

void walkthrough(const DataFile& data, const Options&, std::ostream& out, Results& results) {
    const Labels tokens = data.texts("inputs.tokens"), source_tokens = data.texts("inputs.source_tokens");
    const Matrix x = data.matrix("inputs.x"), source = data.matrix("inputs.source");
    const long h = data.integer("inputs.n_heads", 1, 4096);
    const MultiHeadWeights w = load_weights(data, "inputs.", h, true);
    const std::vector<bool> pad = data.flags("inputs.key_padding"), source_pad = data.flags("inputs.source_key_padding");
    const std::size_t d_model = w.d_model();
    if (w.W_Q.cols != d_model || w.W_V.cols != d_model || d_model % w.n_heads != 0)
        throw data.error("inputs.n_heads", "expected a divisor of d_model = " + std::to_string(d_model) +
                                               " (nn.MultiheadAttention's d_k = d_v = d_model / h)");
    if (x.cols != d_model) throw data.error("inputs.x", "expected " + std::to_string(d_model) + " columns (d_model)");
    if (source.cols != d_model) throw data.error("inputs.source", "expected " + std::to_string(d_model) + " columns (d_model)");
    if (tokens.size() != x.rows) throw data.error("inputs.tokens", "expected one token per row of inputs.x");
    if (source_tokens.size() != source.rows) throw data.error("inputs.source_tokens", "expected one token per row of inputs.source");
    if (pad.size() != x.rows) throw data.error("inputs.key_padding", "expected one flag per row of inputs.x");
    if (source_pad.size() != source.rows) throw data.error("inputs.source_key_padding", "expected one flag per row of inputs.source");
    const std::string d_k = std::to_string(w.d_k());

    print_step(out, "Per-head form: h sets of W_Q^i, W_K^i, W_V^i");
    out << "d_model = " << d_model << ", h = " << w.n_heads << ", so each head works in d_k = d_v = d_model / h = "
        << d_k << " dimensions.\nHead i has its own projections; W_Q^i is block i of W_Q's columns:\n";
    for (std::size_t i = 0; i < w.n_heads; ++i)
        print_matrix(out, "W_Q^" + std::to_string(i) + " = columns " + std::to_string(i * w.d_k()) + ".." +
                              std::to_string((i + 1) * w.d_k() - 1) + " of W_Q",
                     column_block(w.W_Q, i * w.d_k(), w.d_k()), {}, {}, 3);
    const MultiHeadResult per_head = multi_head_attention_per_head(x, x, w);
    print_heads(out, per_head, tokens, tokens);
    print_matrix(out, "Concat(head_0, …, head_" + std::to_string(w.n_heads - 1) + ")", per_head.concat, tokens);
    print_matrix(out, "output = Concat·W_O + b_O", per_head.output, tokens);

    print_step(out, "Fused form: one matmul for all heads, then split");
    out << "The tutorial's code uses one d_model x d_model matrix per projection. Multiplying by the\n"
           "fused matrix and then cutting the product into column blocks gives each head's\n"
           "projection — \"multiply then split\" equals \"split then multiply\":\n";
    const MultiHeadResult fused = multi_head_attention(x, x, w);
    const double diff = max_abs_diff(fused.output, per_head.output);
    out << "max |fused − per-head| over the output = " << sci(diff) << (diff <= 1e-12 ? "  (≤ 1e-12: the same)\n" : "  (DIFFERENT)\n");
    results.add("output_self", fused.output);
    add_heads(results, "self", fused, tokens, tokens);

    print_step(out, "Masks in every head: causal + padding");
    const Matrix mask = add(causal_mask(x.rows), padding_mask(x.rows, pad));
    const MultiHeadResult masked_r = multi_head_attention(x, x, w, mask);
    print_matrix(out, "mask", mask, tokens, tokens);
    print_heads(out, masked_r, tokens, tokens);
    print_matrix(out, "output", masked_r.output, tokens);
    results.add("output_masked", masked_r.output);
    add_heads(results, "masked", masked_r, tokens, tokens);

    print_step(out, "Cross-attention: queries from one sequence, keys and values from another");
    out << "The decoder's queries (" << x.rows << " tokens) attend to the encoder's output (" << source.rows
        << " tokens): the weights are " << x.rows << " x " << source.rows << ", not square.\n";
    const MultiHeadResult cross = multi_head_attention(x, source, w, padding_mask(x.rows, source_pad));
    print_heads(out, cross, tokens, source_tokens);
    print_matrix(out, "output", cross.output, tokens);
    results.add("output_cross", cross.output);
    add_heads(results, "cross", cross, tokens, source_tokens);

    print_step(out, "Without biases, as in the tutorial's code (bias=False)");
    const MultiHeadWeights no_bias = load_weights(data, "inputs.", h, false);
    const MultiHeadResult nb = multi_head_attention(x, x, no_bias);
    print_matrix(out, "output", nb.output, tokens);
    results.add("output_nobias", nb.output);

    print_step(out, "The tutorial's shape example: 2 tokens, 8 heads of width 3");
    const MultiHeadWeights e = load_weights(data, "inputs.shape_example.", data.integer("inputs.shape_example.n_heads", 1, 4096), false);
    const Matrix ex = data.matrix("inputs.shape_example.x");
    if (ex.cols != e.d_model()) throw data.error("inputs.shape_example.x", "expected " + std::to_string(e.d_model()) + " columns");
    const MultiHeadResult er = multi_head_attention(ex, ex, e);
    Table shapes({"step", "shape"});
    shapes.add({"x", shape_of(ex)});
    shapes.add({"each head's W_Q^i, W_K^i", shape_of(Matrix(e.d_model(), e.d_k()))});
    shapes.add({"each head's W_V^i", shape_of(Matrix(e.d_model(), e.d_v()))});
    shapes.add({"each head z_i", shape_of(er.head_outputs[0]) + " × " + std::to_string(e.n_heads)});
    shapes.add({"Concat(z_1 … z_h)", shape_of(er.concat)});
    shapes.add({"W_O", shape_of(e.W_O)});
    shapes.add({"Z = Concat·W_O", shape_of(er.output)});
    shapes.print(out);
    print_matrix(out, "Z", er.output);
    results.add("shape_example_output", er.output);

    print_step(out, "The paper's sizes");
    MultiHeadWeights paper;
    paper.n_heads = 8;
    paper.W_Q = paper.W_K = paper.W_V = paper.W_O = Matrix(512, 512);
    paper.b_Q = paper.b_K = paper.b_V = paper.b_O = Matrix(1, 512);
    out << "d_model = 512, h = 8 → d_k = d_v = " << paper.d_k() << ". One multi-head layer holds four\n"
        << "512 x 512 matrices and four biases of 512: " << parameter_count(paper) << " parameters ("
        << 4 * 512 * 512 << " without biases).\n";
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch04_multi_head_attention",
                           "multi-head attention: per-head and fused forms, masks, cross-attention, shapes",
                           "03 §2.1.6; 04's multi-head section; 02 \"多头带来的好处\"", {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
