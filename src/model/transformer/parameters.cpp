// parameters.cpp — the list of a Transformer's parameters with PyTorch's names and layouts.
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"

#include <algorithm>

void add_attention(std::vector<Parameter>& ps, const std::string& p, MultiHeadWeights& w) {
    // Q, K and V stacked: K starts after Q's columns, V after K's (narrower with grouped-query
    // attention)
    const std::size_t q = w.W_Q.cols, k = w.W_K.cols, all = q + k + w.W_V.cols;
    ps.push_back({p + ".in_proj_weight", &w.W_Q, TorchLayout::StackedT, 0, 0, all});
    ps.push_back({p + ".in_proj_weight", &w.W_K, TorchLayout::StackedT, 1, q, all});
    ps.push_back({p + ".in_proj_weight", &w.W_V, TorchLayout::StackedT, 2, q + k, all});
    ps.push_back({p + ".in_proj_bias", &w.b_Q, TorchLayout::StackedVec, 0, 0, all});
    ps.push_back({p + ".in_proj_bias", &w.b_K, TorchLayout::StackedVec, 1, q, all});
    ps.push_back({p + ".in_proj_bias", &w.b_V, TorchLayout::StackedVec, 2, q + k, all});
    ps.push_back({p + ".out_proj.weight", &w.W_O, TorchLayout::Transposed});
    ps.push_back({p + ".out_proj.bias", &w.b_O, TorchLayout::Vector});
}

void add_ffn(std::vector<Parameter>& ps, const std::string& p, FeedForward& f) {
    ps.push_back({p + ".linear1.weight", &f.W1, TorchLayout::Transposed});
    ps.push_back({p + ".linear1.bias", &f.b1, TorchLayout::Vector});
    ps.push_back({p + ".linear2.weight", &f.W2, TorchLayout::Transposed});
    ps.push_back({p + ".linear2.bias", &f.b2, TorchLayout::Vector});
}

void add_norm(std::vector<Parameter>& ps, const std::string& p, Norm& n) {
    ps.push_back({p + ".weight", &n.gain, TorchLayout::Vector});
    if (n.kind == NormKind::Layer) ps.push_back({p + ".bias", &n.bias, TorchLayout::Vector});
}

namespace {

void add_encoder(std::vector<Parameter>& ps, std::vector<EncoderLayer>& layers, Norm& norm) {
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string p = "transformer.encoder.layers." + std::to_string(i);
        add_attention(ps, p + ".self_attn", layers[i].self_attn);
        add_ffn(ps, p, layers[i].ffn);
        add_norm(ps, p + ".norm1", layers[i].norm1);
        add_norm(ps, p + ".norm2", layers[i].norm2);
    }
    add_norm(ps, "transformer.encoder.norm", norm);
}

void add_decoder(std::vector<Parameter>& ps, std::vector<DecoderLayer>& layers, Norm& norm) {
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string p = "transformer.decoder.layers." + std::to_string(i);
        add_attention(ps, p + ".self_attn", layers[i].self_attn);
        add_attention(ps, p + ".multihead_attn", layers[i].cross_attn);
        add_ffn(ps, p, layers[i].ffn);
        add_norm(ps, p + ".norm1", layers[i].norm1);
        add_norm(ps, p + ".norm2", layers[i].norm2);
        add_norm(ps, p + ".norm3", layers[i].norm3);
    }
    add_norm(ps, "transformer.decoder.norm", norm);
}

}  // namespace

std::string Parameter::label() const {
    const bool stacked = layout == TorchLayout::StackedT || layout == TorchLayout::StackedVec;
    return stacked ? name + "[" + "qkv"[part] + "]" : name;
}

std::vector<Parameter> parameters(Transformer& m) {
    std::vector<Parameter> ps;
    ps.push_back({"src_embedding.weight", &m.src_embedding, TorchLayout::Same});
    if (!m.config.share_embeddings)
        ps.push_back({"tgt_embedding.weight", &m.tgt_embedding, TorchLayout::Same});
    if (m.config.positions == PositionScheme::Learned) {
        ps.push_back({"src_positions.weight", &m.src_positions, TorchLayout::Same});
        ps.push_back({"tgt_positions.weight", &m.tgt_positions, TorchLayout::Same});
    }
    add_encoder(ps, m.encoder, m.encoder_norm);
    add_decoder(ps, m.decoder, m.decoder_norm);
    if (!m.config.share_embeddings)
        ps.push_back({"output.weight", &m.output_W, TorchLayout::Transposed});
    ps.push_back({"output.bias", &m.output_b, TorchLayout::Vector});
    return ps;
}

std::vector<Matrix*> matrices_of(const std::vector<Parameter>& params) {
    std::vector<Matrix*> out;
    for (const Parameter& p : params) out.push_back(p.value);
    return out;
}

void set_to_zero(const std::vector<Parameter>& params) {
    for (const Parameter& p : params) std::fill(p.value->data.begin(), p.value->data.end(), 0.0);
}

std::size_t numbers_in(const std::vector<Parameter>& params) {
    std::size_t n = 0;
    for (const Parameter& p : params) n += p.value->data.size();
    return n;
}

std::vector<TorchTensor> torch_state_dict(const Transformer& model) {
    // parameters() hands out pointers; we only read
    return torch_state_dict(parameters(const_cast<Transformer&>(model)));
}

std::vector<TorchTensor> torch_state_dict(const std::vector<Parameter>& parameters) {
    std::vector<TorchTensor> out;
    for (const Parameter& p : parameters) {
        const Matrix& v = *p.value;
        const bool vector = p.is_vector();
        const Matrix ours = p.layout == TorchLayout::Transposed || p.layout == TorchLayout::StackedT
                                ? transpose(v)
                                : v;
        if (p.part == 0) {  // a new tensor (a stacked one starts with its Q third)
            out.push_back({p.name, ours, vector});
            continue;
        }
        Matrix& stacked = out.back().value;  // K and V: below the rows (or after the values) of Q
        if (vector)
            stacked.cols += ours.cols;
        else
            stacked.rows += ours.rows;
        stacked.data.insert(stacked.data.end(), ours.data.begin(), ours.data.end());
    }
    return out;
}

std::string torch_shape(const Parameter& p) {
    const Matrix& v = *p.value;
    switch (p.layout) {
        case TorchLayout::Same:
            return shape_of(v);
        case TorchLayout::Transposed:
            return shape_of(Matrix(v.cols, v.rows));
        case TorchLayout::StackedT:
            return shape_of(Matrix(p.stacked, v.rows));
        case TorchLayout::Vector:
            return "[" + std::to_string(v.cols) + "]";
        case TorchLayout::StackedVec:
            return "[" + std::to_string(p.stacked) + "]";
    }
    return "";
}

Matrix from_torch(const Parameter& p, const Matrix& tensor) {
    const std::size_t d = p.value->cols;  // width of one part of a stacked projection
    switch (p.layout) {
        case TorchLayout::Same:
        case TorchLayout::Vector:
            return tensor;
        case TorchLayout::Transposed:
            return transpose(tensor);
        case TorchLayout::StackedT:
            return transpose(row_block(tensor, p.offset, d));
        case TorchLayout::StackedVec:
            return column_block(tensor, p.offset, d);
    }
    return tensor;
}
