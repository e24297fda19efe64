// ch06_encoder_decoder — the whole Transformer, matched to torch.nn.Transformer, in its two
// data flows: training (teacher forcing, every position at once) and inference (greedy, one
// token at a time).
//
// Tutorial: 02 "数据流" (training-time and inference-time data flow, steps 1-7) and
// "解码器中注意力的不同"; 04's model architecture (encoder, decoder, Add & Norm, FFN, embeddings).
#include <chrono>
#include <sstream>
#include <string>

#include "chapter.h"
#include "model_io.h"
#include "print.h"
#include "random.h"
#include "transformer.h"

namespace {

std::string name_of(const TransformerConfig& c, int id) {
    if (static_cast<std::size_t>(id) < c.vocabulary.size()) return c.vocabulary[static_cast<std::size_t>(id)];
    if (id == c.pad_id) return "<pad>";
    if (id == c.bos_id) return "<bos>";
    if (id == c.eos_id) return "<eos>";
    return std::to_string(id);
}

std::string text_of(const TransformerConfig& c, const Tokens& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : " ") + name_of(c, id);
    return s;
}

Tokens tokens_at(const DataFile& data, const std::string& key, std::size_t i, std::size_t vocab) {
    const std::string where = key + "[" + std::to_string(i) + "]";
    const Json& v = data.at(key)[i];
    if (!v.is_array() || v.empty()) throw data.error(where, "expected a non-empty array of token ids");
    Tokens ids;
    for (const Json& t : v) {
        if (!t.is_number_integer() || t.get<long>() < 0 || t.get<long>() >= static_cast<long>(vocab))
            throw data.error(where, "expected token ids from 0 to " + std::to_string(vocab - 1));
        ids.push_back(t.get<int>());
    }
    return ids;
}

Matrix as_row(const Tokens& ids) {
    Matrix m(1, ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) m(0, i) = ids[i];
    return m;
}

int argmax(const Matrix& m, std::size_t row) {
    std::size_t best = 0;
    for (std::size_t c = 1; c < m.cols; ++c) best = m(row, c) > m(row, best) ? c : best;
    return static_cast<int>(best);
}

void describe(std::ostream& out, const Transformer& m) {
    const TransformerConfig& c = m.config;
    out << "d_model " << c.d_model << ", h " << c.n_heads << " (d_k = " << c.d_model / c.n_heads << "), d_ff " << c.d_ff
        << ", " << c.n_encoder_layers << " encoder and " << c.n_decoder_layers << " decoder layers, vocabularies "
        << c.src_vocab << " / " << c.tgt_vocab << "\nparameters: " << parameter_count(m) << " (" << core_parameter_count(m)
        << " in the two stacks and their final norms)\n";
}

// Training time: the whole shifted target in one pass; the causal mask stands in for the
// sequential steps. Returns the logits (m x tgt_vocab).
Matrix training_flow(std::ostream& out, const Transformer& m, const Tokens& source, const Tokens& target) {
    const TransformerConfig& c = m.config;
    Tokens decoder_input = {c.bos_id};
    decoder_input.insert(decoder_input.end(), target.begin(), target.end() - 1);
    out << "source (encoder input):         " << text_of(c, source) << "\n"
        << "target (what should come out):  " << text_of(c, target) << "\n"
        << "decoder input = target shifted right, starting with <bos>: " << text_of(c, decoder_input) << "\n";
    const Matrix memory = encode(m, source);
    out << "the encoder runs once: memory " << shape_of(memory) << "; the decoder reads it in every layer (cross-attention)\n";
    const Matrix logits = decode(m, decoder_input, memory, source);
    Table t({"position", "decoder sees", "should predict", "predicts (argmax)"});
    for (std::size_t p = 0; p < decoder_input.size(); ++p)
        t.add({std::to_string(p), text_of(c, Tokens(decoder_input.begin(), decoder_input.begin() + static_cast<long>(p) + 1)),
               name_of(c, target[p]), name_of(c, argmax(logits, p))});
    t.print(out);
    return logits;
}

