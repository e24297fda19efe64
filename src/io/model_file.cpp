// model_file.cpp — reading and writing models; every name and layout comes from the one
// parameter list in model/parameters.h, so the loader and the writer can never disagree.
#include "io/model_file.h"

#include <cmath>
#include <set>

#include "core/number_formats.h"
#include "io/atomic_file.h"
#include "io/base64.h"
#include "io/config_words.h"
#include "io/json.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "text/numbers.h"
#include "text/translate.h"

void read_model_shape(const DataFile& data, const std::string& k, TransformerConfig& c) {
    c.n_encoder_layers = data.size(k + "n_encoder_layers", 1, 64);
    c.n_decoder_layers = data.size(k + "n_decoder_layers", 1, 64);
    read_block_shape(data, k, c);
}

void read_block_shape(const DataFile& data, const std::string& k, TransformerConfig& c) {
    c.d_model = data.size(k + "d_model", 1, 1 << 16);
    c.n_heads = data.size(k + "n_heads", 1, 4096);
    c.d_ff = data.size(k + "d_ff", 1, 1 << 18);
    c.norm_first = data.flag(k + "norm_first");
    // chapter 10's switches, each optional: without them, the paper's model
    if (data.has(k + "norm") && !norm_from_name(data.text(k + "norm"), c.norm))
        throw data.error(k + "norm", tr("expected \"layer\" or \"rms\""));
    if (data.has(k + "positions") && !positions_from_name(data.text(k + "positions"), c.positions))
        throw data.error(k + "positions",
                         tr("expected \"sinusoidal\", \"learned\", \"rope\", \"alibi\" or "
                            "\"none\""));
    if (data.has(k + "n_kv_heads")) c.n_kv_heads = data.size(k + "n_kv_heads", 1, c.n_heads);
    if (data.has(k + "window")) c.window = data.size(k + "window", 0, 1 << 20);
    if (c.positions == PositionScheme::Learned)
        c.max_positions = data.size(k + "max_positions", 1, 1 << 16);
    check_config(data, k, c);
}

TransformerConfig read_model_config(const DataFile& data, const std::string& k) {
    TransformerConfig c;
    read_model_shape(data, k, c);
    c.src_vocab = data.size(k + "src_vocab", 1, 1 << 22);
    c.tgt_vocab = data.size(k + "tgt_vocab", 1, 1 << 22);
    c.share_embeddings = data.flag(k + "share_embeddings");
    c.layer_norm_eps = data.number(k + "layer_norm_eps");
    const std::int64_t last_id = static_cast<std::int64_t>(c.tgt_vocab) - 1;
    c.pad_id = static_cast<int>(data.integer(k + "pad_id", 0, last_id));
    c.bos_id = static_cast<int>(data.integer(k + "bos_id", 0, last_id));
    c.eos_id = static_cast<int>(data.integer(k + "eos_id", 0, last_id));
    if (data.has(k + "vocabulary")) {
        c.vocabulary = data.texts(k + "vocabulary");
        if (c.vocabulary.size() != c.tgt_vocab)
            throw data.error(k + "vocabulary",
                             tr("expected {} names, one per target token id", c.tgt_vocab));
    }
    if (data.has(k + "source_vocabulary")) {
        c.source_vocabulary = data.texts(k + "source_vocabulary");
        if (c.source_vocabulary.size() != c.src_vocab)
            throw data.error(k + "source_vocabulary",
                             tr("expected {} names, one per source token id", c.src_vocab));
    }
    if (c.share_embeddings && c.src_vocab != c.tgt_vocab)
        throw data.error(k + "share_embeddings",
                         tr("expected src_vocab == tgt_vocab when sharing"));
    // the fields agree with each other before anything uses them
    if (!c.vocabulary.empty() && c.source_vocabulary.empty() && c.src_vocab != c.tgt_vocab)
        throw data.error(k + "source_vocabulary",
                         tr("missing: the vocabulary names {} target ids but src_vocab is {}; "
                            "expected one name per source id",
                            c.tgt_vocab, c.src_vocab));
    if (c.pad_id == c.bos_id || c.pad_id == c.eos_id || c.bos_id == c.eos_id)
        throw data.error(k + "eos_id", tr("expected pad_id, bos_id and eos_id to differ (got {}, "
                                          "{}, {})",
                                          c.pad_id, c.bos_id, c.eos_id));
    for (const auto& [name, id] :
         {std::pair<const char*, int>{"pad_id", c.pad_id}, {"eos_id", c.eos_id}})
        if (id >= static_cast<int>(c.src_vocab))  // sources are padded and end with <eos>
            throw data.error(k + name, tr("expected an id of the source vocabulary too (0 to {})",
                                          c.src_vocab - 1));
    return c;
}

