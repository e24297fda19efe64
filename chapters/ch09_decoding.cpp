// ch09_decoding — generating text the way real models do: a KV cache that recomputes nothing,
// beam search, and sampling with a temperature.
//
// Tutorial: 02 "推理时数据流" (inference: start from the start token, predict, append, repeat);
// the paper's §6.1 for beam search (beam 4, length penalty α = 0.6). The model is a small
// numerals model (chapter 7's task) trained by the oracle for 400 steps only: half trained, so
// that greedy decoding still makes mistakes for beam search to find. The code is in src/model/
// (kv_cache.h, beam_search.h, sampling.h); this file narrates it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>

#include "ch09_decoding/batch.h"
#include "ch09_decoding/cache_time.h"
#include "ch09_decoding/inputs.h"
#include "core/elementary.h"
#include "io/model_file.h"
#include "io/platform.h"
#include "io/training_plan.h"
#include "model/decoding/beam_search.h"
#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/decoding/sampling.h"
#include "model/transformer/transformer.h"
#include "report/chapter.h"
#include "report/chart.h"
#include "report/measure.h"
#include "report/progress.h"
#include "report/token_text.h"
#include "text/translate.h"
#include "train/evaluate.h"
#include "train/numerals_task.h"
#include "train/trainer.h"

// The parts in this chapter's folder are in namespace ch09_decoding, so that one module can hold
// several chapters (the live book's, src/web/live_book.cpp).
using namespace ch09_decoding;