// Inference time: the loop of tutorial 02's steps 3-7, printed step by step.
Tokens inference_flow(std::ostream& out, const Transformer& m, const Tokens& source, std::size_t max_length) {
    const GreedySteps g = greedy_decode(m, source, max_length);
    for (std::size_t s = 0; s < g.step_logits.size(); ++s)
        out << "  step " << s + 1 << ": decoder input " << text_of(m.config, Tokens(g.output.begin(), g.output.begin() + static_cast<long>(s) + 1))
            << "  → " << name_of(m.config, g.output[s + 1]) << "\n";
    out << "  " << (g.output.back() == m.config.eos_id ? "stopped at <eos>" : "stopped at the maximum length") << ": "
        << text_of(m.config, g.output) << "\n";
    return g.output;
}

// Teacher-forced row t must equal the last row of decoding the prefix 0..t alone.
double flows_gap(const Transformer& m, const Tokens& source, const Tokens& decoder_input) {
    const Matrix memory = encode(m, source);
    const Matrix all = decode(m, decoder_input, memory, source);
    double worst = 0.0;
    for (std::size_t t = 0; t < decoder_input.size(); ++t) {
        const Matrix step = decode(m, Tokens(decoder_input.begin(), decoder_input.begin() + static_cast<long>(t) + 1), memory, source);
        worst = std::max(worst, max_abs_diff(row_of(step, t), row_of(all, t)));
    }
    return worst;
}

void base_model(std::ostream& out, Results& results) {
    TransformerConfig c;  // the defaults are the paper's base model
    c.src_vocab = c.tgt_vocab = 37000;
    c.share_embeddings = true;
    print_step(out, "The paper's base model");
    const auto t0 = std::chrono::steady_clock::now();
    const Transformer m = random_transformer(c, 2017);
    Random rng(64);
    Tokens source(64), target(64);
    for (int& id : source) id = 3 + static_cast<int>(rng.next() % (c.src_vocab - 3));
    for (int& id : target) id = 3 + static_cast<int>(rng.next() % (c.tgt_vocab - 3));
    const auto t1 = std::chrono::steady_clock::now();
    const Matrix logits = logits_teacher_forced(m, source, target);
    const auto t2 = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(t2 - t1).count();
    describe(out, m);
    out << "(source, target and the output projection share one " << c.src_vocab << " x " << c.d_model << " embedding table)\n"
        << "seeded random weights in " << fixed(std::chrono::duration<double>(t1 - t0).count(), 2) << " s; one forward pass on 64 + 64 tokens → logits "
        << shape_of(logits) << " in " << fixed(seconds, 2) << " s\n";
    results.add_number("parameter_count", static_cast<double>(parameter_count(m)));
    results.add_number("core_parameter_count", static_cast<double>(core_parameter_count(m)));
    results.add_measurement("forward_seconds", seconds);
}

void decode_from_weights(std::ostream& out, const Options& o, Results& results) {
    const DataFile file = DataFile::load(o.extra.at("--weights"));
    const Transformer m = load_transformer(file, "");
    print_step(out, "Greedy decoding with " + file.path());
    describe(out, m);
    if (!o.has("--source")) throw DataError("--source: expected the sequences to decode, e.g. --source \"3 1 4, 1 5\"");
    std::stringstream all(o.extra.at("--source"));
    std::string one;
    for (std::size_t n = 0; std::getline(all, one, ','); ++n) {
        Tokens source;
        std::stringstream words(one);
        for (std::string w; words >> w;) {
            int id = -1;
            for (std::size_t v = 0; v < m.config.vocabulary.size(); ++v) id = m.config.vocabulary[v] == w ? static_cast<int>(v) : id;
            if (id < 0 && w.find_first_not_of("0123456789") == std::string::npos && w.size() < 9) id = std::stoi(w);
            if (id < 0 || static_cast<std::size_t>(id) >= m.config.src_vocab)
                throw DataError("--source: \"" + w + "\" is no token of the model's vocabulary");
            source.push_back(id);
        }
        if (source.empty()) throw DataError("--source: an empty sequence; separate sequences with commas");
        if (source.back() != m.config.eos_id) source.push_back(m.config.eos_id);  // as in training (chapter 7)
        out << "source: " << text_of(m.config, source) << "\n";
        const Tokens output = inference_flow(out, m, source, 2 * source.size() + 2);
        results.add_vector("decoded_" + std::to_string(n), as_row(output));
    }
}

