// ch07_training — teaching the Transformer to reverse digits (or, with --task numerals, to read
// numbers in Chinese), with every gradient by hand.
//
// Tutorial: 02 "训练测试细节" and "数据流" (training sees the whole target at once, inference
// generates one token at a time); the paper's §5 (Adam, warm-up, label smoothing) as the
// notes in 04 summarise them. The training code is in src/train/; this file narrates it.
#include <algorithm>
#include <chrono>
#include <string>

#include "io/atomic_file.h"
#include "io/model_file.h"
#include "io/config_words.h"
#include "io/training_plan.h"
#include "model/attention/attention.h"
#include "model/transformer/caches.h"
#include "model/transformer/config.h"
#include "model/transformer/loss.h"
#include "model/transformer/parameters.h"
#include "model/transformer/tokens.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "model/decoding/decoding.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "report/model_summary.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "report/token_text.h"
#include "text/translate.h"
#include "train/gradient_check.h"
#include "train/numerals_task.h"
#include "train/reverse_task.h"
#include "train/tasks.h"
#include "train/plan.h"
#include "train/evaluate.h"
#include "train/trainer.h"

namespace {

struct Inputs {
    Transformer tiny;  // the oracle's small model, for the gradient checks
    double smoothing;
    std::vector<Example> gradient_batch;
    AdamSettings adam;  // the first Adam steps against torch.optim.Adam
    std::size_t adam_steps, adam_batch_size;
    std::uint64_t adam_seed;
    TrainingPlan plan;  // --task: reverse (the default) or numerals, and how it is trained
    std::vector<std::uint64_t> check_numbers;  // numerals: read here and by the oracle
};

Inputs read_inputs(const DataFile& data, const std::string& task) {
    Inputs in;
    in.tiny = load_transformer(data, "inputs");
    in.smoothing = data.number("inputs.smoothing");
    in.gradient_batch =
        read_examples(data, "inputs.gradient_batch", reverse_vocab_size, reverse_vocab_size);
    in.adam.factor = data.number("inputs.adam.factor");
    in.adam.warmup = data.size("inputs.adam.warmup", 1, 1000000);
    in.adam.d_model = data.size("inputs.adam.d_model", 1, 100000);
    in.adam_steps = data.size("inputs.adam.steps", 1, 1000);
    in.adam_batch_size = data.size("inputs.adam.batch_size", 1, 10000);
    in.adam_seed = data.seed("inputs.adam.seed");
    // the task's own settings: inputs.training for reversal, inputs.numerals.training for numerals
    in.plan = read_training_plan(
        data, task == "numerals" ? "inputs.numerals.training." : "inputs.training.", task);
    if (task == "numerals")
        for (const std::int64_t n :
             data.integers("inputs.numerals.check_numbers", 0, static_cast<std::int64_t>(largest_numeral)))
            in.check_numbers.push_back(static_cast<std::uint64_t>(n));
    return in;
}

// "2026 → 两千零二十六": the digits and the characters without spaces or <eos>.
std::string numeral_text(const TransformerConfig& c, const Example& e) {
    return joined_text(source_names_of(c), e.source, c) + " → " +
           joined_text(names_of(c), e.target, c);
}

// The readings of the data file's numbers, as target ids padded with <pad> to one width: the
// oracle reads them with its own converter.
Matrix reading_ids(const std::vector<std::uint64_t>& numbers) {
    std::vector<Tokens> rows;
    std::size_t width = 0;
    for (const std::uint64_t n : numbers) {
        rows.push_back(numeral_example(n).target);
        width = std::max(width, rows.back().size());
    }
    Matrix ids(rows.size(), width);  // zeros: <pad>
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t t = 0; t < rows[r].size(); ++t) ids(r, t) = rows[r][t];
    return ids;
}

