// test_matrix.cpp — the Matrix type and its operations, including every error path.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/matmul.h"
#include "core/matrix.h"
#include "core/product_loops.h"
#include "core/random.h"
#include "fast/fast_product.h"
#include "fast/packed_matmul.h"
#include "fast/tiles.h"

static std::string message_of(const std::function<void()>& f) {
    try { f(); } catch (const std::exception& e) { return e.what(); }
    return "(no exception)";
}

TEST_CASE("a matrix is built from nested lists, row-major") {
    const Matrix m{{1, 2, 3}, {4, 5, 6}};
    CHECK(m.rows == 2);
    CHECK(m.cols == 3);
    CHECK(m(1, 0) == 4);
    CHECK(m.data[4] == 5);  // row 1, column 1 of a 3-wide matrix
    CHECK(Matrix(2, 3, 7.0).data == std::vector<double>(6, 7.0));
}

TEST_CASE("ragged nested lists and out-of-range indices are errors") {
    CHECK_THROWS_AS(Matrix({{1, 2}, {3}}), std::invalid_argument);
    Matrix m(2, 2);
    CHECK_THROWS_AS(m.at(2, 0), std::out_of_range);
    CHECK_THROWS_AS(m.at(0, 2), std::out_of_range);
    CHECK(message_of([&] { m.at(0, 5); }) == "Matrix::at(0, 5) outside (2x2)");
    m.at(1, 1) = 3;
    CHECK(m(1, 1) == 3);
}

TEST_CASE("matmul multiplies, and names both shapes when they do not fit") {
    const Matrix a{{1, 2}, {3, 4}, {5, 6}};
    const Matrix b{{1, 0, -1}, {2, 1, 0}};
    const Matrix c = matmul(a, b);
    const Matrix want{{5, 2, -1}, {11, 4, -3}, {17, 6, -5}};
    CHECK(c.data == want.data);
    CHECK(message_of([] { matmul(Matrix(3, 5), Matrix(4, 3)); }) ==
          "matmul: (3x5)·(4x3): inner dimensions differ");
    CHECK_THROWS_AS(matmul_naive(Matrix(3, 5), Matrix(4, 3)), std::invalid_argument);
}

TEST_CASE("the fast products agree with the naive loop to the last bit, across every block edge") {
    using kernel::KB, kernel::MR, kernel::NB, kernel::NR;
    MESSAGE("the register tile here: ", std::string(kernel::vector_unit), ", ", MR, " x ", NR);
    Random rng(7);
    // Shapes around this machine's tile (fast/tile_shape.h), so that every edge is crossed
    // whichever shape the build chose. small (b read in place): 17 x 31 x 13; 70 x 300 x 45;
    // 1 x 300 x 70 (one row, as in decoding); 3 x 288 x 40. blocked (b packed): 2·MR + 1 rows
    // (two tiles and one row left over); inner 2·KB + 88 (three k-blocks, the last short);
    // 3·NR + 4 columns (three strips and a narrow one); NB + 6 columns (past the panel of b).
    // matmul_bt computes a large product as (b·aᵀ)ᵀ when the result is smaller than b (an output
    // projection's shape: 20 x 300 x 1100), else packs bᵀ (200 x 64 x 70); matmul_at computes
    // one whose a is larger than b as (bᵀ·a)ᵀ (200 x 64 x 70, and 300 x inner x 70 across
    // k-blocks and groups).
    const std::size_t tiles = 2 * MR + 1, inner = 2 * KB + 88;
    for (const auto& shape :
         {std::vector<std::size_t>{17, 31, 13}, std::vector<std::size_t>{70, 300, 45},
          std::vector<std::size_t>{tiles, inner, 3 * NR + 4}, std::vector<std::size_t>{MR, 64, 64},
          std::vector<std::size_t>{MR + 1, 64, NB + 6}, std::vector<std::size_t>{1, 300, 70},
          std::vector<std::size_t>{20, 300, 1100}, std::vector<std::size_t>{200, 64, 70},
          std::vector<std::size_t>{3, 288, 40}, std::vector<std::size_t>{tiles, 70, 4 * NR},
          std::vector<std::size_t>{300, inner, 70}}) {
        CAPTURE(shape[0]);
        CAPTURE(shape[1]);
        CAPTURE(shape[2]);
        Matrix a(shape[0], shape[1]), b(shape[1], shape[2]);
        for (double& x : a.data) x = rng.normal();
        for (double& x : b.data) x = rng.normal();
        const Matrix want = matmul_naive(a, b);
        // same products, summed in the same order: the results agree exactly
        CHECK(max_abs_diff(fast_product(a, false, b, false), want) == 0.0);
        CHECK(max_abs_diff(fast_product(transpose(a), true, transpose(b), true), want) == 0.0);
        CHECK(max_abs_diff(matmul(a, b), want) == 0.0);
        CHECK(max_abs_diff(matmul_bt(a, transpose(b)), want) == 0.0);  // b read transposed in place
        CHECK(max_abs_diff(matmul_at(transpose(a), b), want) == 0.0);  // a read transposed in place
    }
}