static Json config_json(const TransformerConfig& c) {
    Json j{{"d_model", c.d_model},
           {"n_heads", c.n_heads},
           {"d_ff", c.d_ff},
           {"n_encoder_layers", c.n_encoder_layers},
           {"n_decoder_layers", c.n_decoder_layers},
           {"src_vocab", c.src_vocab},
           {"tgt_vocab", c.tgt_vocab},
           {"norm_first", c.norm_first},
           {"norm", norm_name(c.norm)},
           {"positions", positions_name(c.positions)},
           {"n_kv_heads", c.kv_heads()},
           {"window", c.window},
           {"share_embeddings", c.share_embeddings},
           {"layer_norm_eps", c.layer_norm_eps},
           {"pad_id", c.pad_id},
           {"bos_id", c.bos_id},
           {"eos_id", c.eos_id}};
    if (c.positions == PositionScheme::Learned) j["max_positions"] = c.max_positions;
    if (!c.vocabulary.empty()) j["vocabulary"] = c.vocabulary;
    if (!c.source_vocabulary.empty()) j["source_vocabulary"] = c.source_vocabulary;
    return j;
}

// A tensor in bfloat16 (what the live book's poet ships): {"shape": [rows, cols] or [length],
// "bfloat16": base64 of the values' 16 bits, row after row, the high bytes of all of them first,
// then their low bytes} — two bytes a value where its digits take about twenty; the high bytes
// (sign and exponent) repeat, and side by side they compress (gzip: a fifth less).
static bool in_bfloat16(const Json& t) { return t.is_object() && t.contains("bfloat16"); }

static std::vector<std::size_t> bfloat16_shape(const DataFile& data, const Json& t,
                                               const std::string& where) {
    const Json* shape = t.contains("shape") ? &t["shape"] : nullptr;
    std::vector<std::size_t> sizes;
    if (shape && shape->is_array() && (shape->size() == 1 || shape->size() == 2))
        for (const Json& n : *shape)
            if (n.is_number_unsigned() && n.get<std::uint64_t>() >= 1 &&
                n.get<std::uint64_t>() <= max_json_array)
                sizes.push_back(n.get<std::size_t>());
    if (!shape || sizes.size() != shape->size() || sizes.empty())
        throw data.error(where + ".shape", tr("expected [rows, columns] or [length], whole "
                                              "numbers from 1 to {}",
                                              max_json_array));
    return sizes;
}

static Matrix bfloat16_tensor(const DataFile& data, const Json& t, const std::string& where) {
    const std::vector<std::size_t> shape = bfloat16_shape(data, t, where);
    const std::size_t rows = shape.size() == 2 ? shape[0] : 1, cols = shape.back();
    const std::size_t count = rows * cols;
    std::vector<std::uint8_t> bytes;
    const Json& text = t["bfloat16"];
    if (count > max_json_array * 64 || !text.is_string() ||
        !base64_decode(text.get<std::string>(), bytes) || bytes.size() != 2 * count)
        throw data.error(where + ".bfloat16",
                         tr("expected base64 text of {} bytes: 2 for each of the shape's {} values",
                            2 * count, count));
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < count; ++i) {
        const double x = value_of_bits(std::uint64_t(bytes[i]) << 8 | bytes[count + i], 8, 7);
        if (!std::isfinite(x))
            throw data.error(where + ".bfloat16",
                             tr("the value at index {} is not a finite number", grouped(i)));
        m.data[i] = x;
    }
    return m;
}

