// ch02_self_attention — self-attention by hand on the three characters 笔, 记, 本.
//
// Tutorial: 01's hand calculation (X, Xᵀ, XXᵀ, softmax(XXᵀ), softmax(XXᵀ)·X, unscaled);
// 02's six steps of self-attention and "why scale by √d_k"; 03 §2.1.3–2.1.4 (the attention
// function, self-attention as attention(x, x, x)).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/matmul.h"
#include "core/random.h"
#include "model/attention/attention.h"
#include "report/chapter.h"
#include "report/computed_once.h"
#include "report/heatmap.h"
#include "report/vector_measures.h"
#include "text/translate.h"

namespace {

struct WhyScaleSetup {
    std::uint64_t seed;
    std::vector<std::size_t> d_k;  // the widths to measure
    std::size_t trials, keys;      // queries per width, keys per query
};

struct Inputs {
    Labels tokens;
    Matrix X;              // (n x d_model): one row per token
    Matrix W_Q, W_K, W_V;  // (d_model x d_k), (d_model x d_k), (d_model x d_v)
    WhyScaleSetup why_scale;
};

Inputs read_inputs(const DataFile& data) {
    Inputs in{data.texts("inputs.tokens"),
              data.matrix("inputs.X"),
              data.matrix("inputs.W_Q"),
              data.matrix("inputs.W_K"),
              data.matrix("inputs.W_V"),
              {data.seed("inputs.why_scale.seed"),
               data.sizes("inputs.why_scale.d_k", 1, 4096),
               data.size("inputs.why_scale.trials", 1, 100000),
               data.size("inputs.why_scale.keys", 1, 1000)}};
    if (in.tokens.size() != in.X.rows)
        throw data.error("inputs.tokens",
                         tr("expected one token per row of inputs.X ({})", in.X.rows));
    for (const char* key : {"inputs.W_Q", "inputs.W_K", "inputs.W_V"})
        if (data.matrix(key).rows != in.X.cols)
            throw data.error(key, tr("expected {} rows, one per column of inputs.X", in.X.cols));
    if (in.W_K.cols != in.W_Q.cols)
        throw data.error(
            "inputs.W_K",
            tr("expected {} columns like inputs.W_Q (queries and keys share d_k)", in.W_Q.cols));
    return in;
}

// "1·1 + 2·2 + 1·1" — a dot product written out, for the step-by-step row
std::string dot_terms(const Matrix& a, std::size_t ra, const Matrix& b, std::size_t rb) {
    std::string s;
    for (std::size_t c = 0; c < a.cols; ++c)
        s += (c ? " + " : "") + general(a(ra, c), 4) + "·" + general(b(rb, c), 4);
    return s;
}

std::string vector_text(const Matrix& row) {
    std::string s = "[";
    for (std::size_t c = 0; c < row.cols; ++c) s += (c ? ", " : "") + fixed(row(0, c), 4);
    return s + "]";
}

// two rows, one below the other
Matrix concat_rows_of(const Matrix& a, const Matrix& b) {
    Matrix m(2, a.cols);
    set_submatrix(m, 0, 0, a);
    set_submatrix(m, 1, 0, b);
    return m;
}

std::string sentence_of(const Labels& tokens) {
    std::string s;
    for (const std::string& t : tokens) s += t;
    return s;
}

Heatmap weights_picture(const std::string& title, const Matrix& w, const Inputs& in) {
    return {title, w, in.tokens, in.tokens, Scale::Weights};
}

void the_input(Chapter& ch, const Inputs& in) {
    ch.step(tr("The input: one vector per token of {} (01 手算示例)", sentence_of(in.tokens)));
    ch.say(
        tr("Self-attention lets every token look at every token of the same sentence. The tutorial "
           "takes Q = K = V = X (no projections yet) to calculate by hand."));
    ch.matrix("X", in.X, in.tokens);
    ch.show("Xt", "Xᵀ", transpose(in.X), {}, in.tokens);
}

void unscaled_steps(Chapter& ch, const Inputs& in) {
    const AttentionResult plain = attention_with_scale(in.X, in.X, in.X, 1.0);
    ch.step(tr("Step 1: scores XXᵀ — how similar is each pair of tokens? (01 手算示例)"));
    ch.show("XXt", "XXᵀ", plain.scores, in.tokens, in.tokens);
    ch.say(tr(
        "Entry (i, j) is the dot product of token i with token j. The matrix is symmetric because "
        "Q = K here; with projections (below) it need not be."));
    ch.step(tr("Step 2: softmax(XXᵀ) — each row becomes weights that sum to 1 (01 手算示例)"));
    ch.show("softmax_XXt", "softmax(XXᵀ)", plain.weights, in.tokens, in.tokens);
    ch.step(tr(
        "Step 3: softmax(XXᵀ)·X — each token becomes a weighted mix of all tokens (01 手算示例)"));
    ch.show("output_unscaled", "softmax(XXᵀ)·X", plain.output, in.tokens);
    ch.picture("ch02_weights_unscaled.svg",
               heatmap_svg(weights_picture(tr("softmax(XXᵀ): the tutorial's unscaled weights"),
                                           plain.weights, in)));
}

// Token i's row of softmax(XXᵀ)·X, the long way: every number the six steps make.
struct RowByHand {
    Matrix scores;            // (1 x n): x_i · x_j
    double max = 0, sum = 0;  // the largest score; the sum of exp(score - max)
    Matrix weights;           // (1 x n): the softmax of the scores
    std::vector<Matrix> parts;  // weight j times x_j
    Matrix total;               // their sum: token i's output
};
RowByHand row_by_hand(const Matrix& X, std::size_t i) {
    RowByHand r;
    r.scores = matmul_bt(row_of(X, i), X);
    r.max = *std::max_element(r.scores.data.begin(), r.scores.data.end());
    for (double s : r.scores.data) r.sum += std::exp(s - r.max);
    r.weights = softmax_rows(r.scores);
    r.total = Matrix(1, X.cols);
    for (std::size_t j = 0; j < X.rows; ++j) {
        r.parts.push_back(scale(row_of(X, j), r.weights(0, j)));
        add_to(r.total, r.parts.back());
    }
    return r;
}

void one_row_by_hand(Chapter& ch, const Inputs& in, std::size_t i) {
    const Matrix& X = in.X;
    const RowByHand r = row_by_hand(X, i);
    const Matrix& scores = r.scores;
    const Matrix& weights = r.weights;
    const double max = r.max, sum = r.sum;
    const std::string t = in.tokens[i];
    ch.step(tr("One row by hand: the token {} (02 注意力机制细节, the six steps)", t));
    ch.line(tr("Step 2 — scores: the dot product of {} with every token", t));
    for (std::size_t j = 0; j < X.rows; ++j)
        ch.line("  " + tr("score({}, {}) = {} = {}", t, in.tokens[j], dot_terms(X, i, X, j),
                          general(scores(0, j), 10)));
    ch.say(tr(
        "Steps 3-4 — softmax of the row: subtract the largest score (for stability), exponentiate, "
        "divide by the sum"));
    for (std::size_t j = 0; j < X.rows; ++j)
        ch.line("  " + tr("weight({}, {}) = exp({} - {}) / {} = {}", t, in.tokens[j],
                          general(scores(0, j), 10), general(max, 10), fixed(sum, 6),
                          fixed(weights(0, j), 6)));
    ch.line(tr("Steps 5-6 — multiply each token's vector by its weight and add them up"));
    for (std::size_t j = 0; j < X.rows; ++j)
        ch.line("  " + fixed(weights(0, j), 4) + " × " + in.tokens[j] + " = " +
                vector_text(r.parts[j]));
    ch.line("  " + tr("output({}) = {}", t, vector_text(r.total)));
}

void scaled(Chapter& ch, const Inputs& in) {
    const AttentionResult s = attention(in.X, in.X, in.X),
                          plain = attention_with_scale(in.X, in.X, in.X, 1.0);
    const double moved = max_abs_diff(s.weights, plain.weights);
    // the last row's largest unscaled weight, and the same weight scaled
    const std::size_t last = in.X.rows - 1, top = argmax(plain.weights, last);
    const std::string d = std::to_string(in.X.cols);
    ch.step(tr("Step 4: the same with the 1/√d_k scale of the paper (d_k = {}; 01, 03 §2.1.2)", d));
    if (moved > 0)
        ch.say(
            tr("The tutorial leaves out √d_k as \"just a constant\", but it is not harmless: "
               "dividing the scores changes the softmax, so the weights below differ from the "
               "unscaled ones above, by up to {}.",
               fixed(moved, 4)));
    else
        ch.say(
            tr("The tutorial leaves out √d_k as \"just a constant\". Here it changes no weight "
               "(one token's only weight is 1, and with d_k = 1 the scale is 1); with the "
               "tutorial's X it changes every one."));
    ch.show("scores_scaled", "XXᵀ/√" + d, s.scores, in.tokens, in.tokens);
    ch.show("softmax_scaled", "softmax(XXᵀ/√" + d + ")", s.weights, in.tokens, in.tokens);
    ch.show("output_scaled", "softmax(XXᵀ/√" + d + ")·X", s.output, in.tokens);
    ch.picture("ch02_weights_scaled.svg",
               heatmap_svg(weights_picture("softmax(XXᵀ/√d_k)", s.weights, in)));
    const std::string unscaled = fixed(plain.weights(last, top), 3),
                      with_scale = fixed(s.weights(last, top), 3);
    if (unscaled != with_scale)
        ch.correction(
            "01 手算示例",
            tr("\"√d_k can be left out for now, it is a constant\": a constant inside a "
               "softmax changes every weight. Row {}'s largest weight is {} unscaled and {} "
               "divided "
               "by √{}; the hand calculation computes softmax(XXᵀ)·X, not the formula above it.",
               in.tokens[last], unscaled, with_scale, d));
    else
        ch.correction(
            "01 手算示例",
            tr("\"√d_k can be left out for now, it is a constant\": a constant inside a "
               "softmax changes the weights in general; with these inputs row {}'s largest weight "
               "is {} either way (one token, or d_k = 1, leaves nothing to change). The hand "
               "calculation computes softmax(XXᵀ)·X, not the formula above it.",
               in.tokens[last], unscaled));
}

// The pair of tokens (a, b), a < b, whose weights on each other differ most; (0, 1) when none
// differ, and (0, 0) for one token.
std::pair<std::size_t, std::size_t> least_symmetric_pair(const Matrix& w) {
    if (w.rows < 2) return {0, 0};
    std::size_t a = 0, b = 1;
    for (std::size_t i = 0; i < w.rows; ++i)
        for (std::size_t j = i + 1; j < w.cols; ++j)
            if (std::fabs(w(i, j) - w(j, i)) > std::fabs(w(a, b) - w(b, a))) a = i, b = j;
    return {a, b};
}

// Whether the projected weights are symmetric, worded from the pair that differs most.
void narrate_asymmetry(Chapter& ch, const Inputs& in, const Matrix& w) {
    const auto [a, b] = least_symmetric_pair(w);
    if (a == b) {
        ch.say(tr("With one token there is no pair to compare: its one weight, on itself, is 1."));
        return;
    }
    if (w(a, b) == w(b, a))
        ch.say(tr("These weights happen to be symmetric: W_Q and W_K act alike on these tokens."));
    else
        ch.say(
            tr("Now the weights are not symmetric: {1} gives {2} a weight of {3}, {2} gives {1} "
               "{4} — how much one token attends to another is no longer how much the other "
               "attends to it.",
               in.tokens[a], in.tokens[b], fixed(w(a, b), 4), fixed(w(b, a), 4)));
}

void projections(Chapter& ch, const Inputs& in) {
    const Matrix Q = matmul(in.X, in.W_Q), K = matmul(in.X, in.W_K), V = matmul(in.X, in.W_V);
    const AttentionResult p = attention(Q, K, V);
    ch.step(tr("Step 5: Q = X·W_Q, K = X·W_K, V = X·W_V — three roles (02 第一步; 03 §2.1.4; 05)"));
    ch.say(tr(
        "In a real model Q, K and V are three different linear maps of X (our W matrices are small "
        "made-up numbers, from the data file). So each token plays three roles, as 05 tells it: as "
        "a query it asks, as a key it is asked, as a value it is what it gives."));
    ch.show("Q", "Q = X·W_Q", Q, in.tokens);
    ch.show("K", "K = X·W_K", K, in.tokens);
    ch.show("V", "V = X·W_V", V, in.tokens);
    ch.show("scores_projected", "Q·Kᵀ/√" + std::to_string(Q.cols), p.scores, in.tokens, in.tokens);
    ch.show("weights_projected", tr("weights"), p.weights, in.tokens, in.tokens);
    ch.show("output_projected", tr("output"), p.output, in.tokens);
    narrate_asymmetry(ch, in, p.weights);
    ch.picture(
        "ch02_weights_projected.svg",
        heatmap_svg(weights_picture(tr("softmax(Q·Kᵀ/√d_k) with projections"), p.weights, in)));
    ch.correction("03 §2.1.3",
                  tr("\"the key vectors' width equals the value vectors'\": d_k (queries and "
                     "keys) and d_v (values) are independent: W_V need not be as wide as W_K (here "
                     "d_k = {}, d_v = {}; tests/data/ch02_self_attention.other.json: 2 and 4). The "
                     "paper chooses both 64.",
                     in.W_Q.cols, in.W_V.cols));
}

// Rows: d_k, var(q·k), the mean largest weight without scaling, and with the 1/√d_k scale.
Matrix why_scale(const WhyScaleSetup& setup) {
    Random rng(setup.seed);
    Matrix table(setup.d_k.size(), 4);
    for (std::size_t row = 0; row < setup.d_k.size(); ++row) {
        const std::size_t d_k = setup.d_k[row];
        std::vector<double> scores;
        double sum_max_plain = 0.0, sum_max_scaled = 0.0;
        for (std::size_t t = 0; t < setup.trials; ++t) {
            Matrix q(1, d_k), K(setup.keys, d_k);  // drawn in this order, as the oracle does
            for (double& x : q.data) x = rng.normal();
            for (double& x : K.data) x = rng.normal();
            const Matrix s = matmul_bt(q, K);  // (1 x keys)
            scores.insert(scores.end(), s.data.begin(), s.data.end());
            sum_max_plain += softmax_rows(s)(0, argmax(s, 0));
            sum_max_scaled += softmax_rows(scale(s, attention_scale(d_k)))(0, argmax(s, 0));
        }
        const double count = static_cast<double>(scores.size());
        double mean = 0.0, var = 0.0;
        for (double x : scores) mean += x / count;
        for (double x : scores) var += (x - mean) * (x - mean) / count;
        table(row, 0) = static_cast<double>(d_k);
        table(row, 1) = var;
        table(row, 2) = sum_max_plain / static_cast<double>(setup.trials);
        table(row, 3) = sum_max_scaled / static_cast<double>(setup.trials);
    }
    return table;
}

void why_scale_step(Chapter& ch, const Inputs& in) {
    const Matrix table = computed_once(ch, "why_scale", "inputs.why_scale",
                                       [&] { return why_scale(in.why_scale); });
    ch.step(tr("Why scale by 1/√d_k? A measurement (02 为什么对点积注意力进行缩放; 04)"));
    ch.say(tr(
        "Draw q and k with independent entries of mean 0 and variance 1 (seed {}; per d_k, {} × {} "
        "scores: queries × keys). Then q·k has variance d_k: the scores spread out as d_k grows, "
        "the softmax saturates towards one-hot, and its gradients vanish. Dividing by √d_k brings "
        "the variance back to 1.",
        in.why_scale.seed, in.why_scale.trials, in.why_scale.keys));
    if (in.why_scale.trials * in.why_scale.keys < 2)
        ch.say(
            tr("(One score per d_k has no spread to measure: the variance below is 0 by "
               "definition. Give inputs.why_scale more trials or keys.)"));
    ch.record("why_scale", table, Shape::Matrix, tolerance::end_to_end);
    Table t({"d_k", "var(q·k)", tr("its square root"), tr("largest weight, unscaled"),
             tr("largest weight, scaled")});
    for (std::size_t r = 0; r < table.rows; ++r)
        t.add({general(table(r, 0), 4), fixed(table(r, 1), 2), fixed(std::sqrt(table(r, 1)), 2),
               fixed(table(r, 2), 4), fixed(table(r, 3), 4)});
    ch.table(t);
    for (std::size_t r = 0; r < table.rows; ++r)
        if (table(r, 0) == 64)
            ch.say(
                tr("At the paper's d_k = 64 the scores spread with a standard deviation of {} ≈ 8: "
                   "that is the \"divide by 8\" of 02's third step, √64.",
                   fixed(std::sqrt(table(r, 1)), 2)));
    ch.correction("02 为什么对点积注意力进行缩放", tr("\"1/np.sqt(dk)\" is np.sqrt."));
}

// The first token's output in the sentence as given (y) and with the last token replaced by a
// copy of the first (changed), and the most any entry moved.
struct ContextChange {
    Matrix y, changed;
    double moved = 0;
};
ContextChange context_change(const Inputs& in) {
    const Matrix Q = matmul(in.X, in.W_Q), K = matmul(in.X, in.W_K), V = matmul(in.X, in.W_V);
    Matrix other = in.X;  // the last token replaced by a copy of the first: a changed context
    std::copy(in.X.row(0), in.X.row(0) + in.X.cols, other.row(in.X.rows - 1));
    const Matrix y = attention(Q, K, V).output;
    const Matrix y2 =
        attention(matmul(other, in.W_Q), matmul(other, in.W_K), matmul(other, in.W_V)).output;
    return {row_of(y, 0), row_of(y2, 0), max_abs_diff(row_of(y, 0), row_of(y2, 0))};
}

// 05 says it in words: X goes in, Y comes out, each y a context-mixed version of its x.
void what_05_gets_right(Chapter& ch, const Inputs& in) {
    const ContextChange c = context_change(in);
    ch.step(tr("The same token in another sentence comes out different (05: X → Y)"));
    ch.say(
        tr("05 calls self-attention a parser that turns word vectors X into vectors Y that carry "
           "their context (its \"bank\" beside \"river\" or beside \"money\")."));
    if (in.X.rows < 2) {
        ch.say(
            tr("With a single token there is no context to change: its output depends on its "
               "own vector alone. Give the data file a second token to see the context at "
               "work."));
        return;
    }
    ch.say(tr("Computed: keep {1} as it is and change only the last token, {2}, into a second {1}:",
              in.tokens[0], in.tokens.back()));
    ch.matrix(tr("output of {}: in {}, and in the changed sentence", in.tokens[0],
                 sentence_of(in.tokens)),
              concat_rows_of(c.y, c.changed), {tr("as given"), tr("changed")});
    if (c.moved > 0)
        ch.say(
            tr("Its input is {} both times, its output moved by up to {}. Y is as long as X, one "
               "vector per token, as 05 says; every y mixes all the values.",
               vector_text(row_of(in.X, 0)), fixed(c.moved, 4)));
    else
        ch.say(
            tr("Its input is {} both times, and here its output is the same too: the last token "
               "was already a copy of it. Y is as long as X, one vector per token, as 05 says.",
               vector_text(row_of(in.X, 0))));
}

// 05's first claim: Q, K and V are copies of x. With copies the scores are symmetric and fixed.
void claim_copies(Chapter& ch, const Inputs& in) {
    const Matrix& X = in.X;
    const AttentionResult copies = attention(X, X, X);
    const AttentionResult projected =
        attention(matmul(X, in.W_Q), matmul(X, in.W_K), matmul(X, in.W_V));
    const std::size_t longest = argmax(transpose(row_norms(X)), 0);  // the longest vector's token
    std::size_t rows_it_leads = 0;  // rows whose largest weight (copies) is on the longest token
    for (std::size_t i = 0; i < X.rows; ++i)
        rows_it_leads += copies.weights(i, longest) >= copies.weights(i, argmax(copies.weights, i));
    Table t({tr("token"), tr("its weight on {}: copies", in.tokens[longest]),
             tr("with W_Q, W_K, W_V")});
    for (std::size_t i = 0; i < X.rows; ++i)
        t.add({in.tokens[i], fixed(copies.weights(i, longest), 4),
               fixed(projected.weights(i, longest), 4)});
    ch.say(
        tr("1. \"Copy each word vector three times\": with copies, score(i, j) = x_i·x_j = "
           "score(j, i), fixed by the vectors alone, nothing to learn. The longest vector ({}) "
           "gets the largest weight in {} of the {} rows. Three different projections let what "
           "a token looks for differ from what it offers:",
           in.tokens[longest], rows_it_leads, X.rows));
    ch.table(t);
    ch.correction(
        "05",
        tr("\"Copy each word three times (Query, Key, Value)\": they are three different "
           "linear maps of x (05 itself adds the weight matrices later), not copies; with "
           "copies the scores are symmetric, fixed by the vectors alone (here the longest "
           "vector got the largest weight in {} of {} rows; the step \"Three claims of 05\").",
           rows_it_leads, X.rows));
}

// 05's second claim: the dot product is the cosine similarity. It is the cosine times lengths.
void claim_cosine(Chapter& ch, const Inputs& in) {
    const Matrix& X = in.X;
    const Matrix a = row_of(X, 0);
    const double length_a = std::sqrt(matmul_bt(a, a)(0, 0));
    // the other token a scores highest against (itself when there is no other)
    std::size_t j = 0;
    for (std::size_t k = 1; k < X.rows; ++k)
        if (j == 0 || matmul_bt(a, row_of(X, k))(0, 0) > matmul_bt(a, row_of(X, j))(0, 0)) j = k;
    const Matrix b = row_of(X, j);
    const double dot_self = length_a * length_a, dot_ab = matmul_bt(a, b)(0, 0);
    const double cos_ab = dot_ab / (length_a * std::sqrt(matmul_bt(b, b)(0, 0)));
    const std::string& ta = in.tokens[0];
    const std::string& tb = in.tokens[j];
    if (j == 0) {
        ch.say(
            tr("2. \"The dot product computes the cosine\": {1}·{1} = {2}, but cos({1}, {1}) = "
               "1: the dot product is the cosine times both lengths.",
               ta, general(dot_self, 6)));
        ch.correction("05", tr("\"The dot product computes the two words' cosine similarity\": "
                               "it computes the cosine times both lengths — {1}·{1} = {2}, while "
                               "cos({1}, {1}) = 1.",
                               ta, general(dot_self, 6)));
        return;
    }
    ch.say(
        tr("2. \"The dot product computes the cosine\": {1}·{1} = {3}, {1}·{2} = {4}, but "
           "cos({1}, {2}) = {5}, while cos({1}, {1}) = 1.",
           ta, tb, general(dot_self, 6), general(dot_ab, 6), fixed(cos_ab, 3)));
    const std::string self = general(dot_self, 6), other = general(dot_ab, 6);
    const std::string what =
        dot_ab > dot_self
            ? tr("{1} scores {2} against {3}, more than against itself ({4}), while their cosine "
                 "is {5}.",
                 ta, other, tb, self, fixed(cos_ab, 3))
        : dot_ab == dot_self
            ? tr("{1} scores {2} against {3}, as much as against itself ({4}), while their cosine "
                 "is {5}.",
                 ta, other, tb, self, fixed(cos_ab, 3))
            : tr("{1} scores {2} against {3} and {4} against itself, while their cosine is {5}.",
                 ta, other, tb, self, fixed(cos_ab, 3));
    ch.correction("05", tr("\"The dot product computes the two words' cosine similarity\": it "
                           "computes the cosine times both lengths — {}",
                           what));
}

// 05's third claim: the weighted sum is multiplied by one's own value. That changes nothing.
void claim_own_value(Chapter& ch, const Inputs& in) {
    const Matrix V = matmul(in.X, in.W_V);
    const AttentionResult projected = attention(matmul(in.X, in.W_Q), matmul(in.X, in.W_K), V);
    if (in.X.rows > 1)
        ch.say(
            tr("3. \"Sum the weights, then multiply by one's own value\": the weights of a row "
               "sum to 1, so that would give back v_0 = {} unchanged. Attention sums the "
               "weighted values of every token: output_0 = {}.",
               vector_text(row_of(V, 0)), vector_text(row_of(projected.output, 0))));
    else
        ch.say(
            tr("3. \"Sum the weights, then multiply by one's own value\": with one token both "
               "readings give v_0 = {}; they part as soon as there is a second token to weigh.",
               vector_text(row_of(V, 0))));
    ch.correction(
        "05", tr("\"Weighted sum, then multiplied by one's own Value\": the weights multiply every "
                 "token's value and the products are summed; one's own value times the summed "
                 "weights (1) would leave every token unchanged."));
}

// Three things 05 says that the numbers above contradict.
void where_05_goes_wrong(Chapter& ch, const Inputs& in) {
    ch.step(tr("Three claims of 05, checked (05)"));
    claim_copies(ch, in);
    claim_cosine(ch, in);
    claim_own_value(ch, in);
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    the_input(ch, in);
    unscaled_steps(ch, in);
    one_row_by_hand(ch, in, 0);
    scaled(ch, in);
    projections(ch, in);
    what_05_gets_right(ch, in);
    where_05_goes_wrong(ch, in);
    why_scale_step(ch, in);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch02_self_attention",
        N_("self-attention by hand on 笔/记/本: XXᵀ, softmax, output; √d_k; projections"),
        N_("01 手算示例; 02 注意力机制细节 (the six steps, why scale by √d_k); 03 §2.1.3-2.1.4; "
           "05"),
        {svg_flag()},
        "",
        N_("the width sweep, inputs.why_scale")};
    return run_chapter(argc, argv, info, walkthrough);
}
