// model_summary.cpp — a model described to the reader.
#include "model/transformer/transformer.h"
#include "report/model_summary.h"

#include "io/model_file.h"
#include "model/transformer/transformer_init.h"
#include "report/token_text.h"
#include "text/numbers.h"
#include "text/translate.h"

std::string scheme_text(PositionScheme scheme) {
    switch (scheme) {
        case PositionScheme::Sinusoidal:
            return tr("sinusoidal");
        case PositionScheme::Learned:
            return tr("learned positions");
        case PositionScheme::Rope:
            return "RoPE";
        case PositionScheme::Alibi:
            return "ALiBi";
        case PositionScheme::None:
            break;
    }
    return tr("no positions");
}

std::string variant_text(const TransformerConfig& c) {
    std::string text = c.norm_first ? tr("pre-norm") : tr("post-norm");
    if (c.norm == NormKind::RMS) text += tr(", RMSNorm");
    switch (c.positions) {
        case PositionScheme::Sinusoidal:
            break;
        case PositionScheme::Learned:
            text += tr(", learned positions ({} rows)", c.max_positions);
            break;
        case PositionScheme::Rope:
            text += tr(", RoPE");
            break;
        case PositionScheme::Alibi:
            text += tr(", ALiBi");
            break;
        case PositionScheme::None:
            text += tr(", no positions");
            break;
    }
    if (c.kv_heads() == 1 && c.n_heads > 1)
        text += tr(", 1 key/value head (multi-query)");
    else if (c.kv_heads() != c.n_heads)
        text += tr(", {} key/value heads (grouped-query)", c.kv_heads());
    if (c.window) text += tr(", window {}", c.window);
    if (c.attention_tile) text += tr(", tiled attention (blocks of {})", c.attention_tile);
    return text;
}

std::vector<std::string> description(const Transformer& m) {
    const TransformerConfig& c = m.config;
    std::vector<std::string> lines = {
        tr("d_model {}, h {} (d_k = {}), d_ff {}, {} encoder and {} decoder layers, "
           "vocabularies {} / {}",
           c.d_model, c.n_heads, c.d_model / c.n_heads, c.d_ff, c.n_encoder_layers,
           c.n_decoder_layers, c.src_vocab, c.tgt_vocab),
        tr("parameters: {} ({} in the two stacks and their final norms)",
           grouped(parameter_count(m)), grouped(core_parameter_count(m)))};
    const TransformerConfig paper;  // the defaults: the paper's model
    if (c.norm != paper.norm || c.positions != paper.positions || c.kv_heads() != c.n_heads ||
        c.window)
        lines.push_back(tr("variant: {}", variant_text(c)));
    return lines;
}

std::vector<std::string> training_description(const DataFile& file, const TransformerConfig& config,
                                              const std::vector<Tokens>& sources) {
    TrainingRecord r;
    if (!read_training_record(file, r)) return {};
    std::vector<std::string> lines = {
        tr("trained for {} steps (task \"{}\"), final loss {}, held-out exact match {}%", r.steps,
           r.task, fixed(r.final_loss, 4), fixed(100 * r.heldout_exact_match, 1))};
    const Vocabulary names = source_names_of(config);
    for (const Tokens& s : sources) {
        if (s.size() - 1 > r.max_source_length)
            lines.push_back(
                tr("warning: the source has {} tokens; the model never saw one longer "
                   "than {} in training, so expect mistakes",
                   s.size() - 1, r.max_source_length));
        if (r.task == "numerals" && s.size() > 2 && name_of(names, s[0]) == "0")
            lines.push_back(
                tr("warning: \"{}\" starts with 0; the model was trained on numbers "
                   "written without leading zeros, so it reads them as written and "
                   "may read them wrong",
                   text_of(names, Tokens(s.begin(), s.end() - 1))));
    }
    return lines;
}
