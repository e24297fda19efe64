// ch06_encoder_decoder — the whole Transformer, matched to torch.nn.Transformer, in its two
// data flows: training (teacher forcing, every position at once) and inference (greedy, one
// token at a time).
//
// Tutorial: 02 "数据流" (training-time and inference-time data flow, steps 1-7) and
// "解码器中注意力的不同"; 04's model architecture (encoder, decoder, Add & Norm, FFN, embeddings).
#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

#include "core/random.h"
#include "io/model_file.h"
#include "model/decoding.h"
#include "model/transformer.h"
#include "report/chapter.h"

namespace {

struct Inputs {
    Transformer model;
    std::vector<Tokens> sources, targets;
    std::size_t max_length;
};

Tokens tokens_at(const DataFile& data, const std::string& key, std::size_t i, std::size_t vocab) {
    const std::string where = key + "[" + std::to_string(i) + "]";
    const Json& v = data.at(key)[i];
    if (!v.is_array() || v.empty())
        throw data.error(where, "expected a non-empty array of token ids");
    Tokens ids;
    for (const Json& t : v) {
        if (!t.is_number_integer() || t.get<long>() < 0 ||
            t.get<long>() >= static_cast<long>(vocab))
            throw data.error(where, "expected token ids from 0 to " + std::to_string(vocab - 1));
        ids.push_back(t.get<int>());
    }
    return ids;
}

Inputs read_inputs(const DataFile& data) {
    Inputs in{load_transformer(data, "inputs"), {}, {}, data.size("inputs.max_length", 1, 10000)};
    const std::size_t batch = data.at("inputs.source").size();
    if (batch == 0 || data.at("inputs.target").size() != batch)
        throw data.error("inputs.target",
                         "expected as many target sequences as source sequences (" +
                             std::to_string(batch) + ")");
    for (std::size_t b = 0; b < batch; ++b) {
        in.sources.push_back(tokens_at(data, "inputs.source", b, in.model.config.src_vocab));
        in.targets.push_back(tokens_at(data, "inputs.target", b, in.model.config.tgt_vocab));
    }
    return in;
}

Matrix as_row(const Tokens& ids) {
    Matrix m(1, ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) m(0, i) = ids[i];
    return m;
}

Tokens prefix(const Tokens& ids, std::size_t count) {
    return Tokens(ids.begin(), ids.begin() + static_cast<long>(count));
}

void describe(std::ostream& out, const Transformer& m) {
    const TransformerConfig& c = m.config;
    out << "d_model " << c.d_model << ", h " << c.n_heads << " (d_k = " << c.d_model / c.n_heads
        << "), d_ff " << c.d_ff << ", " << c.n_encoder_layers << " encoder and "
        << c.n_decoder_layers << " decoder layers, vocabularies " << c.src_vocab << " / "
        << c.tgt_vocab << "\nparameters: " << parameter_count(m) << " (" << core_parameter_count(m)
        << " in the two stacks and their final norms)\n";
}

// Training time: the whole shifted target in one pass; the causal mask stands in for the
// sequential steps. Returns the logits (n_tgt x tgt_vocab).
Matrix training_flow(std::ostream& out, const Transformer& m, const Tokens& source,
                     const Tokens& target) {
    const TransformerConfig& c = m.config;
    const Tokens decoder_input = shifted_right(target, c.bos_id);
    out << "source (encoder input):         " << text_of(c, source) << "\n"
        << "target (what should come out):  " << text_of(c, target) << "\n"
        << "decoder input = target shifted right, starting with <bos>: "
        << text_of(c, decoder_input) << "\n";
    const Matrix memory = encode(m, {source});
    out << "the encoder runs once: memory " << shape_of(memory)
        << "; the decoder reads it in every layer (cross-attention)\n";
    const Matrix logits = decode(m, {decoder_input}, memory, {source});
    Table t({"position", "decoder sees", "should predict", "predicts (argmax)"});
    for (std::size_t p = 0; p < decoder_input.size(); ++p)
        t.add({std::to_string(p), text_of(c, prefix(decoder_input, p + 1)), text_of(c, {target[p]}),
               text_of(c, {static_cast<int>(argmax(logits, p))})});
    t.print(out);
    return logits;
}

// Inference time: the loop of tutorial 02's steps 3-7, printed step by step.
Tokens inference_flow(std::ostream& out, const Transformer& m, const Tokens& source,
                      std::size_t max_length) {
    const GreedySteps g = greedy_decode(m, source, max_length);
    for (std::size_t s = 0; s < g.step_logits.size(); ++s)
        out << "  step " << s + 1 << ": decoder input "
            << text_of(m.config, prefix(g.output, s + 1)) << "  → "
            << text_of(m.config, {g.output[s + 1]}) << "\n";
    out << "  "
        << (g.output.back() == m.config.eos_id ? "stopped at <eos>"
                                               : "stopped at the maximum length")
        << ": " << text_of(m.config, g.output) << "\n";
    return g.output;
}

// Teacher-forced row t must equal the last row of decoding the prefix 0..t alone.
double flows_gap(const Transformer& m, const Tokens& source, const Tokens& decoder_input) {
    const Matrix memory = encode(m, {source});
    const Matrix all = decode(m, {decoder_input}, memory, {source});
    double worst = 0.0;
    for (std::size_t t = 0; t < decoder_input.size(); ++t) {
        const Matrix step = decode(m, {prefix(decoder_input, t + 1)}, memory, {source});
        worst = std::max(worst, max_abs_diff(row_of(step, t), row_of(all, t)));
    }
    return worst;
}

void one_example(Chapter& ch, const Transformer& m, const Inputs& in, std::size_t b) {
    const bool pre = m.config.norm_first;
    const std::string tag = std::string(pre ? "pre_norm" : "post_norm") + "_" + std::to_string(b);
    ch.step(std::string(pre ? "Pre-norm: x + Sublayer(LayerNorm(x))"
                            : "Post-norm (the paper): LayerNorm(x + Sublayer(x))") +
            ", example " + std::to_string(b));
    ch.out << "Training time: all positions at once, the causal mask hiding the future.\n";
    ch.record("logits_" + tag, training_flow(ch.out, m, in.sources[b], in.targets[b]),
              Shape::Matrix, tolerance::end_to_end);
    ch.out << "Inference time: encode once, start from <bos>, append the argmax until <eos>.\n";
    ch.record("greedy_" + tag, as_row(inference_flow(ch.out, m, in.sources[b], in.max_length)),
              Shape::Vector);
    const double gap = flows_gap(m, in.sources[b], shifted_right(in.targets[b], m.config.bos_id));
    ch.out << "The two flows agree: max |teacher-forced logits − step-by-step logits| = "
           << sci(gap) << (gap <= 1e-12 ? " (≤ 1e-12)\n" : " (MORE THAN 1e-12)\n");
}

void data_file_model(Chapter& ch) {
    Inputs in = read_inputs(ch.data);
    ch.step("The model");
    describe(ch.out, in.model);
    ch.record_number("small_parameter_count", static_cast<double>(parameter_count(in.model)));
    ch.record_number("small_core_parameter_count",
                     static_cast<double>(core_parameter_count(in.model)));
    for (const bool norm_first : {false, true}) {
        in.model.config.norm_first = norm_first;
        for (std::size_t b = 0; b < in.sources.size(); ++b) one_example(ch, in.model, in, b);
    }
    ch.out << "\n(The model is untrained — its predictions are arbitrary. Chapter 7 trains it.)\n";
}

void base_model(Chapter& ch) {
    TransformerConfig c;  // the defaults are the paper's base model
    c.src_vocab = c.tgt_vocab = 37000;
    c.share_embeddings = true;
    ch.step("The paper's base model");
    const auto t0 = std::chrono::steady_clock::now();
    const Transformer m = random_transformer(c, 2017);
    Random rng(64);
    Tokens source(64), target(64);
    for (int& id : source) id = 3 + static_cast<int>(rng.next() % (c.src_vocab - 3));
    for (int& id : target) id = 3 + static_cast<int>(rng.next() % (c.tgt_vocab - 3));
    const auto t1 = std::chrono::steady_clock::now();
    const Matrix logits = logits_teacher_forced(m, source, target);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    describe(ch.out, m);
    ch.out << "(source, target and the output projection share one " << c.src_vocab << " x "
           << c.d_model << " embedding table)\nseeded random weights in "
           << fixed(std::chrono::duration<double>(t1 - t0).count(), 2)
           << " s; one forward pass on 64 + 64 tokens → logits " << shape_of(logits) << " in "
           << fixed(seconds, 2) << " s\n";
    ch.record_number("parameter_count", static_cast<double>(parameter_count(m)));
    ch.record_number("core_parameter_count", static_cast<double>(core_parameter_count(m)));
    ch.measured("forward_seconds", seconds);
}

// --source "3 1 4, 1 5": each sequence's words looked up in the model's vocabulary.
// "<pad> <bos> <eos> 0 1 … 9", or its first words and how many more
std::string vocabulary_text(const Vocabulary& names, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count && i < 24; ++i) s += (i ? " " : "") + names[i];
    return count > 24 ? s + " … and " + std::to_string(count - 24) + " more" : s;
}

