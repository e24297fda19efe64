// ch05_positional_encoding — attention is blind to order; positional encodings fix that.
//
// Tutorial: 02 "位置编码" (integer index, [0,1] range, binary code, sinusoids, and their
// problems); 04 "位置编码" (the paper's formula, PE(pos + k) a linear function of PE(pos),
// embeddings × √d_model); 04's remark that attention alone loses the order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "model/attention/attention.h"
#include "model/positions/positional.h"
#include "report/chapter.h"
#include "report/heatmap.h"
#include "report/vector_measures.h"
#include "text/translate.h"

namespace {

struct Inputs {
    std::size_t d_model;
    Labels vocabulary;
    Matrix embedding;                    // (vocab x d_model)
    std::vector<std::size_t> token_ids;  // the sentence
    std::vector<std::size_t>
        permutation;  // the same sentence shuffled: position i gets token perm[i]
    std::size_t n;    // positions of the encodings shown
    std::size_t odd_d_model;
    std::vector<std::size_t> scaled_lengths;
    std::size_t binary_bits;
    std::vector<std::size_t> offsets, positions;  // PE(pos + offset) for every pair
};

void check_permutation(const DataFile& data, const std::vector<std::size_t>& perm, std::size_t n) {
    if (perm.size() != n)
        throw data.error("inputs.permutation", tr("expected {} positions, each once", n));
    std::vector<bool> seen(n, false);
    for (std::size_t p : perm) {
        if (seen[p]) throw data.error("inputs.permutation", tr("expected each position once"));
        seen[p] = true;
    }
}

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.d_model = data.size("inputs.d_model", 1, 4096);
    in.vocabulary = data.texts("inputs.vocabulary");
    in.embedding = data.matrix("inputs.embedding");
    in.token_ids = data.sizes("inputs.token_ids", 0, in.embedding.rows - 1);
    in.permutation = data.sizes("inputs.permutation", 0, in.token_ids.size() - 1);
    in.n = data.size("inputs.pe_positions", 5, 100000);
    in.odd_d_model = data.size("inputs.odd_d_model", 1, 4096);
    in.scaled_lengths = data.sizes("inputs.scaled_lengths", 1, 100000);
    in.binary_bits = data.size("inputs.binary_bits", 1, 62);
    in.offsets = data.sizes("inputs.offsets", 0, in.n - 1);
    in.positions = data.sizes("inputs.positions", 0, in.n - 1);
    if (in.embedding.cols != in.d_model)
        throw data.error("inputs.embedding", tr("expected {} columns (d_model)", in.d_model));
    if (in.vocabulary.size() != in.embedding.rows)
        throw data.error("inputs.vocabulary", tr("expected one word per row of inputs.embedding"));
    if (in.token_ids.size() > in.n)
        throw data.error("inputs.token_ids",
                         tr("expected at most inputs.pe_positions = {} tokens", in.n));
    check_permutation(data, in.permutation, in.token_ids.size());
    for (std::size_t k : in.offsets)
        for (std::size_t p : in.positions)
            if (p + k >= in.n)
                throw data.error(
                    "inputs.offsets",
                    tr("position + offset must stay below inputs.pe_positions = {}", in.n));
    return in;
}

Matrix rows_in_order(const Matrix& m, const std::vector<std::size_t>& order) {
    Matrix out(order.size(), m.cols);
    for (std::size_t r = 0; r < order.size(); ++r)
        std::copy(m.row(order[r]), m.row(order[r]) + m.cols, out.row(r));
    return out;
}

Labels in_order(const Labels& labels, const std::vector<std::size_t>& order) {
    Labels out;
    for (std::size_t i : order) out.push_back(labels[i]);
    return out;
}

Matrix self_attention(const Matrix& x) { return attention(x, x, x).output; }

// max − min of a matrix's entries (0 for none)
double spread(const Matrix& m) {
    if (m.empty()) return 0.0;
    const auto [lo, hi] = std::minmax_element(m.data.begin(), m.data.end());
    return *hi - *lo;
}

// "title: 0 1 2 3 …", the values wrapped under the first one
void show_column(Chapter& ch, const std::string& title, const Matrix& values) {
    std::string text;
    for (double x : values.data) text += general(x, 4) + " ";
    const std::string first = tr("{}: ", title);
    ch.say(text, first, std::string(display_width(first), ' '));
}

// The sentence's embeddings × √d_model, one row per token.
Matrix token_vectors(const Inputs& in) {
    return scale(rows_in_order(in.embedding, in.token_ids),
                 std::sqrt(static_cast<double>(in.d_model)));
}

