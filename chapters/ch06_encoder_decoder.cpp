// ch06_encoder_decoder — the whole Transformer, matched to torch.nn.Transformer, in its two
// data flows: training (teacher forcing, every position at once) and inference (greedy, one
// token at a time).
//
// Tutorial: 02 "数据流" (training-time and inference-time data flow, steps 1-7) and
// "解码器中注意力的不同"; 04's model architecture (encoder, decoder, Add & Norm, FFN, embeddings).
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/random.h"
#include "io/model_file.h"
#include "model/transformer/norms.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/decoding.h"
#include "report/chapter.h"
#include "report/model_summary.h"
#include "report/source_words.h"
#include "report/token_text.h"
#include "text/translate.h"

namespace {

// The data file's model in the paper's placement (post-norm) and the same weights pre-norm: two
// models, compared side by side.
struct Inputs {
    Transformer post, pre;
    std::vector<Tokens> sources, targets;
    std::size_t max_length;
    Matrix an_x, an_sublayer;  // Add & Norm: a small batch of positions (rows), a sublayer's output
};

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.post = load_transformer(data, "inputs");
    in.post.config.norm_first = false;
    in.pre = in.post;
    in.pre.config.norm_first = true;
    in.sources = data.token_lists("inputs.source", in.post.config.src_vocab);
    in.targets = data.token_lists("inputs.target", in.post.config.tgt_vocab);
    if (in.targets.size() != in.sources.size())
        throw data.error("inputs.target", tr("expected as many target sequences as source "
                                             "sequences ({})",
                                             in.sources.size()));
    in.max_length = data.size("inputs.max_length", 1, 10000);
    in.an_x = data.matrix("inputs.add_norm.x");
    in.an_sublayer = data.matrix("inputs.add_norm.sublayer");
    if (in.an_sublayer.rows != in.an_x.rows || in.an_sublayer.cols != in.an_x.cols)
        throw data.error("inputs.add_norm.sublayer",
                         tr("expected {} like inputs.add_norm.x", shape_of(in.an_x)));
    return in;
}

Matrix as_row(const Tokens& ids) {
    Matrix m(1, ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) m(0, i) = ids[i];
    return m;
}

Tokens prefix(const Tokens& ids, std::size_t count) {
    return Tokens(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(count));
}

std::string placement_name(const Transformer& m) {
    return m.config.norm_first ? "pre_norm" : "post_norm";
}

// Training time, narrated: the whole shifted target in one pass, its logits computed before;
// the causal mask stands in for the sequential steps.
void narrate_training_flow(Chapter& ch, const Transformer& m, const Tokens& source,
                           const Tokens& target, const Matrix& logits) {
    const TransformerConfig& c = m.config;
    const Tokens decoder_input = shifted_right(target, c.bos_id);
    ch.line(tr("source (encoder input):         {}", source_text_of(c, source)));
    ch.line(tr("target (what should come out):  {}", text_of(c, target)));
    ch.line(tr("decoder input = target shifted right, starting with <bos>: {}",
               text_of(c, decoder_input)));
    ch.line(
        tr("the encoder runs once: memory {}; the decoder reads it in every layer "
           "(cross-attention)",
           shape_of(Matrix(source.size(), c.d_model))));
    Table t({tr("position"), tr("decoder sees"), tr("should predict"), tr("predicts")});
    for (std::size_t p = 0; p < decoder_input.size(); ++p)
        t.add({std::to_string(p), text_of(c, prefix(decoder_input, p + 1)), text_of(c, {target[p]}),
               text_of(c, {next_token(row_of(logits, p), c)})});
    ch.table(t);
}

