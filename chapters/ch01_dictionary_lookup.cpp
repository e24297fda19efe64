// ch01_dictionary_lookup — attention as a soft dictionary lookup.
//
// Tutorial: 03 §2.1.2 (the dictionary {apple: 10, banana: 5, chair: 2} and the query "fruit"),
// and the shop-search analogy of 01 (query = what you type, keys = the items' keywords,
// values = what the items are worth). We go from an exact lookup, through a weighted one, to
// the attention formula softmax(q·Kᵀ)·V, and then watch the exact lookup come back as the
// scores grow.
#include <cmath>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "model/attention/attention.h"
#include "report/chapter.h"
#include "report/tutorial_numbers.h"
#include "text/translate.h"

namespace {

struct Inputs {
    Labels keys;           // the dictionary's keys
    Matrix values;         // (m x 1): one value per key
    Matrix fruit_weights;  // (1 x m): the tutorial's hand-picked weights for "fruit"
    Matrix K;              // (m x d_k): one vector per key
    Labels queries;        // names of the queries
    Matrix Q;              // (n x d_k): one vector per query
    Matrix sweep_scales;   // (1 x s): the factors step 4 multiplies the scores by
    std::size_t sweep_query;
};

Inputs read_inputs(const DataFile& data) {
    Inputs in{data.texts("inputs.keys"),           transpose(data.vector("inputs.values")),
              data.vector("inputs.fruit_weights"), data.matrix("inputs.key_vectors"),
              data.texts("inputs.queries"),        data.matrix("inputs.query_vectors"),
              data.vector("inputs.sweep_scales"),  0};
    const std::string m = std::to_string(in.keys.size());
    if (in.keys.empty() || in.values.rows != in.keys.size())
        throw data.error("inputs.values", tr("expected one value per key ({})", m));
    if (in.fruit_weights.cols != in.keys.size())
        throw data.error("inputs.fruit_weights", tr("expected one weight per key ({})", m));
    if (in.K.rows != in.keys.size())
        throw data.error("inputs.key_vectors", tr("expected one row per key ({})", m));
    if (in.Q.cols != in.K.cols)
        throw data.error("inputs.query_vectors",
                         tr("expected rows of width {} like the key vectors", in.K.cols));
    if (in.queries.size() != in.Q.rows)
        throw data.error("inputs.queries",
                         tr("expected one name per query vector ({})", in.Q.rows));
    in.sweep_query = data.size("inputs.sweep_query", 0, in.Q.rows - 1);
    return in;
}

// (1 x m) weights · (m x 1) values -> the one number a weighted lookup returns
double weighted_lookup(const Matrix& weights, const Matrix& values) {
    return matmul(weights, values)(0, 0);
}

void exact_lookup(Chapter& ch, const Inputs& in) {
    Matrix one_hot(1, in.keys.size());  // the weights of an exact match of the first key
    one_hot(0, 0) = 1.0;
    const double exact = weighted_lookup(one_hot, in.values);
    ch.step(tr("Step 1: an exact dictionary lookup (03 §2.1.2; 01 简单描述)"));
    ch.say(tr(
        "A dictionary maps keys to values. Looking up \"{}\" matches one key exactly: its weight "
        "is 1, every other weight 0.",
        in.keys[0]));
    ch.matrix(tr("values V"), in.values, in.keys, {tr("value")});
    ch.matrix(tr("weights for \"{}\"", in.keys[0]), one_hot, {in.keys[0]}, in.keys);
    ch.record_number("exact_lookup", exact);
    ch.line(tr("lookup(\"{}\") = weights · V = {}", in.keys[0], fixed(exact, 0)));
}

void weighted_lookup_step(Chapter& ch, const Inputs& in) {
    const double fruit = weighted_lookup(in.fruit_weights, in.values);
    ch.step(tr("Step 2: a weighted lookup for a query that matches several keys (03 §2.1.2)"));
    ch.say(
        tr("\"fruit\" is no key, but it may be close to several. Give each key a weight (the "
           "tutorial's are 0.6 / 0.4 / 0 for apple, banana, chair; these are the data file's) "
           "and return the weighted sum of the values:"));
    ch.matrix(tr("weights for \"{}\"", "fruit"), in.fruit_weights, {"fruit"}, in.keys, 1);
    ch.record_number("fruit_lookup", fruit);
    std::string terms;
    for (std::size_t j = 0; j < in.keys.size(); ++j)
        terms +=
            (j ? " + " : "") + fixed(in.fruit_weights(0, j), 1) + "·" + fixed(in.values(j, 0), 0);
    if (tutorial_inputs(ch.data))
        ch.line(tr("lookup(\"fruit\") = {} = {}   (the tutorial: 8)", terms, fixed(fruit, 4)));
    else
        ch.line(tr("lookup(\"fruit\") = {} = {}", terms, fixed(fruit, 4)));
    ch.say(tr(
        "This is where the database picture stops fitting (05 says it is only half right): a "
        "database returns the value of the key that matches; attention returns a blend of all the "
        "values, weighted by how well each key matches."));
}

// The key a query's weights give the least.
std::size_t least_weighted(const Matrix& weights, std::size_t query) {
    std::size_t least = 0;
    for (std::size_t j = 1; j < weights.cols; ++j)
        if (weights(query, j) < weights(query, least)) least = j;
    return least;
}

void attention_formula(Chapter& ch, const Inputs& in) {
    const AttentionResult a = attention_with_scale(in.Q, in.K, in.values, 1.0);
    const std::size_t least = least_weighted(a.weights, 0);  // the key the first query weighs least
    const double hand_picked = weighted_lookup(in.fruit_weights, in.values);
    ch.step(tr("Step 3: weights from word vectors — the attention formula (03 §2.1.2)"));
    ch.say(tr(
        "Where do the weights come from? Give every key and query a vector (the data file's; ours "
        "for the tutorial's dictionary point apple and banana the same way and chair elsewhere). "
        "The dot product q·k scores how well a key matches; softmax turns the scores into weights "
        "that sum to 1:"));
    ch.line("    attention(q, K, V) = softmax(q·Kᵀ)·V");
    ch.matrix(tr("key vectors K"), in.K, in.keys, {}, 1);
    ch.matrix(tr("query vectors Q"), in.Q, in.queries, {}, 1);
    ch.show("scores", tr("scores Q·Kᵀ"), a.scores, in.queries, in.keys, 2);
    ch.show("weights", tr("weights softmax(Q·Kᵀ)"), a.weights, in.queries, in.keys);
    ch.record("attention_lookup", transpose(a.output), Shape::Vector);
    ch.matrix(tr("result softmax(Q·Kᵀ)·V"), a.output, in.queries, {tr("value")});
    ch.say(
        tr("\"{}\" now gets {}, where the hand-picked weights gave {}: the weights are "
           "computed, and even the key it matches least, {}, keeps {}.",
           in.queries[0], fixed(a.output(0, 0), 4),
           fixed(hand_picked, 4), in.keys[least],
           fixed(a.weights(0, least), 4)));
    ch.correction("03 §2.1.2",
                  tr("the weights for \"fruit\" are 0.6 / 0.4 / 0, but a softmax never gives "
                     "an exact 0 for a finite score: computed from vectors, {} keeps {}. Exact "
                     "zeros come only from −∞ scores, i.e. from masks (chapter 3).",
                     in.keys[least], fixed(a.weights(0, least), 4)));
    ch.correction("01 简单描述",
                  tr("the shop search \"returns the items ordered by weighted value\", but "
                     "attention ranks nothing: it returns one number (here {}), the weighted "
                     "average of every value.",
                     fixed(a.output(0, 0), 4)));
}

// The first query against one key: q·k, the key's length, the cosine of the angle between them,
// and the score of the key doubled.
struct DotProduct {
    double qk, key_length, cosine, doubled;
};
std::vector<DotProduct> dot_products_of(const Inputs& in) {
    const Matrix q = row_of(in.Q, 0), scores = matmul_bt(q, in.K);
    const double nq = std::sqrt(matmul_bt(q, q)(0, 0));
    std::vector<DotProduct> out;
    for (std::size_t j = 0; j < in.keys.size(); ++j) {
        const Matrix k = row_of(in.K, j);
        const double qk = scores(0, j), nk = std::sqrt(matmul_bt(k, k)(0, 0));
        out.push_back({qk, nk, qk / (nq * nk), matmul_bt(q, scale(k, 2.0))(0, 0)});
    }
    return out;
}

// q·k and the cosine of the angle between q and k: the dot product also grows with the lengths.
void dot_products(Chapter& ch, const Inputs& in) {
    const std::vector<DotProduct> dots = dot_products_of(in);
    ch.step(tr("Is the dot product a similarity? (03 §2.1.2; 05)"));
    Table t({tr("key"), "q·k", "|k|", "cos(q, k)", "q·(2k)"});
    for (std::size_t j = 0; j < in.keys.size(); ++j)
        t.add({in.keys[j], general(dots[j].qk, 4), general(dots[j].key_length, 4),
               fixed(dots[j].cosine, 3), general(dots[j].doubled, 4)});
    ch.say(tr("The score of \"{}\" against each key, beside the cosine, which ignores lengths:",
              in.queries[0]));
    ch.table(t);
    ch.say(tr(
        "Double a key and its score doubles, its cosine does not move: the dot product measures "
        "direction and length together. A learned model can use both; calling the score a cosine, "
        "or \"similarity\" alone, is not exact."));
    ch.correction("03 §2.1.2",
                  tr("\"the dot product of unrelated words should be negative\": unrelated "
                     "directions are orthogonal, with a dot product of 0; a negative one means "
                     "opposite. And the dot product grows with the vectors' lengths (the table "
                     "above: q·(2k) = 2·q·k), so it is not the cosine."));
}

// Rows: the scale s, each key's weight, the result of the lookup.
Matrix sweep_of(const Inputs& in) {
    const Matrix q = row_of(in.Q, in.sweep_query);
    Matrix sweep(in.sweep_scales.cols, in.keys.size() + 2);
    for (std::size_t i = 0; i < in.sweep_scales.cols; ++i) {
        const AttentionResult s = attention_with_scale(q, in.K, in.values, in.sweep_scales(0, i));
        sweep(i, 0) = in.sweep_scales(0, i);
        for (std::size_t j = 0; j < in.keys.size(); ++j) sweep(i, j + 1) = s.weights(0, j);
        sweep(i, in.keys.size() + 1) = s.output(0, 0);
    }
    return sweep;
}

void sharper_scores(Chapter& ch, const Inputs& in) {
    const Matrix sweep = sweep_of(in);
    const double exact = in.values(0, 0);
    ch.step(tr("Step 4: sharper scores bring the exact lookup back"));
    ch.say(tr(
        "Multiply the scores of \"{}\" by a growing factor s. The softmax weights approach one-hot "
        "and the result approaches the dictionary's exact value {}:",
        in.queries[in.sweep_query], fixed(exact, 0)));
    ch.record("sweep", sweep);
    Labels columns = {"s"};
    for (const std::string& k : in.keys) columns.push_back(tr("weight of {}", k));
    columns.push_back(tr("result"));
    columns.push_back(tr("|{} - result|", fixed(exact, 0)));
    Table table(columns);
    for (std::size_t i = 0; i < sweep.rows; ++i) {
        Labels cells;
        for (std::size_t c = 0; c + 1 < sweep.cols; ++c)
            cells.push_back(general(sweep(i, c), c == 0 ? 3 : 6));
        const double result = sweep(i, sweep.cols - 1);
        cells.push_back(general(result, 15));
        cells.push_back(general(std::fabs(exact - result), 2));
        table.add(cells);
    }
    ch.table(table);
    const double last = sweep(sweep.rows - 1, sweep.cols - 1);
    const std::string s = fixed(sweep(sweep.rows - 1, 0), 0), result = fixed(last, 12);
    ch.say(last == exact
               ? tr("At s = {} the result is exactly {}: a dictionary is attention with "
                    "infinitely sharp scores.",
                    s, result)
               : tr("At s = {} the result is {}: a dictionary is attention with infinitely "
                    "sharp scores.",
                    s, result));
    ch.say(
        tr("Chapter 2 shows why real attention keeps the scores from growing (the 1/√d_k scale)."));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    exact_lookup(ch, in);
    weighted_lookup_step(ch, in);
    attention_formula(ch, in);
    dot_products(ch, in);
    sharper_scores(ch, in);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch01_dictionary_lookup",
        N_("attention as a soft dictionary lookup: exact, weighted, softmax(q·Kᵀ)·V"),
        N_("03 §2.1.2 (the dictionary and \"fruit\"); the shop-search analogy in 01")};
    return run_chapter(argc, argv, info, walkthrough);
}