void order_blindness(Chapter& ch, const Inputs& in) {
    const Matrix x = token_vectors(in), shuffled = rows_in_order(x, in.permutation);
    const Matrix out = self_attention(x), out_shuffled = self_attention(shuffled);
    const double moved = max_abs_diff(out_shuffled, rows_in_order(out, in.permutation));
    ch.step(tr("The problem: attention does not see order (04 位置编码; 05)"));
    const Labels words = in_order(in.vocabulary, in.token_ids);
    ch.show("attention_plain", "attention(x)", out, words);
    ch.show("attention_permuted", tr("attention(x shuffled)"), out_shuffled,
            in_order(words, in.permutation));
    const std::string gap = sci(moved);
    ch.say(tr(
        "The same rows in another order: max |attention(shuffled x) − shuffled attention(x)| = {}. "
        "A sentence and its anagram look identical to attention. 05 is right that the order comes "
        "back only through the position encodings added to the input.",
        gap));
    ch.correction(
        "04 位置编码",
        tr("\"the attention values are the same\" when words are swapped: not the "
           "same — permuted the same way (the outputs of the shuffled sentence are the old ones "
           "shuffled, to {}). Each token's output is unchanged, which is why the order is lost.",
           gap));
    ch.correction(
        "05", tr("\"formally no different from a fully connected layer\": a fully connected layer "
                 "over the sentence has a weight for every pair of positions, so it needs a fixed "
                 "length and sees the order; self-attention computes its weights from the tokens, "
                 "takes any length, and permuting its input permutes its output ({} above).",
                 gap));
}

void simple_schemes(Chapter& ch, const Inputs& in) {
    const Matrix ints = integer_positions(in.n);
    std::vector<Matrix> scaled;  // one column per length of in.scaled_lengths
    for (std::size_t length : in.scaled_lengths) scaled.push_back(scaled_positions(length));
    const Matrix bin = binary_positions(in.n, in.binary_bits), steps = neighbour_distances(bin);
    // the biggest jump: √(bits flipped) from pos to pos + 1
    const std::size_t at = steps.rows > 0 ? argmax(transpose(steps), 0) : 0;
    const long flipped = steps.rows > 0 ? std::lround(steps(at, 0) * steps(at, 0)) : 0;
    ch.step(tr("Four ways to write down a position (02 位置编码)"));
    ch.record("integer_positions", ints);
    show_column(ch, tr("1. integer index 0, 1, 2, …"), ints);
    ch.say(tr("unbounded: position {1} is {1} times position 1, and a longer sentence than any "
              "seen in training brings values never seen.",
              in.n - 1),
           "   ", "   ");
    ch.line(tr("2. scaled to [0, 1]: pos / (length − 1)"));
    for (std::size_t i = 0; i < scaled.size(); ++i) {
        const std::string length = std::to_string(in.scaled_lengths[i]);
        ch.record("scaled_positions_" + length, scaled[i]);
        show_column(ch, "   " + tr("length {}", in.scaled_lengths[i]), scaled[i]);
    }
    ch.say(tr("the step between neighbours depends on the length (1/(length − 1)): the same "
              "distance means different things in different sentences."),
           "   ", "   ");
    ch.record("binary_positions", bin);
    ch.record("binary_neighbour_distances", steps);
    ch.line(tr("3. binary code, {} bits (lowest bit first): bounded, but jumpy —", in.binary_bits));
    show_column(ch, "   " + tr("distance from pos to pos + 1"), steps);
    if (steps.rows > 0) {
        if (flipped > 1)
            ch.say(tr("going from {} to {} flips {} bits at once; going from 0 to 1 flips one.", at,
                      at + 1, flipped),
                   "   ", "   ");
        else
            ch.say(tr("here every step flips one bit: too few positions to see the jumps."), "   ",
                   "   ");
    }
    const std::uint64_t named = std::uint64_t(1) << std::min<std::size_t>(in.binary_bits, 63);
    if (in.binary_bits < 63 && named < in.n)  // positions the bits can name, 64 bits anywhere
        ch.say(
            tr("{} bits name only {} positions: from position {} on, the codes repeat.",
               in.binary_bits, named, named),
            "   ", "   ");
}

// The encoding of 64 positions in 128 dimensions, and how alike every two positions' rows are.
void pe_pictures(Chapter& ch, const Matrix& big) {
    ch.picture("ch05_pe.svg", heatmap_svg({tr("sinusoidal positional encoding"),
                                           big,
                                           {},
                                           {},
                                           Scale::Signed,
                                           Matrix(),
                                           tr("position"),
                                           tr("dimension")}));
    ch.picture("ch05_pe_similarity.svg",
               heatmap_svg({tr("PE·PEᵀ: how alike two positions' encodings are"),
                            matmul_bt(big, big),
                            {},
                            {},
                            Scale::Range,
                            Matrix(),
                            tr("position"),
                            tr("position")}));
}

