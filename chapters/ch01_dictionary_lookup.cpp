// ch01_dictionary_lookup — attention as a soft dictionary lookup.
//
// Tutorial: 03 §2.1.2 (the dictionary {apple: 10, banana: 5, chair: 2} and the query "fruit"),
// and the shop-search analogy of 01 (query = what you type, keys = the items' keywords,
// values = what the items are worth). We go from an exact lookup, through a weighted one, to
// the attention formula softmax(q·Kᵀ)·V, and then watch the exact lookup come back as the
// scores grow.
#include <cmath>
#include <string>

#include "attention.h"
#include "chapter.h"
#include "print.h"

namespace {

// (1 x m) weights · (m x 1) values -> the one number a weighted lookup returns
double weighted_lookup(const Matrix& weights, const Matrix& values) {
    return matmul(weights, values)(0, 0);
}

void walkthrough(const DataFile& data, const Options&, std::ostream& out, Results& results) {
    const Labels keys = data.texts("inputs.keys");
    const Matrix values = transpose(data.vector("inputs.values"));  // (m x 1): one value per key
    const Matrix fruit_weights = data.vector("inputs.fruit_weights");
    const Matrix K = data.matrix("inputs.key_vectors");    // (m x d): one vector per key
    const Matrix Q = data.matrix("inputs.query_vectors");  // (n x d): one vector per query
    const Labels queries = data.texts("inputs.queries");
    const Matrix scales = data.vector("inputs.sweep_scales");
    const long sweep_query = data.integer("inputs.sweep_query");
    if (keys.empty() || values.rows != keys.size())
        throw data.error("inputs.values", "expected one value per key (" + std::to_string(keys.size()) + ")");
    if (fruit_weights.cols != keys.size())
        throw data.error("inputs.fruit_weights", "expected one weight per key (" + std::to_string(keys.size()) + ")");
    if (K.rows != keys.size())
        throw data.error("inputs.key_vectors", "expected one row per key (" + std::to_string(keys.size()) + ")");
    if (Q.cols != K.cols)
        throw data.error("inputs.query_vectors", "expected rows of width " + std::to_string(K.cols) + " like the key vectors");
    if (queries.size() != Q.rows)
        throw data.error("inputs.queries", "expected one name per query vector (" + std::to_string(Q.rows) + ")");
    if (sweep_query < 0 || static_cast<std::size_t>(sweep_query) >= Q.rows)
        throw data.error("inputs.sweep_query", "expected a query index from 0 to " + std::to_string(Q.rows - 1));

    print_step(out, "Step 1: an exact dictionary lookup");
    out << "A dictionary maps keys to values. Looking up \"" << keys[0]
        << "\" matches one key exactly: its weight is 1, every other weight 0.\n";
    print_matrix(out, "values V", values, keys, {"value"});
    Matrix one_hot(1, keys.size());
    one_hot(0, 0) = 1.0;
    print_matrix(out, "weights for \"" + keys[0] + "\"", one_hot, {keys[0]}, keys);
    const double exact = weighted_lookup(one_hot, values);
    out << "lookup(\"" << keys[0] << "\") = weights · V = " << fixed(exact, 0) << "\n";
    results.add_number("exact_lookup", exact);

    print_step(out, "Step 2: a weighted lookup for a query that matches several keys");
    out << "\"fruit\" is no key, but it is close to two of them. Give each key a weight (the\n"
           "tutorial's 0.6 / 0.4 / 0) and return the weighted sum of the values:\n";
    print_matrix(out, "weights for \"fruit\"", fruit_weights, {"fruit"}, keys, 1);
    const double fruit = weighted_lookup(fruit_weights, values);
    out << "lookup(\"fruit\") = ";
    for (std::size_t j = 0; j < keys.size(); ++j)
        out << (j ? " + " : "") << fixed(fruit_weights(0, j), 1) << "·" << fixed(values(j, 0), 0);
    out << " = " << fixed(fruit, 4) << "   (the tutorial: 8)\n";
    results.add_number("fruit_lookup", fruit);

    print_step(out, "Step 3: weights from word vectors — the attention formula");
    out << "Where do the weights come from? Give every key and query a vector (ours, chosen so\n"
           "that apple and banana point the same way and chair elsewhere). The dot product q·k\n"
           "scores how well a key matches; softmax turns the scores into weights that sum to 1:\n"
           "    attention(q, K, V) = softmax(q·Kᵀ)·V\n";
    print_matrix(out, "key vectors K", K, keys, {}, 1);
    print_matrix(out, "query vectors Q", Q, queries, {}, 1);
    const AttentionResult a = attention_with_scale(Q, K, values, 1.0);
    print_matrix(out, "scores Q·Kᵀ", a.scores, queries, keys, 2);
    print_matrix(out, "weights softmax(Q·Kᵀ)", a.weights, queries, keys);
    print_matrix(out, "result softmax(Q·Kᵀ)·V", a.output, queries, {"value"});
    out << "\"fruit\" now gets " << fixed(a.output(0, 0), 4) << ": mostly apple and banana, as the\n"
           "hand-picked weights gave 8, but the weights are computed, and chair keeps a little.\n";
    results.add("scores", a.scores);
    results.add("weights", a.weights);
    results.add_vector("attention_lookup", transpose(a.output));

    print_step(out, "Step 4: sharper scores bring the exact lookup back");
    const Matrix q = row_of(Q, static_cast<std::size_t>(sweep_query));
    out << "Multiply the scores of \"" << queries[sweep_query] << "\" by a growing factor s. The softmax\n"
           "weights approach one-hot and the result approaches the dictionary's exact value "
        << fixed(values(0, 0), 0) << ":\n";
    Matrix sweep(scales.cols, keys.size() + 2);
    for (std::size_t i = 0; i < scales.cols; ++i) {
        const AttentionResult s = attention_with_scale(q, K, values, scales(0, i));
        sweep(i, 0) = scales(0, i);
        for (std::size_t j = 0; j < keys.size(); ++j) sweep(i, j + 1) = s.weights(0, j);
        sweep(i, keys.size() + 1) = s.output(0, 0);
    }
    std::vector<std::string> columns = {"s"};
    for (const std::string& k : keys) columns.push_back("weight of " + k);
    columns.push_back("result");
    columns.push_back("|" + fixed(values(0, 0), 0) + " - result|");
    Table table(columns);
    for (std::size_t i = 0; i < sweep.rows; ++i) {
        std::vector<std::string> cells;
        for (std::size_t c = 0; c + 1 < sweep.cols; ++c) cells.push_back(general(sweep(i, c), c == 0 ? 3 : 6));
        const double result = sweep(i, sweep.cols - 1);
        cells.push_back(general(result, 15));
        cells.push_back(general(std::fabs(values(0, 0) - result), 2));
        table.add(cells);
    }
    table.print(out);
    out << "At s = " << fixed(scales(0, scales.cols - 1), 0) << " the result is "
        << (sweep(scales.cols - 1, keys.size() + 1) == values(0, 0) ? "exactly " : "")
        << fixed(sweep(scales.cols - 1, keys.size() + 1), 12)
        << ": a dictionary is attention with infinitely sharp scores.\n"
           "Chapter 2 shows why real attention keeps the scores from growing (the 1/√d_k scale).\n";
    results.add("sweep", sweep);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch01_dictionary_lookup",
                           "attention as a soft dictionary lookup: exact, weighted, softmax(q·Kᵀ)·V",
                           "03 §2.1.2 (the dictionary and \"fruit\"); the shop-search analogy in 01"};
    return run_chapter(argc, argv, info, walkthrough);
}
