// ch03_masked_attention — hiding keys: the causal mask, the padding mask, and both.
//
// Tutorial: 03 §2.1.5 (masked self-attention on 【BOS】 I like you 【EOS】, the mask built with
// torch.full(-inf) and torch.triu, added to the scores); 02 "带掩码的注意力机制" (padding, and
// why masking lets training run in parallel).
#include <cmath>
#include <string>

#include "attention.h"
#include "chapter.h"
#include "masks.h"
#include "print.h"
#include "svg.h"

namespace {

// Labels with the padded positions marked, e.g. "you(pad)".
Labels with_padding(const Labels& tokens, const std::vector<bool>& pad) {
    Labels out = tokens;
    for (std::size_t j = 0; j < out.size(); ++j)
        if (pad[j]) out[j] += "(pad)";
    return out;
}

void show_case(std::ostream& out, Results& results, const std::string& name, const std::string& title,
               const Matrix& X, const Matrix& mask, const Labels& rows, const Labels& cols) {
    const AttentionResult a = attention(X, X, X, mask);
    print_matrix(out, "mask (" + title + ")", mask, rows, cols);
    print_matrix(out, "weights softmax(XXᵀ/√d_k + mask)", a.weights, rows, cols);
    print_matrix(out, "output", a.output, rows);
    results.add("weights_" + name, a.weights);
    results.add("output_" + name, a.output);
    results.add_figure("ch03_mask_" + name + ".svg", {"mask: " + title, mask, rows, cols});
    results.add_figure("ch03_weights_" + name + ".svg", {"weights with the " + title + " mask", a.weights, rows, cols});
}

void walkthrough(const DataFile& data, const Options&, std::ostream& out, Results& results) {
    const Labels tokens = data.texts("inputs.tokens");
    const Matrix X = data.matrix("inputs.X");  // (n x d): Q = K = V = X
    const std::vector<bool> pad = data.flags("inputs.key_padding");
    const std::vector<bool> left_pad = data.flags("inputs.left_key_padding");
    const std::size_t n = X.rows;
    const std::string nn = std::to_string(n);
    if (tokens.size() != n) throw data.error("inputs.tokens", "expected one token per row of inputs.X (" + nn + ")");
    if (pad.size() != n) throw data.error("inputs.key_padding", "expected " + nn + " flags, one per token");
    if (left_pad.size() != n) throw data.error("inputs.left_key_padding", "expected " + nn + " flags, one per token");

    print_step(out, "Why mask: predicting the next token without seeing it");
    out << "A language model learns to continue a sequence one token at a time:\n";
    for (std::size_t t = 0; t + 1 < n; ++t) {
        out << "  step " << t + 1 << ": sees";
        for (std::size_t j = 0; j <= t; ++j) out << " " << tokens[j];
        out << "  → predicts " << tokens[t + 1] << "\n";
    }
    out << "Done one after another this is slow. Instead, all steps run at once on the whole\n"
           "sequence, and a mask hides from each position the tokens after it.\n";

    print_step(out, "The causal mask, built as the tutorial builds it");
    out << "Fill an n x n matrix with −inf, keep only the strict upper triangle (torch.triu with\n"
           "diagonal=1), zeros elsewhere. Row i is query i; column j is key j; −inf hides key j.\n";
    const Matrix causal = causal_mask(n);
    print_matrix(out, "causal mask", causal, tokens, tokens);
    results.add("causal_hidden", hidden_positions(causal));

    print_step(out, "Masked scores and weights");
    const AttentionResult plain = attention(X, X, X);
    const AttentionResult masked_a = attention(X, X, X, causal);
    print_matrix(out, "X", X, tokens);
    print_matrix(out, "scores XXᵀ/√d_k (no mask)", plain.scores, tokens, tokens);
    print_matrix(out, "scores + causal mask", masked_a.scores, tokens, tokens);
    print_matrix(out, "weights: softmax of each row (exp(−inf) = 0)", masked_a.weights, tokens, tokens);
    print_matrix(out, "output", masked_a.output, tokens);
    results.add("weights_causal", masked_a.weights);
    results.add("output_causal", masked_a.output);
    results.add_figure("ch03_mask_causal.svg", {"the causal mask", causal, tokens, tokens});
    results.add_figure("ch03_scores_causal.svg", {"scores + causal mask", masked_a.scores, tokens, tokens, true});
    results.add_figure("ch03_weights_causal.svg", {"weights with the causal mask", masked_a.weights, tokens, tokens});

    print_step(out, "The same rows, one prefix at a time");
    out << "Row t of the masked attention equals attention computed over the prefix 0..t alone —\n"
           "so one masked pass does the work of all n sequential steps:\n";
    Matrix prefix_outputs(n, X.cols);
    Table table({"t", "prefix", "max |row t − prefix attention|"});
    for (std::size_t t = 0; t < n; ++t) {
        const Matrix P = row_block(X, 0, t + 1);  // tokens 0..t
        const Matrix o = attention(row_of(X, t), P, P).output;
        double diff = 0.0;
        for (std::size_t c = 0; c < X.cols; ++c) {
            prefix_outputs(t, c) = o(0, c);
            diff = std::max(diff, std::fabs(o(0, c) - masked_a.output(t, c)));
        }
        std::string prefix;
        for (std::size_t j = 0; j <= t; ++j) prefix += (j ? " " : "") + tokens[j];
        table.add({std::to_string(t), prefix, sci(diff)});
    }
    table.print(out);
    results.add("prefix_outputs", prefix_outputs);

    print_step(out, "Padding: keys that are not real tokens");
    out << "Sequences in a batch have different lengths; the short ones are filled up with padding.\n"
           "A padding mask hides those keys from every query (PyTorch's key_padding_mask).\n";
    const Labels padded = with_padding(tokens, pad);
    show_case(out, results, "padding", "padding", X, padding_mask(n, pad), padded, padded);

    print_step(out, "Padding and causal together");
    out << "Add the two masks: −inf wherever either hides a key.\n";
    show_case(out, results, "both", "causal + padding", X, add(causal, padding_mask(n, pad)), padded, padded);

    print_step(out, "A row with every key hidden");
    const Labels left = with_padding(tokens, left_pad);
    out << "Pad on the left instead and combine with the causal mask: query 0 may only see key 0,\n"
           "which is padding, so its row has no visible key at all. softmax of a row of −inf is\n"
           "0/0; we define it as all-zero weights and a zero output (PyTorch returns NaN).\n";
    show_case(out, results, "left_padded_causal", "causal + left padding", X, add(causal, padding_mask(n, left_pad)),
              left, left);
    // tutorial 01's code hides with masked_fill(mask == 0, -1e9) instead of −inf
    Matrix row0 = row_of(plain.scores, 0);
    const Matrix hidden = hidden_positions(add(causal, padding_mask(n, left_pad)));
    for (std::size_t j = 0; j < n; ++j)
        if (hidden(0, j) == 1.0) row0(0, j) = -1e9;
    const Matrix uniform = softmax_rows(row0);
    print_matrix(out, "row 0 hidden with −1e9 instead (tutorial 01's code)", uniform, {left[0]}, left);
    out << "With a large finite number the fully hidden row becomes uniform: the query averages\n"
           "the padding it was meant to ignore.\n";
    results.add_vector("left_padded_row0_with_minus_1e9", uniform);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch03_masked_attention",
                           "masked attention: the causal mask, padding masks, and a fully masked row",
                           "03 §2.1.5 (masked self-attention); 02 \"带掩码的注意力机制\"", {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