// One sequence of --source, word by word: each must be a name in the model's vocabulary ("11"
// is not a digit, and not a raw token id either).
Tokens parse_source(const std::string& text, const TransformerConfig& c) {
    const Vocabulary names = names_of(c);
    Tokens source;
    std::stringstream words(text);
    for (std::string w; words >> w;) {
        const auto it = std::find(names.begin(), names.end(), w);
        if (it == names.end() || static_cast<std::size_t>(it - names.begin()) >= c.src_vocab)
            throw UsageError("--source: \"" + w + "\" is no word of the model's source vocabulary (" +
                             vocabulary_text(names, c.src_vocab) + ")");
        source.push_back(static_cast<int>(it - names.begin()));
    }
    if (source.empty()) throw UsageError("--source: an empty sequence; give words, sequences separated by commas");
    if (source.back() != c.eos_id) source.push_back(c.eos_id);  // as in training (chapter 7)
    return source;
}

std::vector<Tokens> parse_sources(const std::string& text, const TransformerConfig& c) {
    std::vector<Tokens> sources;
    std::stringstream all(text);
    for (std::string one; std::getline(all, one, ',');) sources.push_back(parse_source(one, c));
    if (sources.empty() || text.back() == ',') sources.push_back(parse_source("", c));  // "" and "3 1," alike
    return sources;
}