static Json bfloat16_json(const TorchTensor& t) {
    const std::size_t n = t.value.data.size();
    std::vector<std::uint8_t> bytes(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t bits = to_format_bits(t.value.data[i], FloatFormat::BFloat16);
        bytes[i] = std::uint8_t(bits >> 8), bytes[n + i] = std::uint8_t(bits & 0xff);
    }
    const Json shape = t.is_vector ? Json::array({t.value.cols})
                                   : Json::array({t.value.rows, t.value.cols});
    return Json{{"shape", shape}, {"bfloat16", base64_encode(bytes)}};
}

void check_claims(const DataFile& data, const std::string& key,
                  const std::vector<ShapeClaim>& claims) {
    const Json& weights = json_at(data, key);
    if (!weights.is_object()) throw data.error(key, tr("expected an object of named weights"));
    for (const ShapeClaim& c : claims) {
        const std::string where = key + "." + c.name,
                          claimed = "(" + std::to_string(c.rows) + "x" + std::to_string(c.cols) + ")";
        if (!weights.contains(c.name)) throw data.error(where, tr("missing; expected {}", claimed));
        const Json& t = weights[c.name];
        std::size_t rows = t.is_array() ? t.size() : 0;
        std::size_t cols = rows && t[0].is_array() ? t[0].size() : 0;
        if (in_bfloat16(t)) {
            const std::vector<std::size_t> shape = bfloat16_shape(data, t, where);
            rows = shape.size() == 2 ? shape[0] : 0, cols = shape.size() == 2 ? shape[1] : 0;
        }
        if (rows != c.rows || cols != c.cols)
            throw data.error(where, tr("the config claims {}, the weights hold ({}x{})", claimed,
                                       rows, cols));
        // the bytes there to back the claim, not a shape alone: bfloat16's base64 text of 2
        // bytes a value (4 characters for every 3 bytes), or every row of the array full
        if (in_bfloat16(t)) {
            const std::size_t count = rows * cols;
            const Json& text = t["bfloat16"];
            if (!text.is_string() || text.get_ref<const std::string&>().size() != 4 * ((2 * count + 2) / 3))
                throw data.error(where + ".bfloat16",
                                 tr("expected base64 text of {} bytes: 2 for each of the shape's "
                                    "{} values",
                                    2 * count, count));
        } else {
            for (std::size_t r = 0; r < rows; ++r)
                if (!t[r].is_array() || t[r].size() != cols)
                    throw data.error(where + "[" + std::to_string(r) + "]",
                                     tr("expected a row of {} numbers, as the config claims {}",
                                        cols, claimed));
        }
    }
}

Transformer load_transformer(const DataFile& data, const std::string& key) {
    const std::string k = key.empty() ? "" : key + ".";
    const TransformerConfig c = read_model_config(data, k + "config.");
    // the config's sizes backed by the file before a model of them is allocated
    const std::string enc = "transformer.encoder.layers." + std::to_string(c.n_encoder_layers - 1),
                      dec = "transformer.decoder.layers." + std::to_string(c.n_decoder_layers - 1);
    std::vector<ShapeClaim> claims = {{"src_embedding.weight", c.src_vocab, c.d_model},
                                      {enc + ".linear1.weight", c.d_ff, c.d_model},
                                      {dec + ".linear1.weight", c.d_ff, c.d_model}};
    if (!c.share_embeddings) claims.push_back({"tgt_embedding.weight", c.tgt_vocab, c.d_model});
    if (c.positions == PositionScheme::Learned)
        claims.push_back({"src_positions.weight", c.max_positions, c.d_model});
    check_claims(data, k + "weights", claims);
    // a model of the right shape, then every parameter overwritten from the file
    Transformer m = random_transformer(c, 0);
    load_weights(data, k + "weights", parameters(m));
    return m;
}

