// ch02_self_attention — self-attention by hand on the three characters 笔, 记, 本.
//
// Tutorial: 01's hand calculation (X, Xᵀ, XXᵀ, softmax(XXᵀ), softmax(XXᵀ)·X, unscaled);
// 02's six steps of self-attention and "why scale by √d_k"; 03 §2.1.3–2.1.4 (the attention
// function, self-attention as attention(x, x, x)).
#include <cmath>
#include <string>

#include "attention.h"
#include "chapter.h"
#include "print.h"
#include "random.h"
#include "svg.h"

namespace {

// "1·1 + 2·2 + 1·1" — a dot product written out, for the step-by-step row
std::string dot_terms(const Matrix& a, std::size_t ra, const Matrix& b, std::size_t rb) {
    std::string s;
    for (std::size_t c = 0; c < a.cols; ++c)
        s += (c ? " + " : "") + general(a(ra, c), 4) + "·" + general(b(rb, c), 4);
    return s;
}

// Token i's row of softmax(XXᵀ)·X, computed the long way, one number at a time.
void explain_row(std::ostream& out, const Matrix& X, const Labels& tokens, std::size_t i) {
    const std::string t = tokens[i];
    out << "Step 2 — scores: the dot product of " << t << " with every token\n";
    Matrix scores(1, X.rows);
    for (std::size_t j = 0; j < X.rows; ++j) {
        scores(0, j) = matmul(row_of(X, i), transpose(row_of(X, j)))(0, 0);
        out << "  score(" << t << ", " << tokens[j] << ") = " << dot_terms(X, i, X, j) << " = "
            << general(scores(0, j), 10) << "\n";
    }
    out << "Steps 3-4 — softmax of the row: subtract the largest score (for stability), exponentiate, divide by the sum\n";
    double max = scores(0, 0), sum = 0.0;
    for (double s : scores.data) max = std::max(max, s);
    for (std::size_t j = 0; j < X.rows; ++j) sum += std::exp(scores(0, j) - max);
    const Matrix weights = softmax_rows(scores);
    for (std::size_t j = 0; j < X.rows; ++j)
        out << "  weight(" << t << ", " << tokens[j] << ") = exp(" << general(scores(0, j), 10) << " - "
            << general(max, 10) << ") / " << fixed(sum, 6) << " = " << fixed(weights(0, j), 6) << "\n";
    out << "Steps 5-6 — multiply each token's vector by its weight and add them up\n";
    Matrix total(1, X.cols);
    for (std::size_t j = 0; j < X.rows; ++j) {
        const Matrix part = scale(row_of(X, j), weights(0, j));
        total = add(total, part);
        out << "  " << fixed(weights(0, j), 4) << " × " << tokens[j] << " = [";
        for (std::size_t c = 0; c < X.cols; ++c) out << (c ? ", " : "") << fixed(part(0, c), 4);
        out << "]\n";
    }
    out << "  output(" << t << ") = [";
    for (std::size_t c = 0; c < X.cols; ++c) out << (c ? ", " : "") << fixed(total(0, c), 4);
    out << "]\n";
}

double largest(const Matrix& m) {
    double best = m.data.at(0);
    for (double x : m.data) best = std::max(best, x);
    return best;
}

struct WhyScaleSetup {
    std::uint64_t seed;
    std::vector<long> d_k;
    long trials, keys;
};

// For random q and k with unit-variance entries, q·k has variance d_k: the scores spread as
// d_k grows, and softmax turns nearly one-hot. Rows: d_k, var(q·k), mean largest weight
// without scaling, and with the 1/√d_k scale.
Matrix why_scale(const WhyScaleSetup& setup) {
    Random rng(setup.seed);
    Matrix table(setup.d_k.size(), 4);
    for (std::size_t row = 0; row < setup.d_k.size(); ++row) {
        const std::size_t d = static_cast<std::size_t>(setup.d_k[row]);
        std::vector<double> scores;
        double sum_max_plain = 0.0, sum_max_scaled = 0.0;
        for (long t = 0; t < setup.trials; ++t) {
            Matrix q(1, d), K(static_cast<std::size_t>(setup.keys), d);  // drawn in this order
            for (double& x : q.data) x = rng.normal();
            for (double& x : K.data) x = rng.normal();
            const Matrix s = matmul(q, transpose(K));  // (1 x keys)
            scores.insert(scores.end(), s.data.begin(), s.data.end());
            sum_max_plain += largest(softmax_rows(s));
            sum_max_scaled += largest(softmax_rows(scale(s, 1.0 / std::sqrt(static_cast<double>(d)))));
        }
        const double n = static_cast<double>(scores.size());
        double mean = 0.0, var = 0.0;
        for (double x : scores) mean += x / n;
        for (double x : scores) var += (x - mean) * (x - mean) / n;
        table(row, 0) = static_cast<double>(d);
        table(row, 1) = var;
        table(row, 2) = sum_max_plain / static_cast<double>(setup.trials);
        table(row, 3) = sum_max_scaled / static_cast<double>(setup.trials);
    }
    return table;
}

void walkthrough(const DataFile& data, const Options&, std::ostream& out, Results& results) {
    const Labels tokens = data.texts("inputs.tokens");
    const Matrix X = data.matrix("inputs.X");  // (n x d): one row per token
    if (tokens.size() != X.rows)
        throw data.error("inputs.tokens", "expected one token per row of inputs.X (" + std::to_string(X.rows) + ")");
    const std::string d = std::to_string(X.cols);
    const Matrix W_Q = data.matrix("inputs.W_Q"), W_K = data.matrix("inputs.W_K"), W_V = data.matrix("inputs.W_V");
    for (const char* key : {"inputs.W_Q", "inputs.W_K", "inputs.W_V"})
        if (data.matrix(key).rows != X.cols) throw data.error(key, "expected " + d + " rows, one per column of inputs.X");
    if (W_K.cols != W_Q.cols)
        throw data.error("inputs.W_K", "expected " + std::to_string(W_Q.cols) + " columns like inputs.W_Q (queries and keys share d_k)");
    const WhyScaleSetup setup{static_cast<std::uint64_t>(data.integer("inputs.why_scale.seed", 0, 1L << 62)),
                              data.integers("inputs.why_scale.d_k", 1, 4096),
                              data.integer("inputs.why_scale.trials", 1, 100000),
                              data.integer("inputs.why_scale.keys", 1, 1000)};
    const Labels dims;  // columns of X are numbered

    print_step(out, "The input: one vector per character of 笔记本");
    out << "Self-attention lets every token look at every token of the same sentence. The\n"
           "tutorial takes Q = K = V = X (no projections yet) to calculate by hand.\n";
    print_matrix(out, "X", X, tokens, dims);
    const Matrix Xt = transpose(X);
    print_matrix(out, "Xᵀ", Xt, dims, tokens);
    results.add("Xt", Xt);

    print_step(out, "Step 1: scores XXᵀ — how similar is each pair of tokens?");
    const AttentionResult plain = attention_with_scale(X, X, X, 1.0);
    print_matrix(out, "XXᵀ", plain.scores, tokens, tokens);
    out << "Entry (i, j) is the dot product of token i with token j. The matrix is symmetric\n"
           "because Q = K here; with projections (below) it no longer is.\n";
    results.add("XXt", plain.scores);

    print_step(out, "Step 2: softmax(XXᵀ) — each row becomes weights that sum to 1");
    print_matrix(out, "softmax(XXᵀ)", plain.weights, tokens, tokens);
    results.add("softmax_XXt", plain.weights);

    print_step(out, "Step 3: softmax(XXᵀ)·X — each token becomes a weighted mix of all tokens");
    print_matrix(out, "softmax(XXᵀ)·X", plain.output, tokens, dims);
    results.add("output_unscaled", plain.output);

    print_step(out, "One row by hand: the token " + tokens[0]);
    explain_row(out, X, tokens, 0);

    print_step(out, "Step 4: the same with the 1/√d_k scale of the paper (d_k = " + d + ")");
    out << "The tutorial leaves out √d_k as \"just a constant\", but it is not harmless: dividing\n"
           "the scores changes the softmax, so every weight and output below differs from the\n"
           "unscaled ones above.\n";
    const AttentionResult scaled = attention(X, X, X);
    print_matrix(out, "XXᵀ/√" + d, scaled.scores, tokens, tokens);
    print_matrix(out, "softmax(XXᵀ/√" + d + ")", scaled.weights, tokens, tokens);
    print_matrix(out, "softmax(XXᵀ/√" + d + ")·X", scaled.output, tokens, dims);
    results.add("scores_scaled", scaled.scores);
    results.add("softmax_scaled", scaled.weights);
    results.add("output_scaled", scaled.output);

    print_step(out, "Step 5: with learned projections Q = X·W_Q, K = X·W_K, V = X·W_V");
    out << "In a real model Q, K and V are three different linear maps of X (our W matrices are\n"
           "small made-up numbers, from the data file). The six steps of the tutorial's second\n"
           "article: 1 make q, k, v for each token; 2 score q_i·k_j; 3 divide by √d_k;\n"
           "4 softmax; 5 weight each v_j; 6 sum.\n";
    const Matrix Q = matmul(X, W_Q), K = matmul(X, W_K), V = matmul(X, W_V);
    print_matrix(out, "Q = X·W_Q", Q, tokens);
    print_matrix(out, "K = X·W_K", K, tokens);
    print_matrix(out, "V = X·W_V", V, tokens);
    const AttentionResult projected = attention(Q, K, V);
    print_matrix(out, "Q·Kᵀ/√" + std::to_string(Q.cols), projected.scores, tokens, tokens);
    print_matrix(out, "weights", projected.weights, tokens, tokens);
    print_matrix(out, "output", projected.output, tokens);
    out << "Now the weights are not symmetric: how much 笔 attends to 记 is no longer how much 记\n"
           "attends to 笔.\n";
    results.add("Q", Q);
    results.add("K", K);
    results.add("V", V);
    results.add("scores_projected", projected.scores);
    results.add("weights_projected", projected.weights);
    results.add("output_projected", projected.output);
    results.add_figure("ch02_weights_unscaled.svg", {"softmax(XXᵀ): the tutorial's unscaled weights", plain.weights, tokens, tokens});
    results.add_figure("ch02_weights_scaled.svg", {"softmax(XXᵀ/√d_k)", scaled.weights, tokens, tokens});
    results.add_figure("ch02_weights_projected.svg", {"softmax(Q·Kᵀ/√d_k) with projections", projected.weights, tokens, tokens});

    print_step(out, "Why scale by 1/√d_k? A measurement");
    out << "Draw q and k with independent entries of mean 0 and variance 1 (seed " << setup.seed << ", "
        << setup.trials << " queries × " << setup.keys << " keys per d_k).\n"
           "Then q·k has variance d_k: the scores spread out as d_k grows, the softmax saturates\n"
           "towards one-hot, and its gradients vanish. Dividing by √d_k brings the variance back to 1.\n";
    const Matrix table = why_scale(setup);
    Table t({"d_k", "var(q·k)", "largest weight, unscaled", "largest weight, scaled"});
    for (std::size_t r = 0; r < table.rows; ++r)
        t.add({general(table(r, 0), 4), fixed(table(r, 1), 2), fixed(table(r, 2), 4), fixed(table(r, 3), 4)});
    t.print(out);
    results.add("why_scale", table, tolerance::end_to_end);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch02_self_attention",
                           "self-attention by hand on 笔/记/本: XXᵀ, softmax, output; √d_k; projections",
                           "01's hand calculation; 02 (the six steps, why scale by √d_k); 03 §2.1.3-2.1.4", {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
