// golden_ch04.cpp — multi-head attention against torch.nn.MultiheadAttention (float64).
#include <doctest/doctest.h>

#include "helpers.h"
#include "model/attention/attention.h"
#include "model/attention/masks.h"
#include "model/multi_head/multi_head.h"

static MultiHeadWeights weights_of(const DataFile& data, bool bias) {
    MultiHeadWeights w;
    w.n_heads = data.size("inputs.n_heads", 0, 1 << 20);
    w.W_Q = data.matrix("inputs.W_Q");
    w.W_K = data.matrix("inputs.W_K");
    w.W_V = data.matrix("inputs.W_V");
    w.W_O = data.matrix("inputs.W_O");
    if (bias) {
        w.b_Q = data.vector("inputs.b_Q");
        w.b_K = data.vector("inputs.b_K");
        w.b_V = data.vector("inputs.b_V");
        w.b_O = data.vector("inputs.b_O");
    }
    return w;
}

TEST_CASE("ch04 golden: nn.MultiheadAttention, self, masked, cross and bias-free") {
    for (const char* path : {"data/ch04_multi_head_attention.json",
                             "tests/data/ch04_multi_head_attention.other.json"}) {
        CAPTURE(path);
        const DataFile data = DataFile::load(path);
        const MultiHeadWeights w = weights_of(data, true);
        const Matrix x = data.matrix("inputs.x"), src = data.matrix("inputs.source");
        MultiHeadCache self;
        check_close(multi_head_attention(x, x, w, Matrix(), &self), data, "output_self");
        check_close(self.heads[1].weights, data, "weights_self_head1");
        check_close(multi_head_attention_per_head(x, x, w), data, "output_self");
        const Matrix mask =
            add(causal_mask(x.rows), padding_mask(x.rows, data.flags("inputs.key_padding")));
        check_close(multi_head_attention(x, x, w, mask), data, "output_masked");
        MultiHeadCache cross;
        const Matrix source_mask = padding_mask(x.rows, data.flags("inputs.source_key_padding"));
        check_close(multi_head_attention(x, src, w, source_mask, &cross), data, "output_cross");
        check_close(cross.heads[0].weights, data, "weights_cross_head0");
        check_close(multi_head_attention(x, x, weights_of(data, false)), data, "output_nobias");
    }
}