void numerals(Chapter& ch, const Inputs& in) {
    ch.step(tr("The task: numbers into Chinese, a small translation (02 训练测试细节)"));
    ch.say(tr(
        "The source is a number's digits, the target its Chinese reading, one character per token: "
        "a translation in which the output is not a rearrangement of the input. Each digit becomes "
        "a character and gains a unit (十, 百, 千, 万) that depends on how many digits follow it; "
        "runs "
        "of zeros become one 零 or nothing (src/train/numerals_task.h states the rules)."));
    const TransformerConfig& c = in.plan.config;
    for (const std::uint64_t n : {10u, 15u, 110u, 305u, 2026u, 10010u, 1001000u, 99999999u})
        ch.line("  " + numeral_text(c, numeral_example(n)));
    ch.record("numeral_reading_ids", reading_ids(in.check_numbers), Shape::Matrix, 0.0);
    ch.say(
        tr("--check compares this reader's readings of the {} numbers of "
           "inputs.numerals.check_numbers (the shipped file's include a table of hand-checked "
           "readings) with those of the oracle (data/oracle/numerals.py, which reads numbers by "
           "another method). Held-out numbers (one in ten from 100 up, picked by a hash) are never "
           "drawn for training.",
           in.check_numbers.size()));
}

void the_task(Chapter& ch, const Inputs& in) {
    if (in.plan.task.name == "numerals") return numerals(ch, in);
    ch.step(tr("The task: reverse a sequence of digits (02 训练测试细节)"));
    const TransformerConfig& c = in.plan.config;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, in.gradient_batch.size()); ++i) {
        const Example& e = in.gradient_batch[i];
        ch.line("  " + tr("source {}  →  target {}", text_of(c, e.source), text_of(c, e.target)));
        ch.line("      " +
                tr("(the decoder's input: {})", text_of(c, shifted_right(e.target, c.bos_id))));
    }
}

// The tiny model of the data file in one placement.
Transformer placed(const Transformer& tiny, bool norm_first) {
    Transformer m = tiny;
    m.config.norm_first = norm_first;
    return m;
}

// The tiny model's loss and gradients on the batch in one placement.
struct Gradients {
    double loss = 0;
    Transformer grad;
};
Gradients gradients_of(const Inputs& in, bool norm_first) {
    Gradients g;
    g.loss = batch_gradients(placed(in.tiny, norm_first), in.gradient_batch, in.smoothing, g.grad);
    return g;
}

void gradients(Chapter& ch, const Inputs& in) {
    Gradients post = gradients_of(in, false), pre = gradients_of(in, true);
    Random pick(1);
    Transformer pre_norm = placed(in.tiny, true);
    const double worst =
        worst_error(check_model_gradients(pre_norm, in.gradient_batch, in.smoothing, 2, pick));
    ch.step(tr("Gradients by hand against PyTorch autograd (the paper §5)"));
    const TransformerConfig& c = in.tiny.config;
    ch.say(tr(
        "A tiny model (d_model {}, {}+{} layers), one batch of {} sequences, label smoothing {}:",
        c.d_model, c.n_encoder_layers, c.n_decoder_layers, in.gradient_batch.size(),
        general(in.smoothing, 3)));
    for (const bool norm_first : {false, true}) {
        const std::string placement = norm_first ? "pre_norm" : "post_norm";
        Gradients& g = norm_first ? pre : post;
        ch.record_number("loss_" + placement, g.loss, tolerance::end_to_end);
        const double gap = record_gradients(ch, placement, g.grad);
        ch.line("  " + pad_right(norm_first ? tr("pre-norm") : tr("post-norm"), 10) + " " +
                tr("loss {}; largest |our gradient − PyTorch's| over {} matrices: {}",
                   fixed(g.loss, 12), parameters(g.grad).size(), sci(gap)));
    }
    ch.say(tr(
        "Central differences (L(θ+h) − L(θ−h))/2h on two entries of every matrix: largest relative "
        "error {} (pre-norm).",
        sci(worst)));
    ch.say(tr(
        "One zero you can trust: the key bias b_K gets no gradient at all — adding q·b_K to every "
        "score of a row leaves its softmax unchanged."));
}

// The losses of the first Adam steps, each on a fresh batch of reversals.
Matrix first_losses(const Inputs& in, bool norm_first) {
    Transformer m = placed(in.tiny, norm_first);
    Adam adam(in.adam);
    Random rng(in.adam_seed);
    Matrix losses(1, in.adam_steps);
    for (std::size_t s = 0; s < in.adam_steps; ++s) {
        Transformer grad;
        losses(0, s) = batch_gradients(m, random_reversals(rng, in.adam_batch_size, 1, 10),
                                       in.smoothing, grad);
        adam.step(parameter_matrices(m), parameter_matrices(grad));
    }
    return losses;
}

