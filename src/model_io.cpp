// model_io.cpp — one list of every parameter, with its PyTorch name and layout, read by both
// the loader and the writer, so the two can never disagree.
#include "model_io.h"

#include <stdexcept>

#include "svg.h"

namespace {

enum class Layout {
    Same,        // stored as we hold it (nn.Embedding's weight)
    Transposed,  // nn.Linear's weight (out x in) is our W (in x out) transposed
    Vector,      // a (1 x n) row: biases, LayerNorm gains, as a JSON array
    StackedT,    // one third of in_proj_weight: rows part·d … (part+1)·d − 1, transposed
    StackedVec,  // one third of in_proj_bias
};

struct Param {
    std::string name;
    Matrix* value;
    Layout layout;
    std::size_t part = 0;
};

void add_attention(std::vector<Param>& ps, const std::string& p, MultiHeadWeights& w) {
    ps.push_back({p + ".in_proj_weight", &w.W_Q, Layout::StackedT, 0});
    ps.push_back({p + ".in_proj_weight", &w.W_K, Layout::StackedT, 1});
    ps.push_back({p + ".in_proj_weight", &w.W_V, Layout::StackedT, 2});
    ps.push_back({p + ".in_proj_bias", &w.b_Q, Layout::StackedVec, 0});
    ps.push_back({p + ".in_proj_bias", &w.b_K, Layout::StackedVec, 1});
    ps.push_back({p + ".in_proj_bias", &w.b_V, Layout::StackedVec, 2});
    ps.push_back({p + ".out_proj.weight", &w.W_O, Layout::Transposed});
    ps.push_back({p + ".out_proj.bias", &w.b_O, Layout::Vector});
}

void add_ffn(std::vector<Param>& ps, const std::string& p, FeedForward& f) {
    ps.push_back({p + ".linear1.weight", &f.W1, Layout::Transposed});
    ps.push_back({p + ".linear1.bias", &f.b1, Layout::Vector});
    ps.push_back({p + ".linear2.weight", &f.W2, Layout::Transposed});
    ps.push_back({p + ".linear2.bias", &f.b2, Layout::Vector});
}

void add_norm(std::vector<Param>& ps, const std::string& p, LayerNorm& n) {
    ps.push_back({p + ".weight", &n.gain, Layout::Vector});
    ps.push_back({p + ".bias", &n.bias, Layout::Vector});
}

// Every parameter, in the order of PyTorch's state_dict.
std::vector<Param> parameters(Transformer& m) {
    std::vector<Param> ps;
    ps.push_back({"src_embedding.weight", &m.src_embedding, Layout::Same});
    if (!m.config.share_embeddings) ps.push_back({"tgt_embedding.weight", &m.tgt_embedding, Layout::Same});
    for (std::size_t i = 0; i < m.encoder.size(); ++i) {
        const std::string p = "transformer.encoder.layers." + std::to_string(i);
        add_attention(ps, p + ".self_attn", m.encoder[i].self_attn);
        add_ffn(ps, p, m.encoder[i].ffn);
        add_norm(ps, p + ".norm1", m.encoder[i].norm1);
        add_norm(ps, p + ".norm2", m.encoder[i].norm2);
    }
    add_norm(ps, "transformer.encoder.norm", m.encoder_norm);
    for (std::size_t i = 0; i < m.decoder.size(); ++i) {
        const std::string p = "transformer.decoder.layers." + std::to_string(i);
        add_attention(ps, p + ".self_attn", m.decoder[i].self_attn);
        add_attention(ps, p + ".multihead_attn", m.decoder[i].cross_attn);
        add_ffn(ps, p, m.decoder[i].ffn);
        add_norm(ps, p + ".norm1", m.decoder[i].norm1);
        add_norm(ps, p + ".norm2", m.decoder[i].norm2);
        add_norm(ps, p + ".norm3", m.decoder[i].norm3);
    }
    add_norm(ps, "transformer.decoder.norm", m.decoder_norm);
    if (!m.config.share_embeddings) ps.push_back({"output.weight", &m.output_W, Layout::Transposed});
    ps.push_back({"output.bias", &m.output_b, Layout::Vector});
    return ps;
}

// The shape PyTorch stores for a parameter we hold as `ours`.
std::string torch_shape(const Matrix& ours, Layout layout) {
    switch (layout) {
        case Layout::Same: return shape_of(ours);
        case Layout::Transposed: return shape_of(Matrix(ours.cols, ours.rows));
        case Layout::StackedT: return shape_of(Matrix(3 * ours.cols, ours.rows));
        case Layout::Vector: return "[" + std::to_string(ours.cols) + "]";
        case Layout::StackedVec: return "[" + std::to_string(3 * ours.cols) + "]";
    }
    return "";
}

TransformerConfig read_config(const DataFile& data, const std::string& k) {
    TransformerConfig c;
    auto size = [&](const std::string& name, long max) {
        return static_cast<std::size_t>(data.integer(k + name, 1, max));
    };
    c.d_model = size("d_model", 1 << 16);
    c.n_heads = size("n_heads", 4096);
    c.d_ff = size("d_ff", 1 << 18);
    c.n_encoder_layers = size("n_encoder_layers", 64);
    c.n_decoder_layers = size("n_decoder_layers", 64);
    c.src_vocab = size("src_vocab", 1 << 22);
    c.tgt_vocab = size("tgt_vocab", 1 << 22);
    const Json& nf = data.at(k + "norm_first");
    const Json& se = data.at(k + "share_embeddings");
    if (!nf.is_boolean()) throw data.error(k + "norm_first", "expected true or false");
    if (!se.is_boolean()) throw data.error(k + "share_embeddings", "expected true or false");
    c.norm_first = nf.get<bool>();
    c.share_embeddings = se.get<bool>();
    c.layer_norm_eps = data.number(k + "layer_norm_eps");
    c.pad_id = static_cast<int>(data.integer(k + "pad_id", 0, static_cast<long>(c.tgt_vocab) - 1));
    c.bos_id = static_cast<int>(data.integer(k + "bos_id", 0, static_cast<long>(c.tgt_vocab) - 1));
    c.eos_id = static_cast<int>(data.integer(k + "eos_id", 0, static_cast<long>(c.tgt_vocab) - 1));
    if (data.has(k + "vocabulary")) {
        c.vocabulary = data.texts(k + "vocabulary");
        if (c.vocabulary.size() != c.tgt_vocab)
            throw data.error(k + "vocabulary", "expected " + std::to_string(c.tgt_vocab) + " names, one per target token id");
    }
    if (c.d_model % c.n_heads != 0)
        throw data.error(k + "n_heads", "expected a divisor of d_model = " + std::to_string(c.d_model));
    if (c.share_embeddings && c.src_vocab != c.tgt_vocab)
        throw data.error(k + "share_embeddings", "expected src_vocab == tgt_vocab when sharing");
    return c;
}

Json config_json(const TransformerConfig& c) {
    Json j{{"d_model", c.d_model}, {"n_heads", c.n_heads}, {"d_ff", c.d_ff},
                {"n_encoder_layers", c.n_encoder_layers}, {"n_decoder_layers", c.n_decoder_layers},
                {"src_vocab", c.src_vocab}, {"tgt_vocab", c.tgt_vocab}, {"norm_first", c.norm_first},
                {"share_embeddings", c.share_embeddings}, {"layer_norm_eps", c.layer_norm_eps},
                {"pad_id", c.pad_id}, {"bos_id", c.bos_id}, {"eos_id", c.eos_id}};
    if (!c.vocabulary.empty()) j["vocabulary"] = c.vocabulary;
    return j;
}

Json rows_json(const Matrix& m) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < m.rows; ++r) rows.push_back(std::vector<double>(m.row(r), m.row(r) + m.cols));
    return rows;
}

}  // namespace