// Inference time: the loop of tutorial 02's steps 3-7, narrated step by step.
void narrate_greedy(Chapter& ch, const Transformer& m, const GreedySteps& g) {
    for (std::size_t s = 0; s < g.step_logits.size(); ++s)
        ch.line("  " + tr("step {}: decoder input {}  → {}", s + 1,
                          text_of(m.config, prefix(g.output, s + 1)),
                          text_of(m.config, {g.output[s + 1]})));
    ch.line("  " + (g.output.back() == m.config.eos_id
                        ? tr("stopped at <eos>: {}", text_of(m.config, g.output))
                        : tr("stopped at the maximum length: {}", text_of(m.config, g.output))));
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

void the_model(Chapter& ch, const Inputs& in) {
    ch.step(tr("The model (04 模型架构) — untrained: its predictions are arbitrary"));
    ch.say(tr(
        "Random weights, from the data file, so that PyTorch computes the same numbers; chapter 7 "
        "trains a model. Embeddings × √d_model + positions, N encoder layers, N decoder layers, an "
        "output projection:"));
    for (const std::string& line : description(in.post)) ch.line(line);
    ch.record_number("small_parameter_count", static_cast<double>(parameter_count(in.post)));
    ch.record_number("small_core_parameter_count",
                     static_cast<double>(core_parameter_count(in.post)));
    const TransformerConfig& c = in.post.config;
    ch.say(
        tr("In each layer the feed-forward net widens every position and narrows it back (04 "
           "前馈神经网络):"));
    ch.line("  " + tr("here  {1} → {2} → {1}   (x·W1: (n x {1})·({1} x {2}), relu, ·W2: ({2} x "
                      "{1}))",
                      c.d_model, c.d_ff));
    ch.line("  " + tr("paper 512 → 2048 → 512"));
    ch.correction("04 前馈神经网络",
                  tr("\"two linear regressions and a ReLU\": two linear maps (x·W1 + b1, then "
                     "·W2 + b2), nothing is regressed; the shapes are right: 512 → 2048 → 512."));
}

// Add & Norm on a small batch: LayerNorm normalises each position over its features; BatchNorm
// would normalise each feature over the batch.
void add_and_norm(Chapter& ch, const Inputs& in) {
    const Matrix r = add(in.an_x, in.an_sublayer);  // the residual: x + Sublayer(x)
    const Norm unit{Matrix(1, r.cols, 1.0), Matrix(1, r.cols), 1e-5};
    const Matrix ln = layer_norm(r, unit), bn = batch_norm(r);
    Matrix col_mean(1, ln.cols);  // LayerNorm's columns' means
    add_column_sums(col_mean, scale(ln, 1.0 / static_cast<double>(ln.rows)));
    ch.step(tr("Add & Norm with numbers: LayerNorm beside BatchNorm (04 LayerNorm & BatchNorm)"));
    ch.matrix(tr("x + Sublayer(x): {} positions of a batch, {} features", r.rows, r.cols), r);
    ch.show("add_norm_layer_norm",
            tr("LayerNorm: each row to mean 0, variance 1 (what the Transformer does)"), ln);
    ch.show("add_norm_batch_norm",
            tr("BatchNorm: each column to mean 0, variance 1, over the batch"), bn);
    std::string means;
    for (double m : col_mean.data) means += (means.empty() ? "" : " ") + fixed(m, 2);
    if (ln.cols > 1)
        ch.say(
            tr("LayerNorm's rows each have mean 0 and variance 1; its columns do not (their "
               "means: {}). BatchNorm's columns do; a position's result depends on the other "
               "positions of the batch, and on its size — at inference it needs averages kept "
               "from training. LayerNorm needs no batch.",
               means));
    else
        ch.say(
            tr("With one feature, LayerNorm turns every row into 0 (a single number has no "
               "spread to normalise: it has mean 0 and variance 0), while BatchNorm normalises "
               "the column over the batch. Give the batch more features to see the two "
               "differ as they do in a model."));
    ch.correction(
        "04 LayerNorm & BatchNorm",
        tr("\"LayerNorm computes the mean and variance of each sample over the mini-batch\": "
           "LayerNorm "
           "uses no batch at all — each position's vector is normalised over its own features "
           "(biased variance, eps inside the root, as nn.LayerNorm), the rows of the first table "
           "above; normalising over the batch is BatchNorm, the second."));
}

// One model on one example: the teacher-forced logits and the greedy output.
struct Flows {
    std::string tag;  // --json's: post_norm_0, pre_norm_1, …
    Matrix logits;
    GreedySteps greedy;
};
std::vector<Flows> flows_of(const Inputs& in) {
    std::vector<Flows> out;
    for (const Transformer* m : {&in.post, &in.pre})
        for (std::size_t b = 0; b < in.sources.size(); ++b)
            out.push_back({placement_name(*m) + "_" + std::to_string(b),
                           logits_teacher_forced(*m, in.sources[b],
                                                 shifted_right(in.targets[b], m->config.bos_id)),
                           greedy_decode(*m, in.sources[b], in.max_length)});
    return out;
}

// Both models on every example of the data file: the teacher-forced logits and the greedy output
// are recorded; the first example, in the paper's placement, is narrated.
void data_flows(Chapter& ch, const Inputs& in) {
    const std::vector<Flows> flows = flows_of(in);
    for (const Flows& f : flows) {
        ch.record("logits_" + f.tag, f.logits, Shape::Matrix, tolerance::end_to_end);
        ch.record("greedy_" + f.tag, as_row(f.greedy.output), Shape::Vector);
        if (&f != &flows.front()) continue;  // the paper's placement, the first example
        ch.step(tr("Training-time data flow: every position at once (02 训练时数据流)"));
        narrate_training_flow(ch, in.post, in.sources[0], in.targets[0], f.logits);
        ch.step(tr("Inference-time data flow: one token at a time (02 推理时数据流)"));
        ch.line(
            tr("Encode once, start from <bos>, append the most likely token, repeat until "
               "<eos>:"));
        narrate_greedy(ch, in.post, f.greedy);
    }
}

void flows_agree(Chapter& ch, const Inputs& in) {
    std::vector<double> gaps;  // post-norm's examples, then pre-norm's
    for (const Transformer* m : {&in.post, &in.pre})
        for (std::size_t b = 0; b < in.sources.size(); ++b)
            gaps.push_back(
                flows_gap(*m, in.sources[b], shifted_right(in.targets[b], m->config.bos_id)));
    ch.step(tr("The two flows agree (02 训练测试细节)"));
    ch.say(
        tr("Row t of the one teacher-forced pass equals the last row of decoding the prefix 0..t "
           "alone — for every example, in both placements:"));
    Table t({tr("placement"), tr("example"), tr("max |teacher-forced − step by step|")});
    for (std::size_t i = 0; i < gaps.size(); ++i)
        t.add({i < in.sources.size() ? tr("post-norm") : tr("pre-norm"),
               std::to_string(i % in.sources.size()), sci(gaps[i])});
    ch.table(t);
    ch.say(tr(
        "They differ in one place only: in training every position sees the true previous tokens "
        "(teacher forcing); at inference it sees its own predictions, so one mistake is fed "
        "back."));
}

// The first example whose source ends in padding, against the same source without it: how far
// the logits move (they should not). example = the number of sources when none is padded.
struct PaddingTest {
    std::size_t example = 0;
    Tokens padded, unpadded;
    double gap = 0;
};
PaddingTest padding_test(const Inputs& in) {
    PaddingTest p;
    const int pad = in.post.config.pad_id;
    while (p.example < in.sources.size() && in.sources[p.example].back() != pad) ++p.example;
    if (p.example == in.sources.size()) return p;
    p.padded = p.unpadded = in.sources[p.example];
    while (!p.unpadded.empty() && p.unpadded.back() == pad) p.unpadded.pop_back();
    const Tokens input = shifted_right(in.targets[p.example], in.post.config.bos_id);
    p.gap = max_abs_diff(logits_teacher_forced(in.post, p.padded, input),
                         logits_teacher_forced(in.post, p.unpadded, input));
    return p;
}

void placements_and_padding(Chapter& ch, const Inputs& in) {
    const Tokens& src = in.sources.back();
    const Tokens dec = shifted_right(in.targets.back(), in.post.config.bos_id);
    const double placement_gap = max_abs_diff(logits_teacher_forced(in.post, src, dec),
                                              logits_teacher_forced(in.pre, src, dec));
    const PaddingTest p = padding_test(in);
    ch.step(tr("Post-norm and pre-norm (04 编码器: LayerNorm(x + Sublayer(x)))"));
    ch.line(
        tr("post-norm (the paper, nn.Transformer's norm_first=False):  x = LayerNorm(x + "
           "Sublayer(x))"));
    ch.line(
        tr("pre-norm  (norm_first=True, common since):                x = x + "
           "Sublayer(LayerNorm(x))"));
    if (placement_gap > 0)
        ch.line(tr("Same weights, other logits: max difference {}.", fixed(placement_gap, 3)));
    else if (in.post.config.d_model == 1)
        ch.line(
            tr("Same weights, and here the same logits (max difference 0): with d_model = 1 "
               "every LayerNorm outputs its bias whatever it is given."));
    else
        ch.line(tr("Same weights, and here the same logits (max difference 0)."));
    ch.step(tr("Padding is masked in every attention"));
    if (p.example == in.sources.size()) {
        ch.say(
            tr("No source of this data file ends in padding (pad_id {}): there is nothing to "
               "take away and compare.",
               in.post.config.pad_id));
        return;
    }
    const double gap = p.gap;
    ch.say(tr("source {} against the same without its padding, {}:",
              source_text_of(in.post.config, p.padded),
              source_text_of(in.post.config, p.unpadded)));
    if (gap <= 1e-12)
        ch.say(
            tr("max |logits − logits| = {} — the padded keys change nothing, in the encoder "
               "and in cross-attention.",
               sci(gap)));
    else
        ch.say(
            tr("max |logits − logits| = {}: the padding changed the logits, so a mask is "
               "missing somewhere.",
               sci(gap)));
}

void dropout(Chapter& ch) {
    ch.step(tr("Dropout, and why these chapters run without it (04; the paper §5.4)"));
    ch.say(tr(
        "In training the paper drops 10% of the entries of every sublayer's output (and of the "
        "embeddings) at random, setting them to 0 and scaling the rest by 1/0.9, so that no unit "
        "can rely on any other; at inference nothing is dropped. A random choice would make every "
        "run different and no number comparable with PyTorch's, so every chapter runs with dropout "
        "0 (nn.Transformer(dropout=0.0) in the oracle), training included."));
}

void base_model(Chapter& ch) {
    TransformerConfig c;  // the defaults are the paper's base model
    c.src_vocab = c.tgt_vocab = 37000;
    c.share_embeddings = true;
    ch.step(tr("The paper's base model"));
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
    for (const std::string& line : description(m)) ch.line(line);
    ch.line(tr("(source, target and the output projection share one {} x {} embedding table)",
               c.src_vocab, c.d_model));
    ch.line(
        tr("seeded random weights in {} s; one forward pass on 64 + 64 tokens → logits {} in "
           "{} s",
           fixed(std::chrono::duration<double>(t1 - t0).count(), 2), shape_of(logits),
           fixed(seconds, 2)));
    ch.record_number("parameter_count", static_cast<double>(parameter_count(m)));
    ch.record_number("core_parameter_count", static_cast<double>(core_parameter_count(m)));
    ch.measured("forward_seconds", seconds);
}

void decode_from_weights(Chapter& ch) {
    const DataFile file = DataFile::load(ch.options.value("--weights"));
    const Transformer m = load_transformer(file, "");
    if (!ch.options.has("--source"))
        throw UsageError(
            tr("--source: expected the sequences to decode, e.g. --source \"3 1 4, 1 5\""));
    const std::vector<Tokens> sources = parse_sources(ch.options.value("--source"), m.config);
    std::vector<GreedySteps> greedy;
    for (const Tokens& source : sources) try {
            greedy.push_back(greedy_decode(m, source, 2 * source.size() + 2));
        } catch (const NonFiniteLogits& e) {
            throw non_finite_model(file.path(), e.step);
        }
    ch.step(tr("Greedy decoding with {}", file.path()));
    for (const std::string& line : description(m)) ch.line(line);
    for (const std::string& line : training_description(file, m.config, sources)) ch.line(line);
    const Vocabulary names = names_of(m.config);
    std::vector<Words> decoded;  // for --json: each output's words, without <bos> and <eos>
    for (std::size_t n = 0; n < sources.size(); ++n) {
        ch.line(tr("source: {}", source_text_of(m.config, sources[n])));
        const GreedySteps& g = greedy[n];
        narrate_greedy(ch, m, g);
        ch.record("decoded_" + std::to_string(n), as_row(g.output), Shape::Vector);
        Words words;
        for (int id : g.output)
            if (id != m.config.bos_id && id != m.config.eos_id) words.push_back(name_of(names, id));
        decoded.push_back(words);
    }
    if (sources.size() == 1)
        ch.reported("decoded", decoded[0]);
    else
        ch.reported("decoded", decoded);
}

void corrections(Chapter& ch) {
    ch.correction(
        "02 训练时数据流",
        tr("\"the encoder outputs K and V\": the encoder outputs one matrix, the memory; "
           "every decoder layer makes its own keys and values from it with its own W_K, W_V."));
    ch.correction(
        "02 解码器中注意力的不同",
        tr("\"the decoder's Q comes from the hidden state of the previous time "
           "step\": an RNN's picture. The queries of cross-attention are the decoder's "
           "masked self-attention output at the same positions — for every position at once "
           "in training."));
    ch.correction(
        "02 训练时数据流",
        tr("\"the decoder's input is the target sequence\": the target shifted right, "
           "<bos> first (printed above), so that position t predicts target t having seen "
           "only the tokens before it."));
    ch.correction(
        "04 模型架构",
        tr("\"the decoder outputs y_t from y_1 … y_{t−1} and z_t\": from y_1 … y_{t−1} and "
           "all of z_1 … z_n — cross-attention reads every source position."));
    ch.correction(
        "04 模型架构",
        tr("\"auto-regressive: the current value a linear combination of past values\": that "
           "is a linear AR model of time series; a Transformer's next token depends on the past "
           "tokens through the whole network, nowhere linearly."));
    ch.correction(
        "04 嵌入层",
        tr("\"the two embedding layers share their weights\": the paper shares one matrix between "
           "both embeddings and the pre-softmax projection (§3.4); --config base does so."));
    ch.correction(
        "happy-llm 2.2–2.3",
        tr("the textbook's later code, not in this folder: its reported bugs are the traps "
           "this chapter avoids on purpose — the decoder is fed the target shifted right, not the "
           "source; cross-attention takes its keys' count from the memory, not from the queries "
           "(chapter 4: 5 queries, 4 keys); padded keys are masked (\"Padding is masked in every "
           "attention\")."));
    ch.correction(
        "nn.Transformer",
        tr("not the tutorial: PyTorch's nn.Transformer ends each stack with one more "
           "LayerNorm, in both placements — with post-norm a second normalisation the paper does "
           "not have. This model follows PyTorch, so that the logits can be compared."));
}

void walkthrough(Chapter& ch) {
    const Options& o = ch.options;
    if (o.check && (o.has("--weights") || o.has("--config")))
        throw UsageError(
            tr("--check: compares the data file's example; use it without --weights and --config"));
    if (o.has("--config") && o.value("--config") != "base")
        throw UsageError(tr("--config: expected \"base\""));
    if (o.has("--source") && !o.has("--weights"))
        throw UsageError(
            tr("--source: needs --weights FILE, the model to decode with (chapter 7 "
               "trains one: build/ch07_training saves build/ch07_reverse_model.json)"));
    if (o.has("--config")) return base_model(ch);
    if (o.has("--weights")) return decode_from_weights(ch);
    const Inputs in = read_inputs(ch.data);
    the_model(ch, in);
    add_and_norm(ch, in);
    data_flows(ch, in);
    flows_agree(ch, in);
    placements_and_padding(ch, in);
    dropout(ch);
    corrections(ch);
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch06_encoder_decoder",
        N_("the full encoder-decoder: training-time and inference-time data flow, matched to "
           "nn.Transformer"),
        N_("02 \"数据流\" and \"解码器中注意力的不同\"; 04's model architecture"),
        {{"--weights", "FILE", N_("load a model (the format ch07 writes) and decode --source")},
         {"--source", "SEQS",
          N_("token sequences to decode, e.g. \"3 1 4, 1 5 9\" (<eos> is appended); with --json, "
             "\"decoded\" lists each output's words (one source: a list of words)")},
         {"--config", "base",
          N_("the paper's base model: parameter count and one timed forward pass")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