void adam_steps(Chapter& ch, const Inputs& in) {
    ch.step(tr("Adam with warm-up: the first steps against torch.optim.Adam (the paper §5.3)"));
    const Matrix post = first_losses(in, false), pre = first_losses(in, true);
    ch.record("first_losses_post_norm", post, Shape::Vector, tolerance::end_to_end);
    ch.record("first_losses_pre_norm", pre, Shape::Vector, tolerance::end_to_end);
    Table t({tr("step"), "lr", tr("loss post-norm"), tr("loss pre-norm")});
    for (std::size_t s = 0; s < in.adam_steps; ++s)
        t.add({std::to_string(s + 1), sci(learning_rate(in.adam, s + 1)), fixed(post(0, s), 10),
               fixed(pre(0, s), 10)});
    ch.table(t);
    ch.say(tr(
        "lr = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5): it rises for {} steps, "
        "then falls as 1/√step.",
        in.adam.warmup));
}

// The run's bounds: the data file's, or --check's short run, or what --steps and --seconds say.
void apply_flags(const Options& o, Inputs& in) {
    if (o.check)
        in.plan.settings.max_steps =
            in.plan.check_steps;  // --check: a short run, its figures are not compared
    if (o.has("--steps"))
        in.plan.settings.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 100000000));
    if (o.has("--seconds")) in.plan.settings.seconds = o.number("--seconds", 0.001, 1e7);
    // chapter 10's switches, on the model this run trains
    TransformerConfig& c = in.plan.config;
    if (o.has("--norm") && !norm_from_name(o.value("--norm"), c.norm))
        throw UsageError(tr("--norm: expected layer or rms, got \"{}\"", o.value("--norm")));
    if (o.has("--position")) {
        if (!positions_from_name(o.value("--position"), c.positions))
            throw UsageError(
                tr("--position: expected sinusoidal, learned, rope, alibi or none, "
                   "got \"{}\"",
                   o.value("--position")));
        if (c.positions == PositionScheme::Learned && c.max_positions == 0)
            c.max_positions = 64;  // longer than any sequence either task draws
    }
    if (o.has("--kv-heads"))
        c.n_kv_heads = static_cast<std::size_t>(o.integer("--kv-heads", 1, c.n_heads));
    if (o.has("--window")) c.window = static_cast<std::size_t>(o.integer("--window", 0, 1 << 20));
    // chapter 11: the same model, its attention computed block by block
    if (o.has("--attention")) {
        const std::string a = o.value("--attention");
        if (a != "standard" && a != "tiled")
            throw UsageError(tr("--attention: expected standard or tiled, got \"{}\"", a));
        c.attention_tile = a == "tiled" ? 4 : 0;
    }
    if (o.has("--tile")) {
        if (!c.attention_tile) throw UsageError(tr("--tile: only with --attention tiled"));
        c.attention_tile = static_cast<std::size_t>(o.integer("--tile", 1, 1 << 20));
    }
    // the model the switches make must keep a config's rules (io/config_words.h), as any read
    // from a file: the flag that broke one is named
    if (const ConfigProblem p = config_problem(c)) {
        const std::string field = p.field;
        const std::string flag = field == "n_kv_heads" ? "--kv-heads"
                                 : field == "positions" ? "--position"
                                                        : field;
        throw UsageError(flag + ": " + config_problem_words(p));
    }
}

TrainingRun train_model(Chapter& ch, const Inputs& in) {
    ch.step(tr("Training from scratch (02 训练测试细节; the paper §5.4)"));
    const TrainingSettings& s = in.plan.settings;
    const TransformerConfig& c = in.plan.config;
    ch.say(
        tr("model: d_model {}, h {}, d_ff {}, {}+{} layers, {}, {} parameters; batches of {}, up "
           "to {} steps",
           c.d_model, c.n_heads, c.d_ff, c.n_encoder_layers, c.n_decoder_layers, variant_text(c),
           parameter_count(initial_model(in.plan)), in.plan.batch_size, s.max_steps));
    ProgressBar bar;  // on stderr, when it is a terminal
    TrainingRun run = train_plan(in.plan, [&](const StepStats& stats) { bar.update(stats); });
    bar.done();
    check_finite_run(
        ch.data, in.plan.task.name == "numerals" ? "inputs.numerals.training" : "inputs.training",
        run);
    return run;
}