void walkthrough(const DataFile& data, const Options& o, std::ostream& out, Results& results) {
    if (o.check && (o.has("--weights") || o.has("--config")))
        throw DataError("--check: compares the data file's example; use it without --weights and --config");
    if (o.has("--config")) {
        if (o.extra.at("--config") != "base") throw DataError("--config: expected \"base\"");
        return base_model(out, results);
    }
    if (o.has("--weights")) return decode_from_weights(out, o, results);

    Transformer m = load_transformer(data, "inputs");
    const std::size_t batch = data.at("inputs.source").size();
    if (batch == 0 || data.at("inputs.target").size() != batch)
        throw data.error("inputs.target", "expected as many target sequences as source sequences (" + std::to_string(batch) + ")");
    const std::size_t max_length = static_cast<std::size_t>(data.integer("inputs.max_length", 1, 10000));
    print_step(out, "The model");
    describe(out, m);
    results.add_number("small_parameter_count", static_cast<double>(parameter_count(m)));
    results.add_number("small_core_parameter_count", static_cast<double>(core_parameter_count(m)));

    for (const bool norm_first : {false, true}) {
        m.config.norm_first = norm_first;
        const std::string placement = norm_first ? "pre_norm" : "post_norm";
        for (std::size_t b = 0; b < batch; ++b) {
            const Tokens source = tokens_at(data, "inputs.source", b, m.config.src_vocab);
            const Tokens target = tokens_at(data, "inputs.target", b, m.config.tgt_vocab);
            const std::string tag = placement + "_" + std::to_string(b);
            print_step(out, std::string(norm_first ? "Pre-norm: x + Sublayer(LayerNorm(x))" : "Post-norm (the paper): LayerNorm(x + Sublayer(x))") +
                                ", example " + std::to_string(b));
            out << "Training time: all positions at once, the causal mask hiding the future.\n";
            results.add("logits_" + tag, training_flow(out, m, source, target), tolerance::end_to_end);
            out << "Inference time: encode once, start from <bos>, append the argmax, repeat until <eos>.\n";
            results.add_vector("greedy_" + tag, as_row(inference_flow(out, m, source, max_length)));
            Tokens decoder_input = {m.config.bos_id};
            decoder_input.insert(decoder_input.end(), target.begin(), target.end() - 1);
            const double gap = flows_gap(m, source, decoder_input);
            out << "The two flows agree: max |teacher-forced logits − step-by-step logits| = " << sci(gap)
                << (gap <= 1e-12 ? " (≤ 1e-12)\n" : " (MORE THAN 1e-12)\n");
        }
    }
    out << "\n(The model is untrained — its predictions are arbitrary. Chapter 7 trains it.)\n";
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch06_encoder_decoder",
                           "the full encoder-decoder: training-time and inference-time data flow, matched to nn.Transformer",
                           "02 \"数据流\" and \"解码器中注意力的不同\"; 04's model architecture",
                           {{"--weights", "FILE", "load a model (the format ch07 writes) and decode --source"},
                            {"--source", "SEQS", "token sequences to decode, e.g. \"3 1 4, 1 5 9\" (<eos> is appended)"},
                            {"--config", "base", "the paper's base model: parameter count and one timed forward pass"}}};
    return run_chapter(argc, argv, info, walkthrough);
}
