// ch03_masked_attention — hiding keys: the causal mask, the padding mask, and both.
//
// Tutorial: 03 §2.1.5 (masked self-attention on 【BOS】 I like you 【EOS】, the mask built with
// torch.full(-inf) and torch.triu, added to the scores); 02 "带掩码的注意力机制" (padding, and
// why masking lets training run in parallel).
#include <cmath>
#include <string>
#include <vector>

#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "report/chapter.h"
#include "report/heatmap.h"
#include "text/translate.h"

namespace {

struct Inputs {
    Labels tokens;
    Matrix X;                    // (n x d_model): Q = K = V = X
    std::vector<bool> pad;       // key_padding: true = that key is padding
    std::vector<bool> left_pad;  // padding on the left instead
};

Inputs read_inputs(const DataFile& data) {
    Inputs in{data.texts("inputs.tokens"), data.matrix("inputs.X"),
              data.flags("inputs.key_padding"), data.flags("inputs.left_key_padding")};
    const std::string n = std::to_string(in.X.rows);
    if (in.tokens.size() != in.X.rows)
        throw data.error("inputs.tokens", tr("expected one token per row of inputs.X ({})", n));
    if (in.pad.size() != in.X.rows)
        throw data.error("inputs.key_padding", tr("expected {} flags, one per token", n));
    if (in.left_pad.size() != in.X.rows)
        throw data.error("inputs.left_key_padding", tr("expected {} flags, one per token", n));
    return in;
}

// Labels with the padded positions marked, e.g. "you(pad)".
Labels with_padding(const Labels& tokens, const std::vector<bool>& pad) {
    Labels out = tokens;
    for (std::size_t j = 0; j < out.size(); ++j)
        if (pad[j]) out[j] += tr("(pad)");
    return out;
}

void why_mask(Chapter& ch, const Inputs& in) {
    ch.step(tr("Why mask: predicting the next token without seeing it (03 §2.1.5)"));
    ch.say(tr("A language model learns to continue a sequence one token at a time:"));
    if (in.tokens.size() < 2) ch.line("  " + tr("(one token: nothing follows it to predict)"));
    for (std::size_t t = 0; t + 1 < in.tokens.size(); ++t) {
        std::string seen;
        for (std::size_t j = 0; j <= t; ++j) seen += " " + in.tokens[j];
        ch.line("  " + tr("step {}: sees{}  → predicts {}", t + 1, seen, in.tokens[t + 1]));
    }
    ch.say(
        tr("Done one after another this is slow. Instead, all steps run at once on the whole "
           "sequence, and a mask hides from each position the tokens after it."));
}

void causal(Chapter& ch, const Inputs& in) {
    const Matrix mask = causal_mask(in.X.rows);
    const AttentionResult a = attention(in.X, in.X, in.X, mask);
    const Matrix unmasked_scores = attention(in.X, in.X, in.X).scores;
    const Labels& tokens = in.tokens;
    ch.step(tr("The causal mask, built as the tutorial builds it (03 §2.1.5)"));
    ch.say(
        tr("Fill an n x n matrix with −inf, keep only the strict upper triangle (torch.triu with "
           "diagonal=1), zeros elsewhere. Row i is query i; column j is key j; −inf hides key j."));
    ch.matrix(tr("causal mask"), mask, tokens, tokens);
    ch.record("causal_hidden", hidden_positions(mask));
    ch.step(tr("Masked scores and weights (03 §2.1.5; 02 带掩码的注意力机制)"));
    ch.matrix("X", in.X, tokens);
    ch.matrix(tr("scores XXᵀ/√d_k (no mask)"), unmasked_scores, tokens, tokens);
    ch.matrix(tr("scores + causal mask"), a.scores, tokens, tokens);
    ch.show("weights_causal", tr("weights: softmax of each row (exp(−inf) = 0)"), a.weights, tokens,
            tokens);
    ch.show("output_causal", tr("output"), a.output, tokens);
    ch.picture("ch03_mask_causal.svg",
               heatmap_svg({tr("the causal mask"), mask, tokens, tokens, Scale::Mask}));
    ch.picture("ch03_scores_causal.svg",
               heatmap_svg({tr("scores + causal mask"), a.scores, tokens, tokens, Scale::Signed}));
    ch.picture("ch03_weights_causal.svg",
               heatmap_svg({tr("weights with the causal mask"), a.weights, tokens, tokens,
                            Scale::Weights, hidden_positions(mask)}));
    ch.say(tr(
        "Row 0, {}, sees itself: weight {}. No row is empty — every position sees at least itself.",
        tokens[0], fixed(a.weights(0, 0), 4)));
    ch.correction(
        "03 §2.1.5",
        tr("in the copy of the article in ../shared/tutorial/, the 【MASK】 table's first row is "
           "four 【MASK】 and nothing else, as if the first position saw nothing. The article as "
           "published starts every row with <BOS> (and ends the last with </EOS>); the copy "
           "probably lost them as HTML tags when it was converted, so this is no mistake of the "
           "author's. With <BOS> restored, row 1 is <BOS> and four 【MASK】: exactly the causal "
           "mask of the tutorial's own code (triu(…, diagonal=1)), under which position 0 sees "
           "itself, weight {} (step \"Masked scores and weights\").",
           fixed(a.weights(0, 0), 0)));
    ch.correction(
        "02 带掩码的注意力机制",
        tr("\"an upper-triangular matrix, lower triangle all 1, upper triangle 0, diagonal 1\": "
           "that "
           "matrix (1 = may attend) is lower triangular. The additive mask of 03 §2.1.5 is the "
           "upper-triangular one: −∞ above the diagonal, 0 on and below it (printed above)."));
}

// Row t: attention of token t over the prefix 0..t alone (outputs), and how far it lies from row
// t of the one masked pass (gaps).
struct PrefixRows {
    Matrix outputs;
    std::vector<double> gaps;
};
PrefixRows prefix_rows_of(const Matrix& X) {
    const Matrix masked_output = attention(X, X, X, causal_mask(X.rows)).output;
    PrefixRows r{Matrix(X.rows, X.cols), {}};
    for (std::size_t t = 0; t < X.rows; ++t) {
        const Matrix P = row_block(X, 0, t + 1);  // tokens 0..t
        const Matrix o = attention(row_of(X, t), P, P).output;
        for (std::size_t c = 0; c < X.cols; ++c) r.outputs(t, c) = o(0, c);
        r.gaps.push_back(max_abs_diff(o, row_of(masked_output, t)));
    }
    return r;
}

void prefix_rows(Chapter& ch, const Inputs& in) {
    const PrefixRows r = prefix_rows_of(in.X);
    ch.step(tr("The same rows, one prefix at a time (02 带掩码的注意力机制)"));
    ch.say(tr(
        "Row t of the masked attention equals attention computed over the prefix 0..t alone — so "
        "one masked pass does the work of all n sequential steps:"));
    Table table({"t", tr("prefix"), tr("max |row t − prefix attention|")});
    for (std::size_t t = 0; t < in.X.rows; ++t) {
        std::string prefix;
        for (std::size_t j = 0; j <= t; ++j) prefix += (j ? " " : "") + in.tokens[j];
        table.add({std::to_string(t), prefix, sci(r.gaps[t])});
    }
    ch.table(table);
    ch.record("prefix_outputs", r.outputs);
    ch.say(tr(
        "02 is right that masking lets training run in parallel — and it is exact: the rows agree "
        "to the last bit, as the differences above show."));
}

void show_case(Chapter& ch, const std::string& name, const std::string& title,
               const AttentionResult& a, const Matrix& mask, const Labels& labels) {
    ch.matrix(tr("mask ({})", title), mask, labels, labels);
    ch.show("weights_" + name, tr("weights softmax(XXᵀ/√d_k + mask)"), a.weights, labels, labels);
    ch.show("output_" + name, tr("output"), a.output, labels);
    ch.picture("ch03_mask_" + name + ".svg",
               heatmap_svg({tr("mask: {}", title), mask, labels, labels, Scale::Mask}));
    ch.picture("ch03_weights_" + name + ".svg",
               heatmap_svg({tr("weights with the {} mask", title), a.weights, labels, labels,
                            Scale::Weights, hidden_positions(mask)}));
}

void padding(Chapter& ch, const Inputs& in) {
    const std::size_t n = in.X.rows;
    const Matrix both_mask = add(causal_mask(n), padding_mask(n, in.pad));
    const AttentionResult padded_only = attention(in.X, in.X, in.X, padding_mask(n, in.pad)),
                          both = attention(in.X, in.X, in.X, both_mask);
    const Labels padded = with_padding(in.tokens, in.pad);
    ch.step(tr("Padding: keys that are not real tokens (02 带掩码的注意力机制)"));
    ch.say(tr(
        "Sequences in a batch have different lengths; the short ones are filled up with padding. A "
        "padding mask hides those keys from every query (PyTorch's key_padding_mask)."));
    show_case(ch, "padding", tr("padding"), padded_only, padding_mask(n, in.pad), padded);
    ch.step(tr("Padding and causal together"));
    ch.say(tr("Add the two masks: −inf wherever either hides a key."));
    show_case(ch, "both", tr("causal + padding"), both, both_mask, padded);
}

// Row 0's weights when the hidden keys get −1e9 (tutorial 01's masked_fill) instead of −∞.
Matrix row0_with_minus_1e9(const Matrix& X, const Matrix& hidden) {
    Matrix row0 = row_of(attention(X, X, X).scores, 0);
    for (std::size_t j = 0; j < X.rows; ++j)
        if (hidden(0, j) == 1.0) row0(0, j) = -1e9;
    return softmax_rows(row0);
}

void fully_masked_row(Chapter& ch, const Inputs& in) {
    const std::size_t n = in.X.rows;
    const Labels left = with_padding(in.tokens, in.left_pad);
    const Matrix mask = add(causal_mask(n), padding_mask(n, in.left_pad));
    const Matrix hidden = hidden_positions(mask);
    std::size_t empty_rows = 0, first_empty = n;  // rows in which every key is hidden
    for (std::size_t i = 0; i < n; ++i) {
        double seen = 0;
        for (std::size_t j = 0; j < n; ++j) seen += 1.0 - hidden(i, j);
        if (seen == 0) empty_rows += 1, first_empty = std::min(first_empty, i);
    }
    const AttentionResult a = attention(in.X, in.X, in.X, mask);
    const Matrix finite = row0_with_minus_1e9(in.X, hidden);
    ch.step(tr("A row with every key hidden (01 代码)"));
    ch.say(
        tr("Pad on the left instead (inputs.left_key_padding) and combine with the causal mask: "
           "a query whose visible keys are all padding has no key left to see. softmax of a "
           "row of −inf is 0/0; we define it as all-zero weights and a zero output (PyTorch "
           "returns NaN)."));
    show_case(ch, "left_padded_causal", tr("causal + left padding"), a, mask, left);
    // tutorial 01's code hides with masked_fill(mask == 0, -1e9) instead of −inf
    ch.record("left_padded_row0_with_minus_1e9", finite, Shape::Vector);
    ch.matrix(tr("row 0 hidden with −1e9 instead (tutorial 01's code)"), finite, {left[0]}, left);
    if (empty_rows == 0) {
        ch.say(
            tr("Here no row has every key hidden (the first token is not padding), so −1e9 and "
               "−inf agree. Mark inputs.left_key_padding's first entry true to see the "
               "difference."));
    } else if (empty_rows == 1) {
        ch.say(
            tr("Row {} ({}) sees no key at all: every key it may look at is padding. With a large "
               "finite number such a row becomes uniform: the query averages the padding it was "
               "meant to ignore.",
               first_empty, left[first_empty]));
    } else {
        ch.say(
            tr("{} of the {} rows see no key at all, row {} ({}) first: every key they may look "
               "at is padding. With a large finite number such a row becomes uniform: the query "
               "averages the padding it was meant to ignore.",
               empty_rows, n, first_empty, left[first_empty]));
    }
    ch.correction(
        "01 代码",
        tr("masked_fill(mask == 0, -1e9) hides with a large finite number: a row whose keys "
           "are all hidden then gets uniform weights (1/n each: {} here, with {} keys) and "
           "averages the padding it should ignore. With −∞ the softmax is 0/0; this book defines "
           "that row as zeros (PyTorch gives NaN).",
           fixed(1.0 / static_cast<double>(n), 2), n));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    why_mask(ch, in);
    causal(ch, in);
    prefix_rows(ch, in);
    padding(ch, in);
    fully_masked_row(ch, in);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch03_masked_attention",
        N_("masked attention: the causal mask, padding masks, and a fully masked row"),
        N_("03 §2.1.5 (masked self-attention); 02 \"带掩码的注意力机制\""),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