Transformer load_transformer(const DataFile& data, const std::string& key) {
    const std::string k = key.empty() ? "" : key + ".";
    // a model of the right shape, then every parameter overwritten from the file
    Transformer m = random_transformer(read_config(data, k + "config."), 0);
    const Json& weights = data.at(k + "weights");
    if (!weights.is_object()) throw data.error(k + "weights", "expected an object of named weights");
    for (const Param& p : parameters(m)) {
        const std::string where = k + "weights." + p.name;
        if (!weights.contains(p.name)) throw data.error(where, "missing; expected " + torch_shape(*p.value, p.layout));
        const Json& node = weights[p.name];
        const bool vector = p.layout == Layout::Vector || p.layout == Layout::StackedVec;
        const Matrix stored = vector ? data.vector_of(node, where) : data.matrix_of(node, where);
        const std::string expected = torch_shape(*p.value, p.layout);
        const std::string got = vector ? "[" + std::to_string(stored.cols) + "]" : shape_of(stored);
        if (got != expected) throw data.error(where, "expected " + expected + " (PyTorch's layout), got " + got);
        const std::size_t d = p.value->cols;  // width of one third of a stacked projection
        switch (p.layout) {
            case Layout::Same: case Layout::Vector: *p.value = stored; break;
            case Layout::Transposed: *p.value = transpose(stored); break;
            case Layout::StackedT: *p.value = transpose(row_block(stored, p.part * d, d)); break;
            case Layout::StackedVec: *p.value = column_block(stored, p.part * d, d); break;
        }
    }
    return m;
}

Json transformer_to_json(const Transformer& model) {
    Transformer& m = const_cast<Transformer&>(model);  // parameters() only reads here
    Json weights = Json::object();
    for (const Param& p : parameters(m)) {
        const Matrix& v = *p.value;
        switch (p.layout) {
            case Layout::Same: weights[p.name] = rows_json(v); break;
            case Layout::Transposed: weights[p.name] = rows_json(transpose(v)); break;
            case Layout::Vector: weights[p.name] = v.data; break;
            case Layout::StackedT:  // parts 0, 1, 2 append their rows in order
                if (p.part == 0) weights[p.name] = Json::array();
                for (const Json& row : rows_json(transpose(v))) weights[p.name].push_back(row);
                break;
            case Layout::StackedVec:
                if (p.part == 0) weights[p.name] = Json::array();
                for (double x : v.data) weights[p.name].push_back(x);
                break;
        }
    }
    return Json{{"config", config_json(model.config)}, {"weights", weights}};
}

std::vector<std::pair<std::string, Matrix*>> named_parameters(Transformer& model) {
    std::vector<std::pair<std::string, Matrix*>> out;
    for (const Param& p : parameters(model)) {
        const bool stacked = p.layout == Layout::StackedT || p.layout == Layout::StackedVec;
        out.push_back({stacked ? p.name + "[" + "qkv"[p.part] + "]" : p.name, p.value});
    }
    return out;
}

void save_transformer(const Transformer& model, const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    write_file_atomically(dir, path.substr(slash == std::string::npos ? 0 : slash + 1), transformer_to_json(model).dump() + "\n");
}
