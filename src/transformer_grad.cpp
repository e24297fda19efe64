// transformer_grad.cpp — backward through the encoder-decoder: each function undoes the
// forward function of the same name in transformer.cpp, in reverse order.
#include "transformer_grad.h"

#include <cmath>
#include <functional>

#include "attention_grad.h"
#include "layers_grad.h"
#include "model_io.h"

Transformer zeros_like(const Transformer& model) {
    Transformer z = model;
    for (const auto& p : named_parameters(z)) std::fill(p.second->data.begin(), p.second->data.end(), 0.0);
    return z;
}

Tokens decoder_input_of(const Transformer& m, const Tokens& target) {
    Tokens in = {m.config.bos_id};
    in.insert(in.end(), target.begin(), target.end() - 1);
    return in;
}

namespace {

// Undoes residual() of transformer.cpp.
Matrix residual_backward(const Matrix& d_out, const LayerNorm& norm, bool norm_first, const LayerNormCache& nc,
                         LayerNorm& norm_grad, const std::function<Matrix(const Matrix&)>& sublayer_backward) {
    if (norm_first) {  // out = x + S(LN(x))  ->  dx = d_out + LN'(S'(d_out))
        Matrix dx = d_out;
        add_to(dx, layer_norm_backward(sublayer_backward(d_out), norm, nc, norm_grad));
        return dx;
    }
    // out = LN(x + S(x))  ->  g = LN'(d_out), dx = g + S'(g)
    const Matrix g = layer_norm_backward(d_out, norm, nc, norm_grad);
    Matrix dx = g;
    add_to(dx, sublayer_backward(g));
    return dx;
}

// Self-attention: x is both the queries' and the keys' input, so both gradients flow into it.
Matrix self_attention_backward(const Matrix& d, const MultiHeadWeights& w, const MultiHeadCache& c, MultiHeadWeights& g) {
    MultiHeadInputGrads in = multi_head_backward(d, w, c, g);
    add_to(in.dx_q, in.dx_kv);
    return in.dx_q;
}

Matrix encoder_layer_backward(const Matrix& d_out, const EncoderLayer& L, const EncoderLayerCache& c, bool norm_first,
                              EncoderLayer& g) {
    const Matrix dh = residual_backward(d_out, L.norm2, norm_first, c.norm2, g.norm2, [&](const Matrix& d) {
        return feed_forward_backward(d, L.ffn, c.ffn, g.ffn);
    });
    return residual_backward(dh, L.norm1, norm_first, c.norm1, g.norm1, [&](const Matrix& d) {
        return self_attention_backward(d, L.self_attn, c.self_attn, g.self_attn);
    });
}

// Returns dL/dy; adds the cross-attention's gradient with respect to the memory into d_memory.
Matrix decoder_layer_backward(const Matrix& d_out, const DecoderLayer& L, const DecoderLayerCache& c, bool norm_first,
                              DecoderLayer& g, Matrix& d_memory) {
    Matrix dh = residual_backward(d_out, L.norm3, norm_first, c.norm3, g.norm3, [&](const Matrix& d) {
        return feed_forward_backward(d, L.ffn, c.ffn, g.ffn);
    });
    dh = residual_backward(dh, L.norm2, norm_first, c.norm2, g.norm2, [&](const Matrix& d) {
        const MultiHeadInputGrads in = multi_head_backward(d, L.cross_attn, c.cross_attn, g.cross_attn);
        add_to(d_memory, in.dx_kv);  // keys and values came from the memory
        return in.dx_q;
    });
    return residual_backward(dh, L.norm1, norm_first, c.norm1, g.norm1, [&](const Matrix& d) {
        return self_attention_backward(d, L.self_attn, c.self_attn, g.self_attn);
    });
}

// Undoes embed(): x[t] = table[id_t] · √d_model + PE[t]  ->  d table[id_t] += dx[t] · √d_model
void embedding_backward(const Matrix& dx, const Tokens& ids, Matrix& d_table) {
    const double s = std::sqrt(static_cast<double>(d_table.cols));
    for (std::size_t t = 0; t < ids.size(); ++t)
        for (std::size_t c = 0; c < d_table.cols; ++c) d_table(static_cast<std::size_t>(ids[t]), c) += dx(t, c) * s;
}

}  // namespace

void example_gradients(const Transformer& m, const Example& ex, double smoothing, double gradient_scale, LossSum& loss,
                       Transformer& g) {
    const bool nf = m.config.norm_first, shared = m.config.share_embeddings;
    const Tokens input = decoder_input_of(m, ex.target);
    // forward, keeping the caches
    EncodeCache ec;
    DecodeCache dc;
    const Matrix memory = encode_forward(m, ex.source, ec);
    const Matrix logits = decode_forward(m, input, memory, ex.source, dc);
    Matrix d_logits;
    cross_entropy(logits, ex.target, m.config.pad_id, smoothing, loss, &d_logits, gradient_scale);

    // logits = y·W_out + b  (shared: y·Eᵀ + b)
    Matrix dy;
    if (shared) {
        for (std::size_t r = 0; r < d_logits.rows; ++r)
            for (std::size_t c = 0; c < d_logits.cols; ++c) g.output_b(0, c) += d_logits(r, c);
        add_to(g.src_embedding, matmul_at(d_logits, dc.output));  // dE = dlogitsᵀ·y
        dy = matmul(d_logits, m.src_embedding);                   // dy = dlogits·E
    } else {
        dy = linear_backward(d_logits, dc.output, m.output_W, g.output_W, g.output_b);
    }
    // the decoder, last layer first
    dy = layer_norm_backward(dy, m.decoder_norm, dc.norm, g.decoder_norm);
    Matrix d_memory(memory.rows, memory.cols);
    for (std::size_t i = m.decoder.size(); i-- > 0;)
        dy = decoder_layer_backward(dy, m.decoder[i], dc.layers[i], nf, g.decoder[i], d_memory);
    embedding_backward(dy, input, shared ? g.src_embedding : g.tgt_embedding);
    // the encoder, from the memory's gradient
    Matrix dx = layer_norm_backward(d_memory, m.encoder_norm, ec.norm, g.encoder_norm);
    for (std::size_t i = m.encoder.size(); i-- > 0;) dx = encoder_layer_backward(dx, m.encoder[i], ec.layers[i], nf, g.encoder[i]);
    embedding_backward(dx, ex.source, g.src_embedding);
}

static std::size_t counted_targets(const std::vector<Example>& batch, int pad_id) {
    std::size_t n = 0;
    for (const Example& e : batch)
        for (int t : e.target) n += t != pad_id;
    return n;
}

double batch_gradients(const Transformer& m, const std::vector<Example>& batch, double smoothing, Transformer& grad) {
    grad = zeros_like(m);
    const std::size_t n = counted_targets(batch, m.config.pad_id);
    LossSum loss;
    for (const Example& e : batch) example_gradients(m, e, smoothing, 1.0 / static_cast<double>(n), loss, grad);
    return loss.sum / static_cast<double>(loss.count);
}

double batch_loss(const Transformer& m, const std::vector<Example>& batch, double smoothing) {
    LossSum loss;
    for (const Example& e : batch)
        cross_entropy(logits_teacher_forced(m, e.source, decoder_input_of(m, e.target)), e.target, m.config.pad_id,
                      smoothing, loss);
    return loss.sum / static_cast<double>(loss.count);
}