double held_out(Chapter& ch, const Inputs& in, const TrainingRun& run) {
    const std::vector<Example> heldout = heldout_examples(in.plan);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Reading> readings = greedy_readings(run.model, heldout);
    const ExactMatch score = exact_match(readings);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run.steps_from_seconds)
        ch.say(steps_from_seconds_note(in.plan.settings.seconds, run.steps_planned));
    ch.line(tr("trained {} steps in {} s; final loss {}", run.losses.size(), fixed(run.seconds, 1),
               fixed(run.losses.back(), 4)));
    ch.line(tr("held-out exact match: {} / {} = {}% (greedy decoding, {} s)", score.correct,
               score.total, fixed(100 * score.rate(), 1), fixed(seconds, 1)));
    const TransformerConfig& c = run.model.config;
    std::size_t misses_shown = 0;  // the first four, then up to three of the misses
    for (std::size_t i = 0; i < heldout.size(); ++i) {
        const bool right = readings[i].right;
        if (i >= 4 && (right || misses_shown == 3)) continue;
        misses_shown += right ? 0 : 1;
        const Tokens output(readings[i].output.begin() + 1, readings[i].output.end());
        if (in.plan.task.name == "numerals")
            ch.line("  " + numeral_text(c, {heldout[i].source, output}) + (right ? "  ✓" : "  ✗") +
                    (right
                         ? ""
                         : tr("  (should be {})", joined_text(names_of(c), heldout[i].target, c))));
        else
            ch.line("  " + source_text_of(c, heldout[i].source) + "  →  " + text_of(c, output) +
                    (right ? "  ✓" : "  ✗"));
    }
    ch.measured("heldout_exact_match", score.rate());
    ch.measured("train_seconds", run.seconds);
    ch.measured("steps", static_cast<double>(run.losses.size()));
    ch.measured("final_loss", run.losses.back());
    return score.rate();
}

// Whether row r's largest weight is at column j alone (a tie is no answer).
bool peaks_at(const Matrix& m, std::size_t r, std::size_t j) {
    for (std::size_t c = 0; c < m.cols; ++c)
        if (c != j && m(r, c) >= m(r, j)) return false;
    return true;
}

// Row t of the cross-attention (decoder input t) writes target t: for the rows that write a
// digit, is the largest weight on that digit's place in the source?
void numeral_alignment(Chapter& ch, const Example& ex, const Matrix& mean) {
    const std::vector<int> from = digit_sources(ex);
    std::size_t digits = 0, aligned = 0;
    for (std::size_t t = 0; t < from.size(); ++t)
        if (from[t] >= 0) {
            digits += 1;
            aligned += peaks_at(mean, t, static_cast<std::size_t>(from[t]));
        }
    if (digits == 0) return;
    ch.say(
        tr("Of the {} rows that write a digit (一 … 九), {} put their largest weight on that "
           "digit's own place in the source.",
           digits, aligned));
    if (2 * aligned > digits)
        ch.say(
            tr("A digit is read where it stands; the rows that write a unit (十 百 千 万) or 零 "
               "have no digit of their own to read — which unit comes next depends on how many "
               "digits follow. An alignment, as in translation, and not a diagonal."));
    else
        ch.say(
            tr("This model has not (yet) learnt to read each digit where it stands: train it "
               "longer and the rows that write a digit look at that digit."));
}

// Row t (decoder input t) writes target t; for reversal it should read source position
// L − 1 − t (the last row writes <eos>).
void reversal_alignment(Chapter& ch, const Example& ex, const Matrix& mean) {
    const std::size_t L = ex.source.size() - 1;  // digits before <eos>
    std::size_t on_diagonal = 0;
    for (std::size_t t = 0; t < L; ++t) on_diagonal += peaks_at(mean, t, L - 1 - t);
    ch.say(
        tr("In {} of the {} rows that write a digit the largest weight sits on the "
           "anti-diagonal: output position t reads source position L − 1 − t.",
           on_diagonal, L));
    if (2 * on_diagonal <= L)
        ch.say(tr("Not yet a reversal: train longer and the anti-diagonal appears."));
}

