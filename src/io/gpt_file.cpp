// gpt_file.cpp — a decoder-only model's file.
#include "io/gpt_file.h"

#include "io/atomic_file.h"
#include "io/json.h"
#include "io/model_file.h"
#include "model/gpt/gpt.h"
#include "model/transformer/config.h"
#include "model/transformer/parameters.h"
#include "text/translate.h"

TransformerConfig read_gpt_config(const DataFile& data, const std::string& k, bool with_vocab) {
    TransformerConfig c;
    read_block_shape(data, k, c);
    c.n_encoder_layers = 0;
    c.n_decoder_layers = data.size(k + "n_layers", 1, 64);
    c.layer_norm_eps = data.number(k + "layer_norm_eps", 1e-12, 1.0);
    // the output projection is the embedding table unless tied_output says false
    c.share_embeddings = !data.has(k + "tied_output") || data.flag(k + "tied_output");
    c.pad_id = 0, c.bos_id = 1, c.eos_id = 2;
    if (with_vocab) c.tgt_vocab = c.src_vocab = data.size(k + "vocab", 5, 1 << 22);
    return c;
}

Gpt load_gpt(const DataFile& data, const std::string& key) {
    const std::string k = key.empty() ? "" : key + ".";
    const TransformerConfig c = read_gpt_config(data, k + "config.", true);
    // the config's sizes backed by the file before a model of them is allocated
    std::vector<ShapeClaim> claims = {
        {"embedding.weight", c.tgt_vocab, c.d_model},
        {"layers." + std::to_string(c.n_decoder_layers - 1) + ".linear1.weight", c.d_ff, c.d_model}};
    if (c.positions == PositionScheme::Learned)
        claims.push_back({"positions.weight", c.max_positions, c.d_model});
    if (!c.share_embeddings) claims.push_back({"output.weight", c.tgt_vocab, c.d_model});
    check_claims(data, k + "weights", claims);
    Gpt m = random_gpt(c, 0);
    load_weights(data, k + "weights", parameters(m));
    return m;
}

void save_gpt(const Gpt& model, const std::vector<std::string>& vocabulary, const GptRecord& r,
              const std::string& path, SavedWeights format) {
    const TransformerConfig& c = model.config;
    Json config = {{"d_model", c.d_model},           {"n_heads", c.n_heads},
                   {"n_kv_heads", c.kv_heads()},     {"d_ff", c.d_ff},
                   {"n_layers", c.n_decoder_layers}, {"vocab", c.tgt_vocab},
                   {"norm", norm_name(c.norm)},      {"positions", positions_name(c.positions)},
                   {"norm_first", c.norm_first},     {"layer_norm_eps", c.layer_norm_eps}};
    if (c.positions == PositionScheme::Learned) config["max_positions"] = c.max_positions;
    if (!c.share_embeddings) config["tied_output"] = false;
    const std::string weights =
        weights_json(torch_state_dict(parameters(const_cast<Gpt&>(model))), path, format);
    Json training = {{"steps", r.steps},
                     {"heldout_loss", r.heldout_loss},
                     {"seconds", r.seconds},
                     {"defined_run", r.defined_run},
                     {"corpus_fingerprint", r.corpus_fingerprint},
                     {"baselines", r.baselines}};
    if (r.temperature > 0) training["sampling"] = {{"temperature", r.temperature}, {"top_p", r.top_p}};
    const CorpusSettings& k = r.corpus;
    Json corpus = {{"source", k.choice.name},           {"heldout_every", k.heldout_every},
                   {"validation_every", k.validation_every}, {"validation_max", k.validation_max},
                   {"min_count", k.min_count},          {"vocabulary", k.vocabulary}};
    // the weights are already JSON text: spliced in rather than parsed again
    const std::string text = "{\"config\":" + config.dump() +
                             ",\"vocabulary\":" + Json(vocabulary).dump() +
                             ",\"training\":" + training.dump() + ",\"corpus\":" + corpus.dump() +
                             ",\"weights\":" + weights + "}\n";
    write_file_atomically(path, text);
}

bool read_gpt_record(const DataFile& file, GptRecord& r) {
    if (!file.has("training")) return false;
    r.steps = file.size("training.steps", 0, std::size_t(1) << 31);
    r.heldout_loss = file.number("training.heldout_loss");
    r.seconds = file.number("training.seconds", 0, 1e9);
    // written by this version on: a model saved before has none of these
    if (file.has("training.defined_run")) r.defined_run = file.flag("training.defined_run");
    if (file.has("training.corpus_fingerprint"))
        r.corpus_fingerprint = file.text("training.corpus_fingerprint");
    if (file.has("training.baselines")) {
        r.baselines = file.vector("training.baselines").data;
        if (r.baselines.size() != 6)
            throw file.error("training.baselines", tr("expected 6 losses: the unigram, the add-one "
                                                      "bigram and Kneser-Ney of orders 2 to 5"));
    }
    if (file.has("training.sampling")) {
        r.temperature = file.number("training.sampling.temperature", 0.01, 100);
        r.top_p = file.number("training.sampling.top_p", 0.01, 1);
    }
    return true;
}

bool read_corpus_record(const DataFile& file, const std::string& quantangshi_path,
                        CorpusSettings& k) {
    if (!file.has("corpus")) return false;
    k.source = file.text("corpus.source");
    k.choice = choose_corpus(k.source, quantangshi_path);
    k.heldout_every = file.size("corpus.heldout_every", 2, 1000);
    k.validation_every = file.size("corpus.validation_every", 2, 1000);
    k.validation_max = file.size("corpus.validation_max", 0, 1000000);
    k.min_count = file.size("corpus.min_count", 1, 1000);
    k.vocabulary = file.size("corpus.vocabulary", 1, 1 << 20);
    return true;
}

SavedGpt read_saved_gpt(const std::string& path) {
    const DataFile file = DataFile::load(path);
    SavedGpt saved;
    saved.model = load_gpt(file, "");
    saved.recorded = read_gpt_record(file, saved.record);
    CharVocabulary& v = saved.vocabulary;
    v.names = file.texts("vocabulary");
    if (v.names.size() != saved.model.config.tgt_vocab || v.names.size() < 5)
        throw file.error("vocabulary", tr("expected {} names, one per token of config.vocab",
                                          saved.model.config.tgt_vocab));
    for (std::size_t i = 0; i < v.names.size(); ++i) v.ids[v.names[i]] = static_cast<int>(i);
    return saved;
}