TEST_CASE("a packed table gives the same products as the naive loop, to the last bit") {
    Random rng(11);
    // rows of a: one (decoding), a few, a whole tile and one more; columns of bᵀ: fewer than a
    // strip, and three strips with 5 left over
    const std::size_t mr = kernel::MR, nr = kernel::NR;
    for (const auto& shape : {std::vector<std::size_t>{1, 40, nr - 1}, std::vector<std::size_t>{3, 64, 101},
                              std::vector<std::size_t>{mr + 1, 33, 3 * nr + 5}}) {
        CAPTURE(shape[0]);
        CAPTURE(shape[2]);
        Matrix a(shape[0], shape[1]), table(shape[2], shape[1]);  // table: (cols x inner), as E
        for (double& x : a.data) x = rng.normal();
        for (double& x : table.data) x = rng.normal();
        const PreparedTable packed = pack_transposed(table);
        CHECK(packed.inner == shape[1]);
        CHECK(packed.cols == shape[2]);
        CHECK(max_abs_diff(matmul_packed(a, packed), matmul_naive(a, transpose(table))) == 0.0);
    }
    CHECK(message_of([] { matmul_packed(Matrix(2, 5), pack_transposed(Matrix(3, 4))); }) ==
          "matmul_packed: (2x5)·(4x3): inner dimensions differ");
}

namespace {
int products_counted = 0;
Matrix counted_product(const Matrix& a, bool a_t, const Matrix& b, bool b_t) {
    ++products_counted;
    return fast_product(a, a_t, b, b_t);
}
}  // namespace

TEST_CASE("every product runs through the loops plugged in; matmul_naive never does") {
    const ProductLoops before = product_loops();
    plug_in_products({"counted", counted_product, before.prepare, before.prepared_product});
    const Matrix a{{1, 2}, {3, 4}}, b{{5, 6}, {7, 8}};
    const Matrix ab = matmul(a, b), abt = matmul_bt(a, b), atb = matmul_at(a, b);
    CHECK(products_counted == 3);
    CHECK(matmul_naive(a, b).data == ab.data);
    CHECK(products_counted == 3);
    CHECK(std::string(product_loops().name) == "counted");
    plug_in_products(before);
    CHECK(max_abs_diff(abt, matmul_naive(a, transpose(b))) == 0.0);
    CHECK(max_abs_diff(atb, matmul_naive(transpose(a), b)) == 0.0);
    // a table prepared by the plain loop (before the fast loops were plugged in) is read as it is
    const PreparedTable plain{2, 2, b, {}};
    CHECK(max_abs_diff(matmul_bt_prepared(a, plain), abt) == 0.0);
}

TEST_CASE("the naive loop is the definition: one hand-computed product") {
    // c(0,1) = 1·2 + 2·(−1) + 3·4 = 12: every entry by hand
    const Matrix a{{1, 2, 3}, {0, -1, 2}}, b{{1, 2}, {0, -1}, {5, 4}};
    CHECK(matmul_naive(a, b).data == std::vector<double>{16, 12, 10, 9});
}