// Where the decoder looks in the source: the last decoder layer's cross-attention, each head
// and their mean, on the first held-out example. Each row is labelled with the token that
// decoder position writes (its input is the token before).
void cross_attention(Chapter& ch, const Inputs& in, const Transformer& trained) {
    Transformer model = trained;  // the standard attention, which keeps the weights shown here
    model.config.attention_tile = 0;
    Random rng(in.plan.heldout_seed);
    const Example ex = in.plan.task.heldout(rng, 1)[0];
    const Tokens input = shifted_right(ex.target, model.config.bos_id);
    DecodeCache dc;
    decode(model, {input}, encode(model, {ex.source}), {ex.source}, &dc);
    const std::vector<AttentionResult>& heads = dc.layers.back().cross_attn.heads;
    Labels rows, cols;
    for (int id : ex.target) rows.push_back(text_of(model.config, {id}));
    for (int id : ex.source) cols.push_back(source_text_of(model.config, {id}));
    Matrix mean(heads[0].weights.rows, heads[0].weights.cols);
    std::vector<Heatmap> panels;
    for (std::size_t i = 0; i < heads.size(); ++i) {
        add_to(mean, scale(heads[i].weights, 1.0 / static_cast<double>(heads.size())));
        panels.push_back({tr("head {}", i), heads[i].weights, rows, cols, Scale::Weights, Matrix(),
                          tr("writes"), tr("source")});
    }
    panels.push_back({tr("mean of the heads"), mean, rows, cols, Scale::Weights, Matrix(),
                      tr("writes"), tr("source")});
    ch.line("");
    ch.say(
        tr("The last decoder layer's cross-attention, averaged over heads (each row labelled "
           "with the token that position writes; columns: the source):"));
    ch.matrix(tr("cross-attention"), mean, rows, cols, 2);
    if (in.plan.task.name == "reverse")
        reversal_alignment(ch, ex, mean);
    else
        numeral_alignment(ch, ex, mean);
    ch.picture("ch07_" + in.plan.task.name + "_cross_attention.svg",
               heatmaps_svg(tr("the trained model's last cross-attention"), panels));
}

// The loss at every step, and the floor a label-smoothed loss cannot go below.
void loss_picture(Chapter& ch, const Inputs& in, const TrainingRun& run) {
    Series curve{tr("loss"), {}, run.losses, false};
    for (std::size_t s = 0; s < run.losses.size(); ++s)
        curve.xs.push_back(static_cast<double>(s + 1));
    const double floor = smoothed_loss_floor(in.plan.settings.smoothing, in.plan.config.tgt_vocab);
    const Series bottom{tr("the floor of a loss smoothed by {}: {}",
                           general(in.plan.settings.smoothing, 3), fixed(floor, 3)),
                        {1, static_cast<double>(run.losses.size())},
                        {floor, floor},
                        false,
                        true};
    ch.picture("ch07_" + in.plan.task.name + "_loss.svg",
               line_chart_svg({tr("training loss (label-smoothed cross-entropy)"),
                               tr("step"),
                               tr("loss"),
                               false,
                               true,
                               {curve, bottom}}));
    const double last = run.losses.back();
    if (last - floor <= 0.05)
        ch.say(
            tr("The loss levels off at {}, not 0: with label smoothing {} its floor is {} (the "
               "entropy of the smoothed target), reached only by a model as sure as the "
               "smoothing allows.",
               fixed(last, 4), general(in.plan.settings.smoothing, 3), fixed(floor, 4)));
    else
        ch.say(
            tr("After {} steps the loss is {}, still {} above its floor: with label smoothing "
               "{} it cannot go below {} (the entropy of the smoothed target). More steps "
               "would bring it closer.",
               run.losses.size(), fixed(last, 4), fixed(last - floor, 4),
               general(in.plan.settings.smoothing, 3), fixed(floor, 4)));
}