void sinusoids(Chapter& ch, const Inputs& in) {
    const Matrix pe = sinusoidal_encoding(in.n, in.d_model);
    const Matrix norms = row_norms(pe), steps = neighbour_distances(pe);
    const Matrix odd = sinusoidal_encoding(in.n, in.odd_d_model);
    const Matrix big = sinusoidal_encoding(64, 128);
    ch.record("pe_norms", norms);
    ch.record("pe_neighbour_distances", steps);
    if (spread(norms) <= 1e-12 && spread(steps) <= 1e-12)
        ch.say(tr("4. sinusoids (d_model = {}): bounded in [−1, 1], every row has norm "
                  "√(d_model/2) = {}, and the step from pos to pos + 1 is the same everywhere:",
                  in.d_model, fixed(std::sqrt(static_cast<double>(in.d_model) / 2.0), 6)),
               "", "   ");
    else
        ch.say(tr("4. sinusoids (d_model = {}): bounded in [−1, 1]; with an odd d_model the last "
                  "sine has no cosine partner, so the rows' norms and the steps between "
                  "neighbours vary a little (with an even d_model both are the same everywhere):",
                  in.d_model),
               "", "   ");
    show_column(ch, "   " + tr("norms"), norms);
    show_column(ch, "   " + tr("distance from pos to pos + 1"), steps);
    ch.step(tr("The sinusoidal encoding of the paper (04 位置编码)"));
    ch.line("PE(pos, 2i)     = sin(pos / 10000^(2i/d_model))");
    ch.line("PE(pos, 2i + 1) = cos(pos / 10000^(2i/d_model))");
    ch.say(tr(
        "Column pair i turns round a circle at angular speed ω_i = 10000^(−2i/d_model): the first "
        "pair once every 2π ≈ 6.3 positions, the last almost not at all."));
    ch.show("pe", "PE", pe);
    ch.record("pe_odd", odd);
    ch.say(tr("An odd d_model (here {}) works too: the last column is a sine without its cosine.",
              in.odd_d_model));
    ch.shaded(tr("PE, positions 0-31 (rows) × dimensions 0-63 (columns)"),
              row_block(column_block(big, 0, 64), 0, 32));
    ch.say(tr(
        "Fast columns on the left flicker from row to row, slow ones on the right barely change: "
        "each position gets its own pattern, and nearby positions get similar ones."));
    pe_pictures(ch, big);
}

// max over the paired columns of |PE(pos)·M_offset − PE(pos + offset)|, a row per offset and a
// column per position of in.positions
Matrix rotation_residuals(const Inputs& in, const Matrix& pe) {
    const std::size_t paired =
        in.d_model - in.d_model % 2;  // an odd last column has no rotation partner
    Matrix residual(in.offsets.size(), in.positions.size());
    for (std::size_t a = 0; a < in.offsets.size(); ++a) {
        const Matrix M = offset_rotation(in.offsets[a], in.d_model);
        for (std::size_t b = 0; b < in.positions.size(); ++b) {
            const std::size_t p = in.positions[b];
            const Matrix moved = matmul(row_of(pe, p), M);
            double worst = 0.0;
            for (std::size_t c = 0; c < paired; ++c)
                worst = std::max(worst, std::fabs(moved(0, c) - pe(p + in.offsets[a], c)));
            residual(a, b) = worst;
        }
    }
    return residual;
}

// PE(pos)·PE(pos + k) for k = 0..4, a row per pos.
Matrix dots_by_offset(const Inputs& in, const Matrix& pe) {
    Matrix dots(in.n - 4, 5);
    for (std::size_t p = 0; p + 4 < in.n; ++p)
        for (std::size_t k = 0; k < 5; ++k)
            dots(p, k) = matmul_bt(row_of(pe, p), row_of(pe, p + k))(0, 0);
    return dots;
}

