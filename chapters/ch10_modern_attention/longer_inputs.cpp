// ch10_modern_attention/longer_inputs.cpp — which way of giving positions lets chapter 7's
// reversal model read inputs longer than any it was trained on.
#include "ch10_modern_attention/longer_inputs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/chart.h"
#include "report/model_summary.h"
#include "text/translate.h"
#include "train/evaluate.h"
#include "train/reverse_task.h"

namespace {

double exact_at_length(const Transformer& m, std::size_t length, const Inputs& in) {
    Random rng(in.test_seed + length);
    return exact_match(m, random_reversals(rng, in.per_length, length, length)).rate();
}

// Exact match against length, one line per scheme; a dashed line where training stopped.
void length_picture(Chapter& ch, const Inputs& in, const Matrix& table, const Labels& names,
                    std::size_t trained) {
    std::vector<double> xs;
    for (const std::size_t l : in.test_lengths) xs.push_back(static_cast<double>(l));
    LineChart chart{tr("reversal: exact match by input length (trained on 1–{})", trained),
                    tr("input length"),
                    tr("exact match (%)"),
                    false,
                    false,
                    {},
                    xs};
    for (std::size_t s = 0; s < names.size(); ++s) {
        Series line{names[s], xs, {}, true, false};
        for (std::size_t l = 0; l < xs.size(); ++l) line.ys.push_back(100 * table(s, l));
        chart.series.push_back(line);
    }
    const double edge = static_cast<double>(trained) + 0.5;
    chart.series.push_back({tr("longest in training"), {edge, edge}, {0, 100}, false, true});
    ch.picture("ch10_length_generalization.svg", line_chart_svg(chart));
}

// The schemes at a value (to a tenth of a percent), in the table's order.
std::vector<std::string> at_value(const std::vector<double>& rates, const Labels& names, double x) {
    std::vector<std::string> out;
    for (std::size_t s = 0; s < rates.size(); ++s)
        if (std::fabs(rates[s] - x) < 5e-4) out.push_back(names[s]);
    return out;
}

struct LengthResults {
    Matrix table;                        // schemes x test lengths: exact match, mean over seeds
    std::vector<Matrix> per_seed;        // per scheme: seeds x test lengths
    std::vector<double> within, beyond;  // per scheme: mean within and beyond training lengths
    Labels names;                        // the schemes in the reader's words
    bool any_beyond = false;             // a test length longer than training's
};

// Every scheme trained with every seed, then read at every test length.
LengthResults measure_lengths(Chapter& ch, const Inputs& in, Trained& trained_runs) {
    const std::size_t trained = in.plan.task.max_source_length, n_seeds = in.seeds.size();
    LengthResults r;
    r.table = Matrix(in.schemes.size(), in.test_lengths.size());
    r.per_seed.assign(in.schemes.size(), Matrix(n_seeds, in.test_lengths.size()));
    for (std::size_t s = 0; s < in.schemes.size(); ++s)
        for (std::size_t k = 0; k < n_seeds; ++k) {
            const TrainingRun& run =
                trained_runs.get(ch, in, in.schemes[s], NormKind::Layer, in.seeds[k]);
            for (std::size_t l = 0; l < in.test_lengths.size(); ++l) {
                r.per_seed[s](k, l) = exact_at_length(run.model, in.test_lengths[l], in);
                r.table(s, l) += r.per_seed[s](k, l) / static_cast<double>(n_seeds);
            }
        }
    trained_runs.done();
    r.within.assign(in.schemes.size(), 0.0);
    r.beyond.assign(in.schemes.size(), 0.0);
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        r.names.push_back(scheme_text(in.schemes[s]));
        std::size_t n_within = 0, n_beyond = 0;
        for (std::size_t l = 0; l < in.test_lengths.size(); ++l) {
            const bool past = in.test_lengths[l] > trained;
            (past ? r.beyond[s] : r.within[s]) += r.table(s, l);
            ++(past ? n_beyond : n_within);
        }
        if (n_within) r.within[s] /= static_cast<double>(n_within);
        if (n_beyond) r.beyond[s] /= static_cast<double>(n_beyond);
        r.any_beyond = n_beyond > 0;
    }
    return r;
}

// The table (lengths past training starred), recorded, and drawn.
void show_length_table(Chapter& ch, const Inputs& in, const LengthResults& r) {
    const std::size_t trained = in.plan.task.max_source_length;
    std::vector<std::string> header = {tr("positions")};
    for (const std::size_t l : in.test_lengths)
        header.push_back(tr("len {}", l) + (l > trained ? "*" : ""));
    Table shown(header);
    Labels codes;  // the config's names, for --json
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        codes.push_back(positions_name(in.schemes[s]));
        std::vector<std::string> row = {r.names[s]};
        for (std::size_t l = 0; l < in.test_lengths.size(); ++l)
            row.push_back(fixed(100 * r.table(s, l), 1) + "%");
        shown.add(row);
    }
    ch.table(shown);
    ch.line(
        in.seeds.size() == 1
            ? tr("  * longer than any sequence in training; exact match, seed {}", seq(in.seeds))
            : tr("  * longer than any sequence in training; exact match, mean over seeds {}",
                 seq(in.seeds)));
    ch.measured("length_generalization", r.table);
    ch.reported("length_generalization_schemes", codes);
    length_picture(ch, in, r.table, r.names, trained);
}