// Where the trained model goes: --save FILE; else, for the chapter's defined run only, beside
// the program (build/ch07_reverse_model.json). Any other run — shorter (--steps, --seconds,
// --check, --json), on another data file (--data), or an experiment with chapter 10's or 11's
// switches — replaces nothing a reader trained before; it is saved only where --save says.
std::string save_path(const Options& o, const std::string& task) {
    if (o.has("--save")) return o.value("--save");
    bool other_run = o.check || o.json || o.has("--steps") || o.has("--seconds") || o.data_given;
    for (const char* flag :
         {"--norm", "--position", "--kv-heads", "--window", "--attention", "--tile"})
        other_run = other_run || o.has(flag);
    return other_run ? "" : o.program_dir + "/ch07_" + task + "_model.json";
}

void save(Chapter& ch, const Inputs& in, const TrainingRun& run, double heldout,
          const std::string& path) {
    if (path.empty()) {
        ch.line("");
        ch.line(
            tr("(a short run, or one on another data file: the model is not saved; --save FILE "
               "keeps it)"));
        return;
    }
    save_transformer(run.model,
                     {in.plan.task.name, run.losses.size(), run.losses.back(), heldout,
                      in.plan.task.max_source_length},
                     path);
    ch.line("");
    ch.line(tr("saved the trained model to {}; decode your own digits with", path));
    ch.line("  build/ch06_encoder_decoder --weights " + path + " --source \"" +
            (in.plan.task.name == "numerals" ? "2 0 2 6" : "3 1 4 1 5") + "\"");
}

void walkthrough(Chapter& ch) {
    const std::string task = ch.options.has("--task") ? ch.options.value("--task") : "reverse";
    if (task != "reverse" && task != "numerals")
        throw UsageError(tr("--task: expected reverse or numerals, got \"{}\"", task));
    Inputs in = read_inputs(ch.data, task);
    apply_flags(ch.options, in);
    const std::string path = save_path(ch.options, task);
    if (!path.empty()) check_writable(path);  // before the training run, not after it
    the_task(ch, in);
    if (task == "reverse") {  // the checks against PyTorch: the same for either task
        gradients(ch, in);
        adam_steps(ch, in);
    }
    const TrainingRun run = train_model(ch, in);
    const double heldout = held_out(ch, in, run);
    loss_picture(ch, in, run);
    cross_attention(ch, in, run.model);
    save(ch, in, run, heldout, path);
    ch.correction(
        "05",
        tr("\"trained by filling in blanks: 25% of the words are erased\": that is BERT's "
           "objective "
           "(which erases 15%, Devlin et al. 2019), an encoder alone. The Transformer of the "
           "paper, and this chapter's, is trained by predicting each target token from the ones "
           "before it (teacher forcing, above)."));
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch07_training",
        N_("training from scratch: hand-written gradients, Adam with warm-up, learning to reverse "
           "digits or to read numbers in Chinese"),
        N_("02 \"训练测试细节\" and \"数据流\"; the paper's §5 (Adam, warm-up, label smoothing)"),
        {svg_flag(),
         {"--task", "NAME",
          N_("reverse (the default: reverse digits) or numerals (numbers into Chinese readings)")},
         {"--steps", "N", N_("train at most N steps (a quick run: --steps 20)")},
         {"--norm", "NAME", N_("layer (the paper's LayerNorm) or rms (RMSNorm; chapter 10)")},
         {"--position", "NAME",
          N_("sinusoidal (the paper's), learned, rope, alibi or none (chapter 10)")},
         {"--kv-heads", "N",
          N_("heads of keys and values: the model's heads (default), fewer (grouped-query) or "
             "1 (multi-query)")},
         {"--window", "N", N_("self-attention sees only keys fewer than N positions away")},
         {"--attention", "NAME",
          N_("standard (the default) or tiled: block by block, no weights kept (chapter 11)")},
         {"--tile", "N", N_("queries and keys per block of tiled attention (default 4)")},
         {"--seconds", "S",
          N_("train the steps that fit in S seconds here, instead of the data file's steps")},
         {"--save", "FILE",
          N_("save the model there (a full run saves it as build/ch07_<task>_model.json)")}}};
    return run_chapter(argc, argv, info, walkthrough);
}
