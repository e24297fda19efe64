// ch05_positional_encoding — attention is blind to order; positional encodings fix that.
//
// Tutorial: 02 "位置编码" (integer index, [0,1] range, binary code, sinusoids, and their
// problems); 04 "位置编码" (the paper's formula, PE(pos + k) a linear function of PE(pos),
// embeddings × √d_model); 04's remark that attention alone loses the order.
#include <cmath>
#include <string>

#include "attention.h"
#include "chapter.h"
#include "positional.h"
#include "print.h"
#include "svg.h"

namespace {

Matrix rows_in_order(const Matrix& m, const std::vector<long>& order) {
    Matrix out(order.size(), m.cols);
    for (std::size_t r = 0; r < order.size(); ++r)
        for (std::size_t c = 0; c < m.cols; ++c) out(r, c) = m(static_cast<std::size_t>(order[r]), c);
    return out;
}

Labels in_order(const Labels& labels, const std::vector<long>& order) {
    Labels out;
    for (long i : order) out.push_back(labels[static_cast<std::size_t>(i)]);
    return out;
}

// The largest difference between attention(permuted x) and the permuted attention(x).
double permutation_gap(const Matrix& x, const std::vector<long>& perm) {
    const Matrix a = attention(x, x, x).output;
    return max_abs_diff(attention(rows_in_order(x, perm), rows_in_order(x, perm), rows_in_order(x, perm)).output,
                        rows_in_order(a, perm));
}

void show_column(std::ostream& out, const std::string& title, const Matrix& values) {
    out << title << ":";
    for (double x : values.data) out << " " << general(x, 4);
    out << "\n";
}

void walkthrough(const DataFile& data, const Options&, std::ostream& out, Results& results) {
    const std::size_t d = static_cast<std::size_t>(data.integer("inputs.d_model", 1, 4096));
    const Labels vocabulary = data.texts("inputs.vocabulary");
    const Matrix E = data.matrix("inputs.embedding");
    const std::vector<long> ids = data.integers("inputs.token_ids", 0, static_cast<long>(E.rows) - 1);
    const std::vector<long> perm = data.integers("inputs.permutation", 0, static_cast<long>(ids.size()) - 1);
    const std::size_t n = static_cast<std::size_t>(data.integer("inputs.pe_positions", 2, 100000));
    const std::size_t odd_d = static_cast<std::size_t>(data.integer("inputs.odd_d_model", 1, 4096));
    const std::vector<long> lengths = data.integers("inputs.scaled_lengths", 1, 100000);
    const std::size_t bits = static_cast<std::size_t>(data.integer("inputs.binary_bits", 1, 62));
    const std::vector<long> offsets = data.integers("inputs.offsets", 0, static_cast<long>(n) - 1);
    const std::vector<long> positions = data.integers("inputs.positions", 0, static_cast<long>(n) - 1);
    if (E.cols != d) throw data.error("inputs.embedding", "expected " + std::to_string(d) + " columns (d_model)");
    if (vocabulary.size() != E.rows) throw data.error("inputs.vocabulary", "expected one word per row of inputs.embedding");
    if (ids.size() > n) throw data.error("inputs.token_ids", "expected at most inputs.pe_positions = " + std::to_string(n) + " tokens");
    if (perm.size() != ids.size()) throw data.error("inputs.permutation", "expected " + std::to_string(ids.size()) + " positions, each once");
    std::vector<bool> seen(ids.size(), false);
    for (long p : perm) {
        if (seen[static_cast<std::size_t>(p)]) throw data.error("inputs.permutation", "expected each position once");
        seen[static_cast<std::size_t>(p)] = true;
    }
    for (long k : offsets)
        for (long p : positions)
            if (static_cast<std::size_t>(p + k) >= n)
                throw data.error("inputs.offsets", "position + offset must stay below inputs.pe_positions = " + std::to_string(n));
    if (n < 5) throw data.error("inputs.pe_positions", "expected at least 5");
    const Labels words = in_order(vocabulary, ids);
    const double sqrt_d = std::sqrt(static_cast<double>(d));

    print_step(out, "The problem: attention does not see order");
    const Matrix x = scale(rows_in_order(E, ids), sqrt_d);  // token embeddings × √d_model
    const AttentionResult plain = attention(x, x, x);
    const Matrix xp = rows_in_order(x, perm);
    const AttentionResult shuffled = attention(xp, xp, xp);
    print_matrix(out, "attention(x)", plain.output, words);
    print_matrix(out, "attention(x shuffled)", shuffled.output, in_order(words, perm));
    out << "The same rows in another order: max |attention(shuffled x) − shuffled attention(x)| = "
        << sci(permutation_gap(x, perm)) << ".\nA sentence and its anagram look identical to attention.\n";
    results.add("attention_plain", plain.output);
    results.add("attention_permuted", shuffled.output);

    print_step(out, "Four ways to write down a position");
    const Matrix ints = integer_positions(n);
    show_column(out, "1. integer index 0, 1, 2, …", ints);
    out << "   unbounded: position " << n - 1 << " is " << n - 1 << " times position 1, and a longer sentence than\n"
           "   any seen in training brings values never seen.\n";
    results.add("integer_positions", ints);
    out << "2. scaled to [0, 1]: pos / (length − 1)\n";
    for (long len : lengths) {
        const Matrix s = scaled_positions(static_cast<std::size_t>(len));
        show_column(out, "   length " + std::to_string(len), s);
        results.add("scaled_positions_" + std::to_string(len), s);
    }
    out << "   the step between neighbours depends on the length (1/(length − 1)): the same distance\n"
           "   means different things in different sentences.\n";
    const Matrix bin = binary_positions(n, bits);
    const Matrix bin_steps = neighbour_distances(bin);
    out << "3. binary code, " << bits << " bits (lowest bit first): bounded, but jumpy —\n";
    show_column(out, "   distance from pos to pos + 1", bin_steps);
    out << "   going from 7 to 8 flips four bits at once; going from 8 to 9 flips one.\n";
    results.add("binary_positions", bin);
    results.add("binary_neighbour_distances", bin_steps);
    const Matrix pe = sinusoidal_encoding(n, d);
    const Matrix norms = row_norms(pe), steps = neighbour_distances(pe);
    out << "4. sinusoids (d_model = " << d << "): bounded in [−1, 1], every row has norm √(d/2) = "
        << fixed(std::sqrt(d / 2.0), 6) << ",\n   and the step from pos to pos + 1 is the same everywhere:\n";
    show_column(out, "   norms", norms);
    show_column(out, "   distance from pos to pos + 1", steps);
    results.add("pe_norms", norms);
    results.add("pe_neighbour_distances", steps);

    print_step(out, "The sinusoidal encoding of the paper");
    out << "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))\n"
           "Column pair i turns round a circle at angular speed ω_i = 10000^(−2i/d_model): the first\n"
           "pair once every 2π ≈ 6.3 positions, the last almost not at all.\n";
    print_matrix(out, "PE", pe);
    results.add("pe", pe);
    const Matrix pe_odd = sinusoidal_encoding(n, odd_d);
    out << "An odd d_model (here " << odd_d << ") works too: the last column is a sine without its cosine.\n";
    results.add("pe_odd", pe_odd);
    const Matrix big = sinusoidal_encoding(64, 128);
    print_shaded(out, "PE, positions 0-31 (rows) × dimensions 0-63 (columns)", row_block(column_block(big, 0, 64), 0, 32));
    out << "Fast columns on the left flicker from row to row, slow ones on the right barely change:\n"
           "each position gets its own pattern, and nearby positions get similar ones.\n";

    print_step(out, "PE(pos + k) is a rotation of PE(pos) that depends on k alone");
    out << "sin and cos of (pos + k)·ω follow from those of pos·ω by a 2x2 rotation by k·ω, so one\n"
           "block-diagonal matrix M_k moves every position k steps: PE(pos + k) = PE(pos)·M_k.\n";
    const std::size_t paired = d - d % 2;  // an odd last column has no rotation partner
    Matrix residual(offsets.size(), positions.size());
    Table rot({"k", "pos", "max |PE(pos)·M_k − PE(pos + k)|"});
    for (std::size_t a = 0; a < offsets.size(); ++a) {
        const Matrix M = offset_rotation(static_cast<std::size_t>(offsets[a]), d);
        for (std::size_t b = 0; b < positions.size(); ++b) {
            const std::size_t p = static_cast<std::size_t>(positions[b]);
            const Matrix moved = matmul(row_of(pe, p), M);
            double worst = 0.0;
            for (std::size_t c = 0; c < paired; ++c) worst = std::max(worst, std::fabs(moved(0, c) - pe(p + offsets[a], c)));
            residual(a, b) = worst;
            rot.add({std::to_string(offsets[a]), std::to_string(p), sci(worst)});
        }
    }
    rot.print(out);
    results.add("rotation_residual", residual);
    out << "So PE(pos)·PE(pos + k) depends on k only — each row below is the same:\n";
    Matrix dots(n - 4, 5);
    for (std::size_t p = 0; p + 4 < n; ++p)
        for (std::size_t k = 0; k < 5; ++k) dots(p, k) = matmul(row_of(pe, p), transpose(row_of(pe, p + k)))(0, 0);
    print_matrix(out, "PE(pos)·PE(pos + k)", row_block(dots, 0, std::min<std::size_t>(6, dots.rows)), {},
                 {"k=0", "k=1", "k=2", "k=3", "k=4"});
    results.add("dot_by_offset", dots);

    print_step(out, "Embedding × √d_model + PE");
    out << "The paper multiplies the embeddings by √d_model before adding PE. Embedding entries start\n"
           "with a standard deviation of about 1/√d_model (here " << fixed(1 / sqrt_d, 3)
        << "), PE entries are of size 1: scaled, the token's\nidentity and its position have comparable weight.\n";
    const Matrix embedded = add(x, row_block(pe, 0, ids.size()));
    print_matrix(out, "embedding × √d_model + PE", embedded, words);
    results.add("embedded", embedded);
    const AttentionResult with_pe = attention(embedded, embedded, embedded);
    const Matrix xp_pe = add(xp, row_block(pe, 0, ids.size()));
    const AttentionResult shuffled_pe = attention(xp_pe, xp_pe, xp_pe);
    out << "Shuffle the tokens now and the outputs are no longer a shuffle of the old ones: max gap "
        << fixed(max_abs_diff(shuffled_pe.output, rows_in_order(with_pe.output, perm)), 4) << ".\n";
    results.add("attention_with_pe", with_pe.output);
    results.add("attention_permuted_with_pe", shuffled_pe.output);

    results.add_figure("ch05_pe.svg", {"sinusoidal positional encoding: positions × dimensions", big, {}, {}, true});
    results.add_figure("ch05_pe_similarity.svg", {"PE·PEᵀ: similarity of positions", matmul(big, transpose(big)), {}, {}, true});
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch05_positional_encoding",
                           "positional encodings: order blindness, four schemes, the paper's sinusoids",
                           "02 \"位置编码\"; 04 \"位置编码\"", {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