// Within the training lengths: the schemes that did not learn the task at all.
void word_within(Chapter& ch, const Inputs& in, const LengthResults& r) {
    std::vector<std::string> weak;  // schemes with positions that did not learn the task
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        if (r.within[s] >= 0.5) continue;
        if (in.schemes[s] == PositionScheme::None)
            ch.say(
                tr("Without positions the model reads only {}% right even at lengths it was "
                   "trained on: with nothing to say where a token stands, the encoder's output "
                   "is the same for every order of the same digits, and reversing needs the "
                   "order.",
                   fixed(100 * r.within[s], 1)));
        else
            weak.push_back(r.names[s] + " " + fixed(100 * r.within[s], 1) + "%");
    }
    if (!weak.empty())
        ch.say(
            tr("Within the training lengths some models read fewer than half right ({}): "
               "{} steps did not teach them the task, so what they do beyond it says little "
               "(inputs.length_generalization.training.max_steps trains longer).",
               listed(weak), in.plan.settings.max_steps));
}

// Beyond the training lengths: best and worst, how much the seeds agree, learned positions.
Finding word_beyond(Chapter& ch, const Inputs& in, const LengthResults& r) {
    const std::size_t trained = in.plan.task.max_source_length;
    Finding f;
    f.any_beyond = true;
    f.best = *std::max_element(r.beyond.begin(), r.beyond.end());
    f.worst = *std::min_element(r.beyond.begin(), r.beyond.end());
    f.best_names = at_value(r.beyond, r.names, f.best);
    f.worst_names = at_value(r.beyond, r.names, f.worst);
    if (f.best == f.worst)
        ch.say(
            tr("Beyond the training lengths (mean over the lengths above {}) every scheme "
               "reads {}%: none stands out here.",
               trained, fixed(100 * f.best, 1)));
    else
        ch.say(
            tr("Beyond the training lengths (mean over the lengths above {}): best {} with "
               "{}%, worst {} with {}%.",
               trained, listed(f.best_names), fixed(100 * f.best, 1), listed(f.worst_names),
               fixed(100 * f.worst, 1)));
    // how much the seeds agree, at the first length past training, for the best scheme
    std::size_t first_past = 0;
    while (in.test_lengths[first_past] <= trained) ++first_past;
    for (std::size_t s = 0; s < in.schemes.size(); ++s) {
        if (r.names[s] != f.best_names.front() || in.seeds.size() < 2) continue;
        double lo = 1.0, hi = 0.0;
        for (std::size_t k = 0; k < in.seeds.size(); ++k)
            lo = std::min(lo, r.per_seed[s](k, first_past)),
            hi = std::max(hi, r.per_seed[s](k, first_past));
        ch.say(
            tr("Seed to seed, {} at length {} read between {}% and {}%: one seed would not "
               "have settled it.",
               r.names[s], in.test_lengths[first_past], fixed(100 * lo, 1), fixed(100 * hi, 1)));
    }
    for (std::size_t s = 0; s < in.schemes.size(); ++s)
        if (in.schemes[s] == PositionScheme::Learned && r.beyond[s] < 0.05 && r.within[s] >= 0.5)
            ch.say(
                tr("learned positions cannot go further than training did: the table has {} "
                   "rows, but those past position {} were never trained, so they hold their "
                   "random starting values.",
                   in.max_positions, trained));
    return f;
}

}  // namespace

Finding length_step(Chapter& ch, const Inputs& in, Trained& trained_runs) {
    ch.step(
        tr("Which positions read longer inputs than training had? (02 位置编码, requirement 3)"));
    const std::size_t trained = in.plan.task.max_source_length;
    ch.say(
        tr("Chapter 7's reversal task, trained on lengths 1 to {} with the same plan ({} steps, "
           "seeds {}) under each position scheme, then read on {} new sequences of each "
           "length:",
           trained, in.plan.settings.max_steps, seq(in.seeds), in.per_length));
    const LengthResults r = measure_lengths(ch, in, trained_runs);
    show_length_table(ch, in, r);
    word_within(ch, in, r);
    if (r.any_beyond) return word_beyond(ch, in, r);
    ch.say(
        tr("No test length here is longer than the training's {}: nothing to compare "
           "beyond them.",
           trained));
    return {};
}