TEST_CASE("blocks: a submatrix, written back; columns side by side") {
    const Matrix a{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    CHECK(submatrix(a, 1, 2, 1, 2).data == std::vector<double>{5, 6, 8, 9});
    Matrix z(3, 3);
    set_submatrix(z, 1, 0, Matrix{{1, 2}, {3, 4}});
    CHECK(z.data == std::vector<double>{0, 0, 0, 1, 2, 0, 3, 4, 0});
    CHECK_THROWS_AS(submatrix(a, 2, 2, 0, 1), std::out_of_range);
    CHECK_THROWS_AS(set_submatrix(z, 0, 2, Matrix(1, 2)), std::out_of_range);
    CHECK(concat_columns({column_block(a, 0, 1), column_block(a, 1, 2)}).data == a.data);
}

TEST_CASE("transpose, add, scale and map") {
    const Matrix a{{1, 2, 3}, {4, 5, 6}};
    const Matrix t = transpose(a);
    CHECK(t.rows == 3);
    CHECK(t(2, 1) == 6);
    CHECK(add(a, a).data == scale(a, 2.0).data);
    CHECK(message_of([&] { add(a, t); }) == "add: (2x3) and (3x2): shapes differ");
    CHECK(map(a, [](double x) { return x * x; })(1, 2) == 36);
    CHECK(row_of(a, 1).data == std::vector<double>{4, 5, 6});
    CHECK_THROWS_AS(row_of(a, 2), std::out_of_range);
    CHECK(max_abs_diff(a, add(a, Matrix{{0, 0, 0.5}, {0, -2, 0}})) == 2.0);
}

TEST_CASE("softmax: rows sum to 1, and a hand-computed row") {
    const Matrix p = softmax_rows(Matrix{{0, std::log(3.0)}, {1, 1}});
    CHECK(p(0, 0) == doctest::Approx(0.25).epsilon(1e-15));
    CHECK(p(0, 1) == doctest::Approx(0.75).epsilon(1e-15));
    CHECK(p(1, 0) == 0.5);
}

TEST_CASE("softmax is stable: logits of ±1000 stay finite") {
    const Matrix p = softmax_rows(Matrix{{1000, 999, -1000}, {-1000, -1000, -1001}});
    for (double x : p.data) CHECK(std::isfinite(x));
    for (std::size_t r = 0; r < 2; ++r)
        CHECK(p(r, 0) + p(r, 1) + p(r, 2) == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(p(0, 0) == doctest::Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-15));
    CHECK(p(1, 0) == doctest::Approx(p(1, 1)).epsilon(1e-15));
}

TEST_CASE("softmax: -inf gets weight 0, and a row of only -inf gives zeros, not NaN") {
    const double inf = std::numeric_limits<double>::infinity();
    const Matrix p = softmax_rows(Matrix{{1, -inf, 1}, {-inf, -inf, -inf}});
    CHECK(p(0, 1) == 0.0);
    CHECK(p(0, 0) == 0.5);
    CHECK(p.row(1)[0] == 0.0);
    CHECK(p.row(1)[1] == 0.0);
    CHECK(p.row(1)[2] == 0.0);
}

TEST_CASE("softmax: masked scores change nothing of the others' weights, to the last bit") {
    // a row with −∞ before, between and after its scores (as causal and padding masks leave
    // them) weighs its scores exactly as the row of those scores alone
    const double inf = std::numeric_limits<double>::infinity();
    Random rng(23);
    for (std::size_t trial = 0; trial < 200; ++trial) {
        const std::size_t n = 1 + rng.next() % 40, before = rng.next() % 5, after = rng.next() % 5;
        std::vector<double> scores(n);
        for (double& s : scores) s = 6 * rng.normal();
        Matrix masked(1, before + n + 2 * after, -inf), alone(1, n);
        for (std::size_t i = 0; i < n; ++i)
            masked(0, before + i) = scores[i], alone(0, i) = scores[i];
        if (n > 2) masked(0, before + 1) = -inf, alone(0, 1) = -inf;  // one masked between
        const Matrix p = softmax_rows(masked), q = softmax_rows(alone);
        std::size_t same = 0;
        for (std::size_t i = 0; i < n; ++i) same += p(0, before + i) == q(0, i);
        CHECK(same == n);
        double outside = 0;
        for (std::size_t c = 0; c < before; ++c) outside += p(0, c);
        for (std::size_t c = before + n; c < masked.cols; ++c) outside += p(0, c);
        CHECK(outside == 0.0);
    }
}