void load_weights(const DataFile& data, const std::string& key,
                  const std::vector<Parameter>& params) {
    const Json& weights = json_at(data, key);
    if (!weights.is_object()) throw data.error(key, tr("expected an object of named weights"));
    std::set<std::string> names;  // every tensor the model has, to find those it has not
    for (const Parameter& p : params) names.insert(p.name);
    for (const auto& item : weights.items())
        if (!names.count(item.key()))
            throw data.error(
                key + "." + item.key(),
                tr("not a weight of this model (unexpected, as PyTorch's load_state_dict says)"));
    for (const Parameter& p : params) {
        const std::string where = key + "." + p.name, expected = torch_shape(p);
        if (!weights.contains(p.name))
            throw data.error(where, tr("missing; expected {}", expected));
        const Json& node = weights[p.name];
        const Matrix stored = in_bfloat16(node) ? bfloat16_tensor(data, node, where)
                              : p.is_vector()   ? vector_of(data, node, where)
                                                : matrix_of(data, node, where);
        const bool as_vector = in_bfloat16(node) ? node["shape"].size() == 1 : p.is_vector();
        const std::string got =
            as_vector ? "[" + std::to_string(stored.cols) + "]" : shape_of(stored);
        if (got != expected)
            throw data.error(where, tr("expected {} (PyTorch's layout), got {}", expected, got));
        *p.value = from_torch(p, stored);
    }
}

static Json rows_json(const Matrix& m) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < m.rows; ++r)
        rows.push_back(std::vector<double>(m.row(r), m.row(r) + m.cols));
    return rows;
}

std::string weights_json(const std::vector<TorchTensor>& tensors, const std::string& path,
                         SavedWeights format) {
    Json weights = Json::object();
    for (const TorchTensor& t : tensors) {
        for (const double x : t.value.data)  // JSON would write null for NaN
            if (!std::isfinite(x))
                throw std::runtime_error(
                    tr("{}: not saved: {} holds a weight that is not finite", path, t.name));
        weights[t.name] = format == SavedWeights::BFloat16 ? bfloat16_json(t)
                          : t.is_vector                    ? Json(t.value.data)
                                                           : rows_json(t.value);
    }
    return weights.dump();
}

static Json transformer_to_json(const Transformer& model) {
    Json weights = Json::object();
    for (const TorchTensor& t : torch_state_dict(model))
        weights[t.name] = t.is_vector ? Json(t.value.data) : rows_json(t.value);
    return Json{{"config", config_json(model.config)}, {"weights", weights}};
}

bool read_training_record(const DataFile& data, TrainingRecord& r) {
    if (!data.has("training")) return false;
    r.task = data.text("training.task");
    r.steps = data.size("training.steps", 0, std::size_t(1) << 31);
    r.final_loss = data.number("training.final_loss");
    r.heldout_exact_match = data.number("training.heldout_exact_match");
    r.max_source_length = data.size("training.max_source_length", 0, std::size_t(1) << 30);
    return true;
}

void save_transformer(const Transformer& model, const TrainingRecord& r, const std::string& path) {
    for (const TorchTensor& t : torch_state_dict(model))  // JSON would write null for NaN
        for (const double x : t.value.data)
            if (!std::isfinite(x))
                throw std::runtime_error(
                    tr("{}: not saved: {} holds a weight that is not finite", path, t.name));
    if (!std::isfinite(r.final_loss))
        throw std::runtime_error(tr("{}: not saved: the final loss is not finite", path));
    Json file = transformer_to_json(model);
    file["training"] = {{"task", r.task},
                        {"steps", r.steps},
                        {"final_loss", r.final_loss},
                        {"heldout_exact_match", r.heldout_exact_match},
                        {"max_source_length", r.max_source_length}};
    write_file_atomically(path, file.dump() + "\n");
}