namespace {

// "207622" and "二十万七千六百二十二": a source's digits, an output's characters.
std::string digits(const TransformerConfig& c, const Tokens& source) {
    return joined_text(source_names_of(c), source, c);
}
std::string words(const TransformerConfig& c, const Tokens& output) {
    return joined_text(names_of(c), output, c);
}
std::string reading(const TransformerConfig& c, const Tokens& source, const Tokens& output) {
    return digits(c, source) + " → " + words(c, output);
}

// Whether the model reads numerals (chapter 7's vocabularies): then its readings can be judged.
bool reads_numerals(const TransformerConfig& c) {
    return c.vocabulary == numeral_target_vocabulary() &&
           c.source_vocabulary == numeral_source_vocabulary();
}

// The number a numerals source names ("2 0 7 <eos>" -> 207).
std::uint64_t number_of(const Tokens& source, const TransformerConfig& c) {
    std::uint64_t n = 0;
    for (const int id : source)
        if (id != c.eos_id) n = n * 10 + static_cast<std::uint64_t>(id - 3);
    return n;
}

void the_model(Chapter& ch, const Inputs& in) {
    ch.step(tr("A half-trained model, and greedy decoding as chapter 6 does it (02 推理时数据流)"));
    const TransformerConfig& c = in.model.config;
    std::vector<Tokens> rows;
    Matrix log_probs(1, in.sources.size());
    std::size_t right = 0;
    for (std::size_t s = 0; s < in.sources.size(); ++s) {
        rows.push_back(greedy_decode(in.model, in.sources[s], in.max_length).output);
        log_probs(0, s) = sequence_log_prob(in.model, in.sources[s], rows.back());
        if (reads_numerals(c))  // a finished reading, and the right one
            right += rows.back().back() == c.eos_id &&
                     words(c, rows.back()) == chinese_reading(number_of(in.sources[s], c));
    }
    if (in.trained_for == "numerals" && in.trained_steps > 0)
        ch.say(
            tr("The oracle trained a small model of chapter 7's numerals task for {} steps only "
               "(d_model {}, {} encoder and {} decoder layers), to leave it mistakes for beam "
               "search to find.",
               in.trained_steps, c.d_model, c.n_encoder_layers, c.n_decoder_layers));
    else
        ch.say(tr(
            "The data file's model (d_model {}, {} encoder and {} decoder layers; trained for "
            "{} steps of the task \"{}\").",
            c.d_model, c.n_encoder_layers, c.n_decoder_layers, in.trained_steps, in.trained_for));
    ch.say(
        tr("Greedy decoding as chapter 6 does it runs the whole prefix through the decoder again "
           "at every step, and keeps the last row:"));
    for (std::size_t s = 0; s < in.sources.size(); ++s)
        ch.line("  " + reading(c, in.sources[s], rows[s]) +
                "   log P = " + fixed(log_probs(0, s), 4));
    if (reads_numerals(c))
        ch.say(tr("It reads {} of these {} numbers right.", right, in.sources.size()));
    ch.record("greedy_tokens", padded(rows, in.max_length + 1, c.pad_id), Shape::Matrix, 0.0);
    ch.record("greedy_log_probs", log_probs, Shape::Vector, tolerance::end_to_end);
}

// Greedy's own output fed to a KV cache, each step's logits against the recomputed ones; and the
// same for a decoder input with a <pad> inside.
struct CacheCheck {
    Tokens fed;  // every token greedy decoding fed
    CacheAgainstRecomputation greedy;
    double padded = 0;  // the largest difference with the <pad> inside
};
CacheCheck cache_check(const Inputs& in) {
    const GreedySteps g = greedy_decode(in.model, in.sources[0], in.max_length);
    CacheCheck c;
    c.fed.assign(g.output.begin(), g.output.end() - 1);
    c.greedy = cache_against_recomputation(in.model, in.sources[0], c.fed);
    // a <pad> inside a decoder input: hidden from every query on both paths (who_attends.h)
    c.padded = cache_against_recomputation(in.model, in.sources[0], in.padded).worst();
    return c;
}

void kv_cache(Chapter& ch, const Inputs& in) {
    const CacheCheck c = cache_check(in);
    const double greedy_worst = c.greedy.worst(), padded = c.padded;
    const double worst = std::max(greedy_worst, padded);
    ch.step(tr("The KV cache: the same logits, bit for bit, without recomputing the past"));
    ch.say(tr(
        "Position s of the decoder sees only positions 0 … s, so its keys and values never change "
        "once computed. The cache keeps them, layer by layer, and the memory's keys and values for "
        "the cross-attention (computed once); each step then embeds one token, projects one row "
        "and attends with one query. Decoding {}… again, feeding the same tokens:",
        digits(in.model.config, in.sources[0])));
    Table t({tr("step"), tr("token fed"), tr("rows the full pass computes"),
             tr("rows the cache computes"), tr("max |cached − recomputed|")});
    for (std::size_t s = 0; s < c.fed.size(); ++s)
        t.add({std::to_string(s + 1), text_of(in.model.config, {c.fed[s]}), std::to_string(s + 1),
               "1", sci(c.greedy.gaps[s])});
    ch.table(t);
    ch.record("kv_cache_logits", c.greedy.cached, Shape::Matrix, tolerance::end_to_end);
    ch.record_number("kv_cache_max_abs_diff", worst, 0.0);
    ch.say(tr(
        "Every difference is exactly {}: every row is computed by the same functions in the same "
        "order as in the full pass (one row of a product is the same sums as that row of a larger "
        "one, src/core/matmul.h), and the causal mask adds 0 to every score a row keeps. The "
        "logits are also PyTorch's, recomputed in full (--check, to 1e-9).",
        sci(greedy_worst)));
    ch.say(tr("A <pad> inside a decoder input ({}) is a key no query may see, in the full pass and "
              "in the cache's step alike (src/model/transformer/who_attends.h: one rule for both): "
              "there the largest difference is {}.",
              text_of(in.model.config, in.padded), sci(padded)));
}

void cache_memory(Chapter& ch, const Inputs& in) {
    const TransformerConfig base;  // the paper's base model: 6 decoder layers, d_model 512
    Matrix bytes(1, in.memory_lengths.size());
    for (std::size_t i = 0; i < in.memory_lengths.size(); ++i)
        bytes(0, i) = kv_cache_bytes(base, in.memory_lengths[i], in.memory_lengths[i]);
    ch.step(tr("What the cache costs: memory that grows with every token"));
    ch.say(tr(
        "Per decoder layer and per token the cache holds one key row and one value row: h·d_k + "
        "h·d_v numbers. For the paper's base model that is 6 · 1024 doubles, 48 KiB per token in "
        "float64 (12 KiB in float16), for the target and the source tokens alike:"));
    Table t({tr("target + source tokens"), tr("bytes (float64)"), "MiB"});
    for (std::size_t i = 0; i < in.memory_lengths.size(); ++i) {
        const std::size_t n = in.memory_lengths[i];
        t.add({std::to_string(n) + " + " + std::to_string(n),
               grouped(static_cast<unsigned long long>(bytes(0, i))),
               fixed(bytes(0, i) / (1 << 20), 1)});
    }
    ch.table(t);
    ch.record("kv_cache_bytes_base", bytes, Shape::Vector, 0.0);
    const TransformerConfig& c = in.model.config;
    ch.say(
        tr("This chapter's model needs {} bytes per token. Linear in the length, where recomputing "
           "costs nothing to store and time instead.",
           grouped(static_cast<unsigned long long>(kv_cache_bytes(c, 1, 0)))));
}

// Searches cut off at a short max_length while an unfinished hypothesis can still beat the
// worst finished one: it is scored as it stands and takes that one's place.
void cutoff_searches(Chapter& ch, const Inputs& in) {
    std::vector<std::vector<Hypothesis>> searches;  // one per source of in.cutoff_sources
    for (std::size_t s = 0; s < in.cutoff_sources.size(); ++s) {
        BeamSettings cut = in.beam;
        cut.max_length = in.cutoff_lengths[s];
        searches.push_back(beam_search(in.model, in.cutoff_sources[s], cut));
    }
    const TransformerConfig& c = in.model.config;
    std::size_t width = 1;
    for (std::size_t n : in.cutoff_lengths) width = std::max(width, n + 1);
    std::vector<Tokens> hyps;
    Matrix scores(in.cutoff_sources.size(), in.beam.beam);
    std::size_t unfinished = 0;
    for (std::size_t s = 0; s < in.cutoff_sources.size(); ++s) {
        const std::vector<Hypothesis>& found = searches[s];
        ch.line(tr("source {}, cut off after {}", digits(c, in.cutoff_sources[s]),
                   count_of(in.cutoff_lengths[s], N_("{} token"), N_("{} tokens"))));
        for (std::size_t h = 0; h < found.size() && h < scores.cols; ++h) {
            ch.line("  " + tr("beam {}  {}   log P {}, score {}", h + 1, words(c, found[h].tokens),
                              fixed(found[h].log_prob, 4), fixed(found[h].score, 4)) +
                    (found[h].finished ? "" : tr("   (unfinished)")));
            unfinished += !found[h].finished;
            hyps.push_back(found[h].tokens);
            scores(s, h) = found[h].score;
        }
    }
    if (unfinished > 0)
        ch.say(tr("Cut off by max_length before the search is over, the hypotheses still "
                  "unfinished are scored as they stand, and one that scores better than a "
                  "finished hypothesis takes its place: {} of the {} kept above.",
                  unfinished, hyps.size()));
    ch.record("beam_cutoff_hypotheses", padded(hyps, width, c.pad_id), Shape::Matrix, 0.0);
    ch.record("beam_cutoff_scores", scores, Shape::Matrix, tolerance::end_to_end);
}

// One source decoded: beam search's hypotheses, greedy's output and its log-probability, and the
// hypotheses of the simpler stopping rule (stop when beam hypotheses have finished).
struct Searched {
    std::vector<Hypothesis> found, first_finished;
    Tokens greedy;
    double greedy_log_prob = 0;
};
std::vector<Searched> searched(const Inputs& in) {
    BeamSettings first = in.beam;
    first.stop = Stop::FirstFinished;
    std::vector<Searched> out;
    for (const Tokens& source : in.sources) {
        Searched s;
        s.found = beam_search(in.model, source, in.beam);
        s.greedy = greedy_decode(in.model, source, in.max_length).output;
        s.greedy_log_prob = sequence_log_prob(in.model, source, s.greedy);
        s.first_finished = beam_search(in.model, source, first);
        out.push_back(s);
    }
    return out;
}

// Returns whether beam search found, for some source, a more probable output than greedy's.
bool beam_search_step(Chapter& ch, const Inputs& in) {
    const std::vector<Searched> all = searched(in);
    ch.step(tr("Beam search: beam {} and length penalty α = {} (the paper's: 4 and 0.6, §6.1)",
               in.beam.beam, general(in.beam.alpha, 3)));
    ch.say(
        tr("Greedy decoding takes the most probable token at every step; the most probable "
           "output can start with a less probable token. Beam search keeps the {1} most "
           "probable partial outputs, extends each by every token, and keeps the best again; a "
           "hypothesis that ends in <eos> is finished and scored log P / ((5 + |Y|)/6)^α, so "
           "that long outputs are not punished for having more factors below 1. It stops when "
           "{1} have finished and no hypothesis still alive could score better "
           "(src/model/decoding/beam_search.h states every rule; the next step shows why "
           "the second condition matters).",
           in.beam.beam));
    const TransformerConfig& c = in.model.config;
    std::vector<Tokens> hyps;
    Matrix scores(in.sources.size(), in.beam.beam), log_probs(in.sources.size(), in.beam.beam);
    bool better_than_greedy = false;
    for (std::size_t s = 0; s < in.sources.size(); ++s) {
        const std::vector<Hypothesis>& found = all[s].found;
        const Tokens& greedy = all[s].greedy;
        const double greedy_lp = all[s].greedy_log_prob;
        ch.line(tr("source {}", digits(c, in.sources[s])));
        ch.line("  " + tr("greedy  {}   log P {}, score {}", words(c, greedy), fixed(greedy_lp, 4),
                          fixed(greedy_lp / length_penalty(greedy.size() - 1, in.beam.alpha), 4)));
        for (std::size_t h = 0; h < found.size(); ++h) {
            const bool better = h == 0 && found[h].log_prob > greedy_lp + 1e-12;
            better_than_greedy = better_than_greedy || better;
            ch.line("  " +
                    tr("beam {}  {}   log P {}, score {}", h + 1, words(c, found[h].tokens),
                       fixed(found[h].log_prob, 4), fixed(found[h].score, 4)) +
                    (better ? tr("   ← more probable than greedy's") : ""));
            hyps.push_back(found[h].tokens);
            scores(s, h) = found[h].score, log_probs(s, h) = found[h].log_prob;
        }
    }
    ch.record("beam_hypotheses", padded(hyps, in.max_length + 1, c.pad_id), Shape::Matrix, 0.0);
    ch.record("beam_scores", scores, Shape::Matrix, tolerance::end_to_end);
    ch.record("beam_log_probs", log_probs, Shape::Matrix, tolerance::end_to_end);
    // the simpler stopping rule, compared on a trained model in the next step: its hypotheses
    // here are checked against the oracle's too
    std::vector<Tokens> first_hyps;
    Matrix first_scores(in.sources.size(), in.beam.beam);
    for (std::size_t s = 0; s < in.sources.size(); ++s) {
        const std::vector<Hypothesis>& found = all[s].first_finished;
        for (std::size_t h = 0; h < found.size() && h < first_scores.cols; ++h) {
            first_hyps.push_back(found[h].tokens);
            first_scores(s, h) = found[h].score;
        }
    }
    ch.record("beam_first_finished_hypotheses", padded(first_hyps, in.max_length + 1, c.pad_id),
              Shape::Matrix, 0.0);
    ch.record("beam_first_finished_scores", first_scores, Shape::Matrix, tolerance::end_to_end);
    cutoff_searches(ch, in);
    Words outputs;
    for (const Tokens& h : hyps) outputs.push_back(words(c, h));
    ch.reported("beam_outputs", outputs);
    return better_than_greedy;
}

// Chapter 7's trained numerals model: the reader's (saved by build/ch07_training --task
// numerals) when this runs on its own data file, else trained here from the data file's plan.
// `from` is set to the file the model came from: the saved model, or the data file whose plan
// trained it.
Transformer trained_numerals_model(Chapter& ch, const Inputs& in, std::string& from) {
    const std::string saved = ch.options.program_dir + "/ch07_numerals_model.json";
    from = ch.options.data_path;
    if (!ch.options.data_given && open_for_reading(saved)) {
        const DataFile file = DataFile::load(saved);
        TrainingRecord r;
        if (read_training_record(file, r) && r.task == "numerals") {
            ch.say(
                tr("The model: {}, as chapter 7 saved it (trained for {} steps; held-out exact "
                   "match {}%).",
                   saved, r.steps, fixed(100 * r.heldout_exact_match, 1)));
            from = saved;
            return load_transformer(file, "");
        }
    }
    ch.say(
        tr("The model: chapter 7's numerals model, trained here as chapter 7 trains it ({} "
           "steps; build/ch07_training --task numerals saves it, and this chapter then reads "
           "it instead).",
           in.stopping_plan.settings.max_steps));
    ProgressBar bar;
    TrainingRun run =
        train_plan(in.stopping_plan, [&](const StepStats& stats) { bar.update(stats); });
    bar.done();
    check_finite_run(ch.data, "inputs.stopping.training", run);
    return run.model;
}

// Beam search's two stopping rules, and greedy decoding, on a trained model: which reads best?
// The two rules' counts, worded from which read more, and why the early stop loses.
void word_stopping_rules(Chapter& ch, const Inputs& in, const TransformerConfig& c,
                         const ExactMatch& g, const ExactMatch& e, const ExactMatch& l) {
    const double smoothing = in.stopping_plan.settings.smoothing;
    const double eos_floor = elementary::log(smoothing / static_cast<double>(c.tgt_vocab));
    if (e.correct < l.correct)
        ch.say(
            tr("Stopping as soon as {} hypotheses have finished reads {} numbers fewer. With "
               "label smoothing {}, the trained model still gives <eos> about "
               "log({}/{}) = {} of log-probability at every step, so readings cut off early "
               "keep entering the finished set; once {} are in, the search stops before the "
               "long, right reading has been written out. This book waits until no alive "
               "hypothesis can still beat a finished one.",
               in.beam.beam, l.correct - e.correct, general(smoothing, 3), general(smoothing, 3),
               c.tgt_vocab, fixed(eos_floor, 1), in.beam.beam));
    else
        ch.say(
            tr("Here both rules read as many numbers right ({} and {}); the later stop costs "
               "more steps and never reads worse. This book waits until no alive hypothesis "
               "can still beat a finished one.",
               e.correct, l.correct));
    if (g.correct > l.correct)
        ch.say(
            tr("Greedy decoding reads {} more here: the length penalty favours a longer, less "
               "probable reading in those cases.",
               g.correct - l.correct));
}

void stopping_rules(Chapter& ch, const Inputs& in) {
    ch.step(tr("When to stop the beam: two rules on a trained model"));
    std::string from;
    const Transformer model = trained_numerals_model(ch, in, from);
    std::vector<Example> examples;
    for (const std::uint64_t n : in.stopping_numbers) examples.push_back(numeral_example(n));
    BeamSettings first = in.beam, none = in.beam;
    first.stop = Stop::FirstFinished;
    none.stop = Stop::NoneCanBeat;
    first.max_length = none.max_length = 20;
    std::vector<Reading> greedy, early, late;
    try {
        greedy = greedy_readings(model, examples);
        early = beam_readings(model, examples, first);
        late = beam_readings(model, examples, none);
    } catch (const NonFiniteLogits& e) {  // a saved model edited by hand, or overflowing
        throw non_finite_model(from, e.step);
    }
    const ExactMatch g = exact_match(greedy), e = exact_match(early), l = exact_match(late);
    const std::uint64_t smallest =
        *std::min_element(in.stopping_numbers.begin(), in.stopping_numbers.end());
    ch.say(tr("Each decoder reads the data file's {} (inputs.stopping.numbers, drawn at random): "
              "not chapter 7's held-out numbers, so a model may have trained on some of them "
              "(the smallest is {}). They compare the decoders with each other, not the model "
              "with new numbers.",
              count_of(in.stopping_numbers.size(), N_("{} number"), N_("{} numbers")),
              smallest));
    Table t({tr("decoder"), tr("numbers read right")});
    t.add({tr("greedy"), std::to_string(g.correct) + " / " + std::to_string(g.total)});
    t.add({tr("beam, stop when {} have finished", in.beam.beam),
           std::to_string(e.correct) + " / " + std::to_string(e.total)});
    t.add({tr("beam, stop when none alive can beat them"),
           std::to_string(l.correct) + " / " + std::to_string(l.total)});
    ch.table(t);
    ch.measured("stopping_greedy_right", static_cast<double>(g.correct));
    ch.measured("stopping_first_finished_right", static_cast<double>(e.correct));
    ch.measured("stopping_none_can_beat_right", static_cast<double>(l.correct));
    const TransformerConfig& c = model.config;
    std::size_t shown = 0;
    for (std::size_t i = 0; i < examples.size() && shown < 4; ++i) {
        if (early[i].right == late[i].right) continue;
        ++shown;
        ch.line("  " + digits(c, examples[i].source) + ":  " + tr("first finished") + " " +
                words(c, early[i].output) + (early[i].right ? " ✓" : " ✗") + "   " +
                tr("none can beat") + " " + words(c, late[i].output) +
                (late[i].right ? " ✓" : " ✗"));
    }
    word_stopping_rules(ch, in, c, g, e, l);
}

// "T 0.7, top-3"
std::string setting_text(const SamplingSetting& s) {
    return s.top_k ? tr("T {}, top-{}", general(s.temperature, 3), s.top_k)
                   : tr("T {}", general(s.temperature, 3));
}

// The first step's distribution under each setting to show (a row each, as the oracle writes
// them), and the samples drawn with seed in.seed under each setting to sample.
struct Samples {
    Matrix distributions;
    std::vector<Tokens> drawn;
};
Samples samples_of(const Inputs& in) {
    const TransformerConfig& c = in.model.config;
    KVCache cache = start_decoding(in.model, in.sources[0]);
    const Matrix logits = decode_step(in.model, cache, c.bos_id);
    Samples out{Matrix(in.shown.size(), logits.cols), {}};
    for (std::size_t i = 0; i < in.shown.size(); ++i)
        set_submatrix(out.distributions, i, 0,
                      sampling_distribution(logits, c, in.shown[i].temperature, in.shown[i].top_k));
    Random rng(in.seed);
    for (const SamplingSetting& s : in.sampled)
        for (std::size_t k = 0; k < in.samples; ++k)
            out.drawn.push_back(
                sample_decode(in.model, in.sources[0], s.temperature, s.top_k, in.max_length, rng));
    return out;
}

void sampling(Chapter& ch, const Inputs& in) {
    const Samples samples = samples_of(in);
    const Matrix& shown = samples.distributions;
    const std::vector<Tokens>& drawn = samples.drawn;
    ch.step(tr("Sampling: temperature and top-k, seeded"));
    const TransformerConfig& c = in.model.config;
    ch.say(tr(
        "Instead of the most probable token, draw one: p(v) ∝ exp(logit_v / T). Below, the first "
        "step of {}… — the temperature T sharpens (T < 1) or flattens (T > 1) the model's "
        "distribution; top-k keeps the k most probable tokens only:",
        digits(c, in.sources[0])));
    Labels settings;
    for (const SamplingSetting& x : in.shown) settings.push_back(setting_text(x));
    ch.record("sampling_distributions", shown, Shape::Matrix, tolerance::end_to_end);
    ch.matrix(tr("p(first token)"), transpose(shown), names_of(c), settings, 3);
    std::size_t next = 0;
    for (const SamplingSetting& s : in.sampled)
        for (std::size_t k = 0; k < in.samples; ++k)
            ch.line("  " + tr("{}:  {}", setting_text(s), words(c, drawn[next++])));
    ch.record("sampled_tokens", padded(drawn, in.max_length + 1, c.pad_id), Shape::Matrix, 0.0);
    ch.say(
        tr("Seed {} draws these tokens on every machine, and the oracle draws the same from "
           "PyTorch's probabilities (SplitMix64, inverse transform). In general lower "
           "temperatures and smaller k keep samples nearer the greedy output and higher ones let "
           "them wander; a few samples, as here, can go either way.",
           in.seed));
}

void walkthrough(Chapter& ch) {
    const Inputs in = read_inputs(ch.data);
    the_model(ch, in);
    kv_cache(ch, in);
    cache_memory(ch, in);
    if (!ch.options.check) timed(ch, in);  // measurements: --check compares the rest
    batched(ch, in);
    const bool beam_found_better = beam_search_step(ch, in);
    if (!ch.options.check) stopping_rules(ch, in);  // a measurement on a model of its own
    sampling(ch, in);
    ch.correction(
        "02 推理时数据流",
        tr("\"repeat steps 3 to 6\", read as written, runs the decoder over the whole sequence "
           "again "
           "at every step: about n³ attention work for n tokens. Real decoders keep each layer's "
           "keys and values (the KV cache above) and compute one row per step — the same logits, "
           "bit for bit."));
    if (beam_found_better)
        ch.correction(
            "02 推理时数据流",
            tr("\"take the last word of the output as the prediction\", the most probable word "
               "at every step, need not give the most probable output: beam search found a more "
               "probable reading than greedy decoding above. Translation systems, the paper's "
               "among them, use beam search; chat models usually sample."));
    else
        ch.correction(
            "02 推理时数据流",
            tr("\"take the last word of the output as the prediction\", the most probable word "
               "at every step, need not give the most probable output (the shipped data file "
               "holds a source where beam search finds a more probable one; these sources have "
               "none). Translation systems, the paper's among them, use beam search; chat models "
               "usually sample."));
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{
        "ch09_decoding",
        N_("decoding as real models do: a KV cache (bit for bit equal to recomputing), beam "
           "search, "
           "sampling with temperature and top-k"),
        N_("02 \"推理时数据流\"; the paper's §6.1 (beam size 4, length penalty α = 0.6)"),
        {svg_flag()}};
    return run_chapter(argc, argv, info, walkthrough);
}
