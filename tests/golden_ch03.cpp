// golden_ch03.cpp — masked attention against the oracle (PyTorch, additive and boolean masks).
#include <doctest/doctest.h>

#include "model/attention/attention.h"
#include "helpers.h"
#include "model/attention/masks.h"

TEST_CASE("ch03 golden: causal, padding, both, and the fully masked row") {
    const DataFile data = DataFile::load("data/ch03_masked_attention.json");
    const Matrix X = data.matrix("inputs.X");
    const std::size_t n = X.rows;
    const Matrix pad = padding_mask(n, data.flags("inputs.key_padding"));
    const Matrix left = padding_mask(n, data.flags("inputs.left_key_padding"));
    check_close(hidden_positions(causal_mask(n)), data, "causal_hidden");
    const AttentionResult c = attention(X, X, X, causal_mask(n));
    check_close(c.weights, data, "weights_causal");
    check_close(c.output, data, "output_causal");
    check_close(c.output, data, "prefix_outputs");  // row t of causal = attention over the prefix
    check_close(attention(X, X, X, pad).weights, data, "weights_padding");
    check_close(attention(X, X, X, add(causal_mask(n), pad)).output, data, "output_both");
    const AttentionResult l = attention(X, X, X, add(causal_mask(n), left));
    check_close(l.weights, data, "weights_left_padded_causal");
    check_close(l.output, data, "output_left_padded_causal");
}
