// ch10_modern_attention/inputs.cpp — chapter 10's data file, read and checked.
#include "ch10_modern_attention/inputs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "io/config_words.h"
#include "io/model_file.h"
#include "io/training_plan.h"
#include "model/positions/rotary.h"
#include "report/recorded_gradients.h"
#include "text/translate.h"
#include "train/reverse_task.h"

namespace {

// An attention layer's weights in PyTorch's layout (in_proj stacked, as nn.MultiheadAttention).
MultiHeadWeights read_attention(const DataFile& data, const std::string& k, std::size_t heads) {
    const Matrix W = data.matrix(k + "in_proj_weight"), b = data.vector(k + "in_proj_bias");
    const std::size_t d = W.cols;
    if (W.rows != 3 * d || b.cols != 3 * d || d % heads != 0)
        throw data.error(k + "in_proj_weight",
                         tr("expected (3·d x d) with d divisible by {} heads", heads));
    MultiHeadWeights w;
    w.n_heads = heads;
    w.W_Q = transpose(row_block(W, 0, d)), w.W_K = transpose(row_block(W, d, d));
    w.W_V = transpose(row_block(W, 2 * d, d));
    w.b_Q = column_block(b, 0, d), w.b_K = column_block(b, d, d), w.b_V = column_block(b, 2 * d, d);
    w.W_O = transpose(data.matrix(k + "out_proj_weight"));
    w.b_O = data.vector(k + "out_proj_bias");
    if (w.W_O.rows != d || w.W_O.cols != d || w.b_O.cols != d)
        throw data.error(k + "out_proj_weight", tr("expected ({} x {})", d, d));
    return w;
}

// RoPE's q, k and the position pairs whose scores are compared; the frequencies' sizes.
void read_rope(const DataFile& data, Inputs& in) {
    in.rope_d_k = data.size("inputs.rope.d_k", 2, 1024);
    if (!rope_fits(in.rope_d_k)) throw data.error("inputs.rope.d_k", tr("expected an even width"));
    in.rope_q = data.vector("inputs.rope.q");
    in.rope_k = data.vector("inputs.rope.k");
    if (in.rope_q.cols != in.rope_d_k || in.rope_k.cols != in.rope_d_k)
        throw data.error("inputs.rope.q", tr("expected q and k of d_k = {} numbers", in.rope_d_k));
    const Matrix pairs = data.matrix("inputs.rope.pairs");
    if (pairs.cols != 2) throw data.error("inputs.rope.pairs", tr("expected rows [m, n]"));
    for (std::size_t r = 0; r < pairs.rows; ++r) {
        if (pairs(r, 0) < 0 || pairs(r, 1) < 0 || pairs(r, 0) > 1e6 || pairs(r, 1) > 1e6 ||
            pairs(r, 0) != std::floor(pairs(r, 0)) || pairs(r, 1) != std::floor(pairs(r, 1)))
            throw data.error("inputs.rope.pairs",
                             tr("expected positions, whole numbers from 0 to 1000000"));
        in.pairs.push_back(
            {static_cast<std::size_t>(pairs(r, 0)), static_cast<std::size_t>(pairs(r, 1))});
    }
    for (const std::int64_t p : data.integers("inputs.rope.positions", 0, 1000000))
        in.rope_positions.push_back(static_cast<std::size_t>(p));
    in.freq_d_model = data.size("inputs.frequencies.d_model", 2, 1 << 16);
    in.freq_d_k = data.size("inputs.frequencies.d_k", 2, 1 << 16);
}

// The key/value head counts at `key`, each one that divides n_heads (kv_heads_fit).
std::vector<std::size_t> read_kv_heads(const DataFile& data, const std::string& key,
                                       std::size_t n_heads) {
    std::vector<std::size_t> kv;
    for (const std::int64_t n : data.integers(key, 1, static_cast<std::int64_t>(n_heads))) {
        if (!kv_heads_fit(n_heads, static_cast<std::size_t>(n)))
            throw data.error(key, tr("expected divisors of {}", n_heads));
        kv.push_back(static_cast<std::size_t>(n));
    }
    return kv;
}

// Grouped-query attention's layer and input; the published shapes whose KV cache is counted.
void read_gqa(const DataFile& data, Inputs& in) {
    const std::size_t gqa_heads = data.size("inputs.gqa.n_heads", 1, 256);
    in.gqa = read_attention(data, "inputs.gqa.weights.", gqa_heads);
    in.gqa_kv = read_kv_heads(data, "inputs.gqa.kv_heads", gqa_heads);
    in.gqa_x = data.matrix("inputs.gqa.x");
    if (in.gqa_x.cols != in.gqa.d_model())
        throw data.error("inputs.gqa.x", tr("expected rows of d_model = {}", in.gqa.d_model()));
    for (std::size_t i = 0; i < data.length("inputs.kv_bytes.models"); ++i) {
        const std::string k = "inputs.kv_bytes.models[" + std::to_string(i) + "].";
        KvShape s;
        s.name = data.text(k + "name");
        s.config.n_encoder_layers = 0;
        s.config.n_decoder_layers = data.size(k + "layers", 1, 1000);
        s.config.n_heads = data.size(k + "n_heads", 1, 1024);
        s.config.d_model = data.size(k + "d_model", 1, 1 << 20);
        s.config.n_kv_heads = data.size(k + "n_kv_heads", 1, s.config.n_heads);
        check_config(data, k, s.config);
        in.kv_shapes.push_back(s);
    }
    in.bytes_per_number = data.vector("inputs.kv_bytes.bytes_per_number").data;
    for (const double b : in.bytes_per_number)
        if (b != 1 && b != 2 && b != 4 && b != 8)
            throw data.error("inputs.kv_bytes.bytes_per_number", tr("expected 1, 2, 4 or 8"));
}

// The model whose decoding is timed at each key/value head count; the window's reach.
void read_timing(const DataFile& data, Inputs& in) {
    TransformerConfig& t = in.timing;
    t.d_model = data.size("inputs.timing.d_model", 1, 4096);
    t.n_heads = data.size("inputs.timing.n_heads", 1, 256);
    t.d_ff = data.size("inputs.timing.d_ff", 1, 16384);
    t.n_encoder_layers = t.n_decoder_layers = data.size("inputs.timing.layers", 1, 24);
    t.src_vocab = t.tgt_vocab = reverse_vocab_size;
    check_config(data, "inputs.timing.", t);
    in.timing_kv = read_kv_heads(data, "inputs.timing.kv_heads", t.n_heads);
    in.timing_tokens = data.size("inputs.timing.tokens", 1, 4096);
    in.window_n = data.size("inputs.window.n", 1, 1024);
    in.window = data.size("inputs.window.window", 1, 1024);
    for (const std::int64_t l : data.integers("inputs.window.layers", 1, 1024))
        in.window_layers.push_back(static_cast<std::size_t>(l));
}

// The small encoder-decoders under five combinations of the switches, and their batch.
void read_variants(const DataFile& data, Inputs& in) {
    for (std::size_t i = 0; i < data.length("inputs.models.variants"); ++i) {
        const std::string k = "inputs.models.variants[" + std::to_string(i) + "]";
        in.variants.push_back({data.text(k + ".name"), load_transformer(data, k)});
    }
    if (in.variants.empty())
        throw data.error("inputs.models.variants", tr("expected at least one model"));
    std::size_t src = in.variants[0].model.config.src_vocab,
                tgt = in.variants[0].model.config.tgt_vocab;  // ids every variant reads
    for (const Variant& v : in.variants)
        src = std::min(src, v.model.config.src_vocab),
        tgt = std::min(tgt, v.model.config.tgt_vocab);
    in.batch = read_examples(data, "inputs.models.batch", src, tgt);
    in.smoothing = data.number("inputs.models.smoothing", 0.0, 0.999);
}

// Which positions read longer inputs: the plan, the schemes, the seeds and the test lengths.
void read_length_generalization(const DataFile& data, Inputs& in) {
    const std::string g = "inputs.length_generalization.";
    in.plan = read_training_plan(data, g + "training.", "reverse");
    for (const std::string& name : data.texts(g + "schemes")) {
        PositionScheme s;
        if (!positions_from_name(name, s))
            throw data.error(g + "schemes", tr("expected \"sinusoidal\", \"learned\", \"rope\", "
                                               "\"alibi\" or \"none\""));
        in.schemes.push_back(s);
    }
    for (const std::int64_t s : data.integers(g + "seeds", 0, std::int64_t(1) << 62))
        in.seeds.push_back(static_cast<std::uint64_t>(s));
    for (const std::int64_t l : data.integers(g + "test_lengths", 1, 100))
        in.test_lengths.push_back(static_cast<std::size_t>(l));
    in.per_length = data.size(g + "per_length", 1, 100000);
    in.test_seed = data.seed(g + "test_seed");
    in.max_positions = data.size(g + "max_positions", 1, 1 << 16);
    for (const std::size_t l : in.test_lengths)
        if (l + 1 > in.max_positions)
            throw data.error(g + "max_positions",
                             tr("expected room for the longest test, {} tokens", l + 1));
}

}  // namespace

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.norm_x = data.matrix("inputs.norms.x");
    read_rope(data, in);
    for (const std::int64_t h : data.integers("inputs.alibi.heads", 1, 256))
        in.alibi_heads.push_back(static_cast<std::size_t>(h));
    in.alibi_n = data.size("inputs.alibi.n", 1, 256);
    read_gqa(data, in);
    read_timing(data, in);
    read_variants(data, in);
    read_length_generalization(data, in);
    return in;
}

// A (1 x n) result, printed as a row and recorded as a vector (as the oracle writes it).