void rotation(Chapter& ch, const Inputs& in) {
    const Matrix pe = sinusoidal_encoding(in.n, in.d_model);
    const Matrix residual = rotation_residuals(in, pe), dots = dots_by_offset(in, pe);
    double rows_differ = 0;  // how far the rows of dots are from all being the same
    for (std::size_t k = 0; k < 5; ++k)
        rows_differ = std::max(rows_differ, spread(column_block(dots, k, 1)));
    const double worst = *std::max_element(residual.data.begin(), residual.data.end());
    ch.step(tr("PE(pos + k) is a rotation of PE(pos) that depends on k alone (04 位置编码)"));
    ch.say(
        tr("sin and cos of (pos + k)·ω follow from those of pos·ω by a 2x2 rotation by k·ω, so one "
           "block-diagonal matrix M_k moves every position k steps: PE(pos + k) = PE(pos)·M_k."));
    Table table({"k", "pos", "max |PE(pos)·M_k − PE(pos + k)|"});
    for (std::size_t a = 0; a < in.offsets.size(); ++a)
        for (std::size_t b = 0; b < in.positions.size(); ++b)
            table.add({std::to_string(in.offsets[a]), std::to_string(in.positions[b]),
                       sci(residual(a, b))});
    ch.record("rotation_residual", residual);
    ch.table(table);
    if (rows_differ <= 1e-12)
        ch.say(tr("So PE(pos)·PE(pos + k) depends on k only — each row below is the same:"));
    else
        ch.say(
            tr("So PE(pos)·PE(pos + k) depends on k only for the paired columns; here the "
               "unpaired last sine of an odd d_model makes the rows differ by up to {}:",
               sci(rows_differ)));
    ch.record("dot_by_offset", dots);
    ch.matrix("PE(pos)·PE(pos + k)", row_block(dots, 0, std::min<std::size_t>(6, dots.rows)), {},
              {"k=0", "k=1", "k=2", "k=3", "k=4"});
    ch.correction("04 位置编码",
                  tr("\"PE(pos + k) is a linear combination of PE(pos)\": right, and more — a "
                     "rotation, one 2x2 block per pair of columns by the angle k·ω_i, the same M_k "
                     "for every pos (checked above to {}). So with an even d_model the distance "
                     "between neighbouring positions is the same everywhere, unlike the binary "
                     "code's jumps (02's \"not continuous enough\").",
                     sci(worst)));
}

// The standard deviation of a matrix's entries.
double standard_deviation(const Matrix& m) {
    double sum = 0, squares = 0;
    for (double x : m.data) sum += x, squares += x * x;
    const double count = static_cast<double>(m.data.size());
    const double mean = sum / count;
    return std::sqrt(std::max(0.0, squares / count - mean * mean));
}

void embedding_plus_pe(Chapter& ch, const Inputs& in) {
    const double std_dev = standard_deviation(in.embedding);  // the data file's embeddings'
    const std::size_t n = in.token_ids.size();
    const Matrix pe = row_block(sinusoidal_encoding(in.n, in.d_model), 0, n);
    const Matrix embedded = add(token_vectors(in), pe);
    const Matrix with_pe = self_attention(embedded);
    const Matrix shuffled =
        self_attention(add(rows_in_order(token_vectors(in), in.permutation), pe));
    const double gap = max_abs_diff(shuffled, rows_in_order(with_pe, in.permutation));
    ch.step(tr("Embedding × √d_model + PE (04 位置编码)"));
    const std::string deviation = fixed(1 / std::sqrt(static_cast<double>(in.d_model)), 3);
    ch.say(
        tr("The paper multiplies the embeddings by √d_model before adding PE. Embeddings are "
           "initialised with a standard deviation of about 1/√d_model ({}; this data file's "
           "entries have {}), PE entries are of size 1: scaled, the token's identity and its "
           "position have comparable weight.",
           deviation, fixed(std_dev, 3)));
    ch.correction(
        "04 嵌入层",
        tr("\"× √d_model, perhaps because L2 regularisation keeps the weights small\": the "
           "paper gives no reason. What the numbers show: embeddings initialised with standard "
           "deviation 1/√d_model ({} here) are a √d_model-th of PE's entries; multiplied, token "
           "and position weigh alike.",
           deviation));
    ch.show("embedded", tr("embedding × √d_model + PE"), embedded,
            in_order(in.vocabulary, in.token_ids));
    ch.record("attention_with_pe", with_pe);
    ch.record("attention_permuted_with_pe", shuffled);
    if (gap > 1e-12)
        ch.say(
            tr("Shuffle the tokens now and the outputs are no longer a shuffle of the old ones: "
               "max gap {}.",
               fixed(gap, 4)));
    else
        ch.say(
            tr("Here the shuffle moves no token (inputs.permutation keeps every position), so "
               "there is nothing for the positions to tell apart: max gap {}.",
               sci(gap)));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    order_blindness(ch, in);
    simple_schemes(ch, in);
    sinusoids(ch, in);
    rotation(ch, in);
    embedding_plus_pe(ch, in);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch05_positional_encoding",
        N_("positional encodings: order blindness, four schemes, the paper's sinusoids"),
        N_("02 \"位置编码\"; 04 \"位置编码\""),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