// What the model file says of its training, and a warning for sources longer than it ever saw.
void describe_training(std::ostream& out, const DataFile& file, const std::vector<Tokens>& sources) {
    TrainingRecord r;
    if (!read_training_record(file, r)) return;
    out << "trained for " << r.steps << " steps (task \"" << r.task << "\"), final loss " << fixed(r.final_loss, 4)
        << ", held-out exact match " << fixed(100 * r.heldout_exact_match, 1) << "%\n";
    for (const Tokens& s : sources)
        if (s.size() - 1 > r.max_source_length)
            out << "warning: the source has " << s.size() - 1 << " tokens; the model never saw one longer than "
                << r.max_source_length << " in training, so expect mistakes\n";
}

void decode_from_weights(Chapter& ch) {
    const DataFile file = DataFile::load(ch.options.value("--weights"));
    const Transformer m = load_transformer(file, "");
    if (!ch.options.has("--source"))
        throw UsageError("--source: expected the sequences to decode, e.g. --source \"3 1 4, 1 5\"");
    const std::vector<Tokens> sources = parse_sources(ch.options.value("--source"), m.config);
    ch.step("Greedy decoding with " + file.path());
    describe(ch.out, m);
    describe_training(ch.out, file, sources);
    for (std::size_t n = 0; n < sources.size(); ++n) {
        ch.out << "source: " << text_of(m.config, sources[n]) << "\n";
        const Tokens output = inference_flow(ch.out, m, sources[n], 2 * sources[n].size() + 2);
        ch.record("decoded_" + std::to_string(n), as_row(output), Shape::Vector);
    }
}

void walkthrough(Chapter& ch) {
    const Options& o = ch.options;
    if (o.check && (o.has("--weights") || o.has("--config")))
        throw UsageError(
            "--check: compares the data file's example; use it without --weights and --config");
    if (o.has("--config") && o.value("--config") != "base")
        throw UsageError("--config: expected \"base\"");
    if (o.has("--config")) return base_model(ch);
    if (o.has("--weights")) return decode_from_weights(ch);
    data_file_model(ch);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch06_encoder_decoder",
        "the full encoder-decoder: training-time and inference-time data flow, matched to "
        "nn.Transformer",
        "02 \"数据流\" and \"解码器中注意力的不同\"; 04's model architecture",
        {{"--weights", "FILE", "load a model (the format ch07 writes) and decode --source"},
         {"--source", "SEQS",
          "token sequences to decode, e.g. \"3 1 4, 1 5 9\" (<eos> is appended)"},
         {"--config", "base",
          "the paper's base model: parameter count and one timed forward pass"}}};
    return run_chapter(argc, argv, info, walkthrough);
}
