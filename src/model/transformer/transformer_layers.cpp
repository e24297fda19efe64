// transformer_layers.cpp — residual connections, the encoder layer and the decoder layer,
// forward and backward. Each backward undoes its forward line by line, in reverse order.
#include "model/transformer/transformer_layers.h"
#include "model/multi_head/attending.h"
#include "model/multi_head/multi_head.h"
#include "model/transformer/caches.h"
#include "model/transformer/norms.h"

#include <functional>

Matrix residual(const Matrix& x, const Norm& norm, bool norm_first, NormCache& nc,
                const Sublayer& sublayer) {
    if (norm_first) return add(x, sublayer(normalize(x, norm, &nc)));  // x + Sublayer(Norm(x))
    return normalize(add(x, sublayer(x)), norm, &nc);                  // Norm(x + Sublayer(x))
}

namespace {

Matrix residual_backward(const Matrix& d_out, const Norm& norm, bool norm_first,
                         const NormCache& nc, Norm& norm_grad, const Sublayer& sublayer_backward) {
    if (norm_first) {  // out = x + S(N(x))  ->  dx = d_out + N'(S'(d_out))
        Matrix dx = d_out;
        add_to(dx, normalize_backward(sublayer_backward(d_out), norm, nc, norm_grad));
        return dx;
    }
    // out = N(x + S(x))  ->  g = N'(d_out), dx = g + S'(g)
    const Matrix g = normalize_backward(d_out, norm, nc, norm_grad);
    Matrix dx = g;
    add_to(dx, sublayer_backward(g));
    return dx;
}

// Self-attention read x as queries and as keys and values: both gradients flow into x.
Matrix self_attention_backward(const Matrix& d, const MultiHeadWeights& w, const MultiHeadCache& c,
                               MultiHeadWeights& g) {
    MultiHeadInputGrads in = multi_head_attention_backward(d, w, c, g);
    add_to(in.dx_q, in.dx_kv);
    return in.dx_q;
}

}  // namespace

Matrix encoder_layer(const Matrix& x, const EncoderLayer& L, const Attending& self,
                     const TransformerConfig& config, EncoderLayerCache* cache, KeptKV* kept) {
    const bool norm_first = config.norm_first;
    EncoderLayerCache local;
    EncoderLayerCache& c = cache ? *cache : local;
    // what the sublayers keep for a backward pass, only when there will be one (decoding would
    // otherwise copy every kept key and value at every step)
    const Matrix h = residual(x, L.norm1, norm_first, c.norm1, [&](const Matrix& in) {
        return multi_head_attention(in, in, L.self_attn, self, cache ? &c.self_attn : nullptr,
                                    kept);
    });
    return residual(h, L.norm2, norm_first, c.norm2, [&](const Matrix& in) {
        return feed_forward(in, L.ffn, cache ? &c.ffn : nullptr);
    });
}

Matrix encoder_layer_backward(const Matrix& d_out, const EncoderLayer& L,
                              const EncoderLayerCache& c, const TransformerConfig& config,
                              EncoderLayer& g) {
    const bool norm_first = config.norm_first;
    const Matrix dh = residual_backward(
        d_out, L.norm2, norm_first, c.norm2, g.norm2,
        [&](const Matrix& d) { return feed_forward_backward(d, L.ffn, c.ffn, g.ffn); });
    return residual_backward(dh, L.norm1, norm_first, c.norm1, g.norm1, [&](const Matrix& d) {
        return self_attention_backward(d, L.self_attn, c.self_attn, g.self_attn);
    });
}

Matrix decoder_layer(const Matrix& y, const Matrix& memory, const DecoderLayer& L,
                     const Attending& self, const Attending& cross, const TransformerConfig& config,
                     DecoderLayerCache* cache, LayerKV* kv) {
    const bool norm_first = config.norm_first;
    DecoderLayerCache local;
    DecoderLayerCache& c = cache ? *cache : local;
    // masked self-attention: each target position sees itself and the positions before it
    Matrix h = residual(y, L.norm1, norm_first, c.norm1, [&](const Matrix& in) {
        return multi_head_attention(in, in, L.self_attn, self, cache ? &c.self_attn : nullptr,
                                    kv ? &kv->self : nullptr);
    });
    // cross-attention: queries from the decoder, keys and values from the encoder's memory
    h = residual(h, L.norm2, norm_first, c.norm2, [&](const Matrix& in) {
        return multi_head_attention(in, memory, L.cross_attn, cross,
                                    cache ? &c.cross_attn : nullptr, kv ? &kv->cross : nullptr);
    });
    return residual(h, L.norm3, norm_first, c.norm3, [&](const Matrix& in) {
        return feed_forward(in, L.ffn, cache ? &c.ffn : nullptr);
    });
}

Matrix decoder_layer_backward(const Matrix& d_out, const DecoderLayer& L,
                              const DecoderLayerCache& c, const TransformerConfig& config,
                              DecoderLayer& g, Matrix& d_memory) {
    const bool norm_first = config.norm_first;
    Matrix dh = residual_backward(
        d_out, L.norm3, norm_first, c.norm3, g.norm3,
        [&](const Matrix& d) { return feed_forward_backward(d, L.ffn, c.ffn, g.ffn); });
    dh = residual_backward(dh, L.norm2, norm_first, c.norm2, g.norm2, [&](const Matrix& d) {
        const MultiHeadInputGrads in =
            multi_head_attention_backward(d, L.cross_attn, c.cross_attn, g.cross_attn);
        add_to(d_memory, in.dx_kv);  // the keys and values came from the memory
        return in.dx_q;
    });
    return residual_backward(dh, L.norm1, norm_first, c.norm1, g.norm1, [&](const Matrix& d) {
        return self_attention_backward(d, L.self_attn, c.self_attn, g.self_attn);
    });
}
