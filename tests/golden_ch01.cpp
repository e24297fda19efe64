// golden_ch01.cpp — ch01's formulas against the oracle's values in
// data/ch01_dictionary_lookup.json.
#include <doctest/doctest.h>

#include "model/attention/attention.h"
#include "core/matmul.h"
#include "helpers.h"

TEST_CASE("ch01 golden: the weighted lookup and attention as a lookup") {
    const DataFile data = DataFile::load("data/ch01_dictionary_lookup.json");
    const Matrix values = transpose(data.vector("inputs.values"));
    const Matrix weights = data.vector("inputs.fruit_weights");
    CHECK(matmul(weights, values)(0, 0) ==
          doctest::Approx(data.number("expected.fruit_lookup")).epsilon(1e-12));
    CHECK(data.number("expected.fruit_lookup") == 8);  // the tutorial's number

    const AttentionResult a = attention_with_scale(data.matrix("inputs.query_vectors"),
                                                   data.matrix("inputs.key_vectors"), values, 1.0);
    check_close(a.scores, data, "scores");
    check_close(a.weights, data, "weights");
    check_close(transpose(a.output), data, "attention_lookup");
}

TEST_CASE("ch01 golden: sharper scores approach the exact lookup") {
    const DataFile data = DataFile::load("data/ch01_dictionary_lookup.json");
    const Matrix values = transpose(data.vector("inputs.values"));
    const Matrix q =
        row_of(data.matrix("inputs.query_vectors"), data.size("inputs.sweep_query", 0, 1 << 20));
    const Matrix K = data.matrix("inputs.key_vectors");
    const Matrix scales = data.vector("inputs.sweep_scales");
    const Matrix sweep = data.matrix("expected.sweep");
    for (std::size_t i = 0; i < scales.cols; ++i) {
        const AttentionResult r = attention_with_scale(q, K, values, scales(0, i));
        for (std::size_t j = 0; j < K.rows; ++j)
            CHECK(r.weights(0, j) == doctest::Approx(sweep(i, j + 1)).epsilon(1e-12));
        CHECK(r.output(0, 0) == doctest::Approx(sweep(i, K.rows + 1)).epsilon(1e-12));
    }
    CHECK(sweep(sweep.rows - 1, K.rows + 1) == values(0, 0));  // exactly the dictionary value
}
