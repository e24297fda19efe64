// ch07_training — teaching the Transformer to reverse digits, with every gradient by hand.
//
// Tutorial: 02 "训练测试细节" and "数据流" (training sees the whole target at once, inference
// generates one token at a time); the paper's §5 (Adam, warm-up, label smoothing) as the
// notes in 04 summarise them.
#include <chrono>
#include <cmath>
#include <iostream>
#include <string>
#include <unistd.h>

#include "adam.h"
#include "chapter.h"
#include "model_io.h"
#include "print.h"
#include "reverse_task.h"
#include "svg.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string words(const Tokens& ids) {
    static const std::vector<std::string> vocab = reverse_vocabulary();
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : " ") + (id >= 0 && id < reverse_vocab_size ? vocab[static_cast<std::size_t>(id)] : "?");
    return s;
}

std::vector<Example> examples_at(const DataFile& data, const std::string& key) {
    std::vector<Example> out;
    const Json& list = data.at(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
        Example e;
        for (int part = 0; part < 2; ++part) {
            const Json& seq = list[i].is_array() && list[i].size() == 2 ? list[i][part] : Json();
            if (!seq.is_array() || seq.empty()) throw data.error(key + "[" + std::to_string(i) + "]", "expected [source ids, target ids]");
            for (const Json& t : seq) {
                if (!t.is_number_integer() || t.get<int>() < 0 || t.get<int>() >= reverse_vocab_size)
                    throw data.error(key + "[" + std::to_string(i) + "]", "expected token ids from 0 to 12");
                (part == 0 ? e.source : e.target).push_back(t.get<int>());
            }
        }
        out.push_back(e);
    }
    return out;
}

std::vector<Matrix*> pointers(Transformer& m) {
    std::vector<Matrix*> out;
    for (const auto& p : named_parameters(m)) out.push_back(p.second);
    return out;
}

// Our gradients in PyTorch's names and layout, added as results "grad_<placement>/<name>".
void add_gradients(Results& results, const std::string& placement, const Transformer& grad) {
    const Json exported = transformer_to_json(grad);  // kept alive for the loop
    for (const auto& item : exported["weights"].items()) {
        std::string name = item.key();
        for (char& c : name) c = c == '.' ? '/' : c;
        const Json& v = item.value();
        if (v[0].is_array()) {
            Matrix m(v.size(), v[0].size());
            for (std::size_t r = 0; r < m.rows; ++r)
                for (std::size_t c = 0; c < m.cols; ++c) m(r, c) = v[r][c].get<double>();
            results.add("grad_" + placement + "/" + name, m, tolerance::end_to_end);
        } else {
            Matrix row(1, v.size());
            for (std::size_t c = 0; c < v.size(); ++c) row(0, c) = v[c].get<double>();
            results.add_vector("grad_" + placement + "/" + name, row, tolerance::end_to_end);
        }
    }
}

// The largest |ours − PyTorch| over every gradient entry of one placement, from the data file.
double largest_gradient_gap(const DataFile& data, const Results& results, const std::string& placement) {
    double worst = 0.0;
    for (const Result& r : results.all()) {
        if (r.name.rfind("grad_" + placement + "/", 0) != 0 || !data.at("expected").contains(r.name)) continue;
        const Json& e = data.at("expected")[r.name];
        const Matrix want = e[0].is_array() ? data.matrix_of(e, "expected." + r.name) : data.vector_of(e, "expected." + r.name);
        if (want.data.size() == r.value.data.size()) worst = std::max(worst, max_abs_diff(want, r.value));
    }
    return worst;
}

// Central differences on two entries of every parameter matrix; the worst relative error.
double finite_difference_check(Transformer& m, const std::vector<Example>& batch, double smoothing) {
    Transformer grad;
    batch_gradients(m, batch, smoothing, grad);
    auto params = named_parameters(m), grads = named_parameters(grad);
    Random pick(1);
    double worst = 0.0;
    for (std::size_t p = 0; p < params.size(); ++p)
        for (int k = 0; k < 2; ++k) {
            double& x = params[p].second->data[pick.next() % params[p].second->data.size()];
            const std::size_t i = static_cast<std::size_t>(&x - params[p].second->data.data());
            const double saved = x, h = 1e-5;
            x = saved + h;
            const double up = batch_loss(m, batch, smoothing);
            x = saved - h;
            const double down = batch_loss(m, batch, smoothing);
            x = saved;
            const double numeric = (up - down) / (2 * h), analytic = grads[p].second->data[i];
            // floor 1e-3: below it, compare absolutely (see tests/test_gradients.cpp)
            worst = std::max(worst, std::fabs(numeric - analytic) / std::max({std::fabs(numeric), std::fabs(analytic), 1e-3}));
        }
    return worst;
}

struct Progress {
    bool show = isatty(2) != 0;  // quiet when stderr is a file or a pipe
    void update(std::size_t step, std::size_t max_steps, double loss, double lr, double tokens_per_s, double elapsed, double budget) {
        if (!show) return;
        const double left = std::min(budget - elapsed, tokens_per_s > 0 ? (max_steps - step) * elapsed / step : 0.0);
        const int filled = static_cast<int>(20 * std::min(1.0, std::max(elapsed / budget, static_cast<double>(step) / max_steps)));
        std::cerr << "\r[" << std::string(filled, '#') << std::string(20 - filled, '.') << "] step " << step << "  loss "
                  << fixed(loss, 4) << "  lr " << sci(lr) << "  " << fixed(tokens_per_s, 0) << " tokens/s  ETA "
                  << fixed(std::max(0.0, left), 0) << " s   " << std::flush;
    }
    void done() { if (show) std::cerr << "\n"; }
};

struct TrainingRun {
    Transformer model;
    std::vector<double> losses;
    double seconds = 0.0;
};

TrainingRun train(const DataFile& data, std::size_t max_steps, double max_seconds) {
    const std::string k = "inputs.training.";
    TransformerConfig c;
    c.d_model = static_cast<std::size_t>(data.integer(k + "d_model", 1, 4096));
    c.n_heads = static_cast<std::size_t>(data.integer(k + "n_heads", 1, 64));
    c.d_ff = static_cast<std::size_t>(data.integer(k + "d_ff", 1, 65536));
    c.n_encoder_layers = static_cast<std::size_t>(data.integer(k + "n_encoder_layers", 1, 24));
    c.n_decoder_layers = static_cast<std::size_t>(data.integer(k + "n_decoder_layers", 1, 24));
    c.norm_first = data.at(k + "norm_first").get<bool>();
    c.src_vocab = c.tgt_vocab = reverse_vocab_size;
    c.vocabulary = reverse_vocabulary();
    if (c.d_model % c.n_heads) throw data.error(k + "n_heads", "expected a divisor of d_model");
    const std::size_t batch_size = static_cast<std::size_t>(data.integer(k + "batch_size", 1, 100000));
    const std::size_t min_len = static_cast<std::size_t>(data.integer(k + "min_length", 1, 100));
    const std::size_t max_len = static_cast<std::size_t>(data.integer(k + "max_length", static_cast<long>(min_len), 100));
    const double smoothing = data.number(k + "smoothing");
    AdamSettings settings;
    settings.factor = data.number(k + "factor");
    settings.warmup = static_cast<std::size_t>(data.integer(k + "warmup", 1, 1000000));
    settings.d_model = c.d_model;

    TrainingRun run{random_transformer(c, static_cast<std::uint64_t>(data.integer(k + "seed", 0, 1L << 62))), {}, 0.0};
    Random rng(static_cast<std::uint64_t>(data.integer(k + "seed", 0, 1L << 62)) + 1);
    Adam adam(settings);
    const std::vector<Matrix*> params = pointers(run.model);
    Progress progress;
    std::size_t tokens = 0;
    const auto start = Clock::now();
    for (std::size_t step = 1; step <= max_steps; ++step) {
        const std::vector<Example> batch = random_reversals(rng, batch_size, min_len, max_len);
        Transformer grad;
        const double loss = batch_gradients(run.model, batch, smoothing, grad);
        const double lr = adam.step(params, pointers(grad));
        run.losses.push_back(loss);
        for (const Example& e : batch) tokens += e.source.size() + e.target.size();
        run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        progress.update(step, max_steps, loss, lr, tokens / run.seconds, run.seconds, max_seconds);
        if (run.seconds >= max_seconds) break;
    }
    progress.done();
    return run;
}

void walkthrough(const DataFile& data, const Options& o, std::ostream& out, Results& results) {
    Transformer tiny = load_transformer(data, "inputs");
    const double smoothing = data.number("inputs.smoothing");
    const std::vector<Example> batch = examples_at(data, "inputs.gradient_batch");
    if (batch.empty()) throw data.error("inputs.gradient_batch", "expected at least one example");

    print_step(out, "The task: reverse a sequence of digits");
    for (std::size_t i = 0; i < std::min<std::size_t>(3, batch.size()); ++i)
        out << "  source " << words(batch[i].source) << "   →   target " << words(batch[i].target)
            << "   (decoder input: " << words(decoder_input_of(tiny, batch[i].target)) << ")\n";

    print_step(out, "Gradients by hand against PyTorch autograd");
    out << "A tiny model (d_model " << tiny.config.d_model << ", " << tiny.config.n_encoder_layers << "+"
        << tiny.config.n_decoder_layers << " layers), one batch of " << batch.size()
        << " sequences, label smoothing " << smoothing << ":\n";
    for (const bool norm_first : {false, true}) {
        tiny.config.norm_first = norm_first;
        const std::string placement = norm_first ? "pre_norm" : "post_norm";
        Transformer grad;
        const double loss = batch_gradients(tiny, batch, smoothing, grad);
        results.add_number("loss_" + placement, loss, tolerance::end_to_end);
        add_gradients(results, placement, grad);
        out << "  " << pad_right(placement, 9) << " loss " << fixed(loss, 12) << "; largest |our gradient − PyTorch's| over "
            << named_parameters(grad).size() << " matrices: " << sci(largest_gradient_gap(data, results, placement)) << "\n";
    }
    out << "Central differences (L(θ+h) − L(θ−h))/2h on two entries of every matrix: largest relative error "
        << sci(finite_difference_check(tiny, batch, smoothing)) << " (pre-norm).\n"
        << "One zero you can trust: the key bias b_K gets no gradient at all — adding q·b_K to every\n"
        << "score of a row leaves its softmax unchanged.\n";

    print_step(out, "Adam with warm-up: the first steps against torch.optim.Adam");
    AdamSettings a;
    a.factor = data.number("inputs.adam.factor");
    a.warmup = static_cast<std::size_t>(data.integer("inputs.adam.warmup", 1, 1000000));
    a.d_model = static_cast<std::size_t>(data.integer("inputs.adam.d_model", 1, 100000));
    const std::size_t steps = static_cast<std::size_t>(data.integer("inputs.adam.steps", 1, 1000));
    const std::size_t batch_size = static_cast<std::size_t>(data.integer("inputs.adam.batch_size", 1, 10000));
    Table t({"step", "lr", "loss post-norm", "loss pre-norm"});
    std::vector<std::vector<double>> losses(2);
    for (const bool norm_first : {false, true}) {
        Transformer m = load_transformer(data, "inputs");
        m.config.norm_first = norm_first;
        Adam adam(a);
        Random rng(static_cast<std::uint64_t>(data.integer("inputs.adam.seed", 0, 1L << 62)));
        for (std::size_t s = 0; s < steps; ++s) {
            const std::vector<Example> b = random_reversals(rng, batch_size, 1, 10);
            Transformer grad;
            losses[norm_first].push_back(batch_gradients(m, b, smoothing, grad));
            adam.step(pointers(m), pointers(grad));
        }
        Matrix row(1, steps);
        for (std::size_t s = 0; s < steps; ++s) row(0, s) = losses[norm_first][s];
        results.add_vector(std::string("first_losses_") + (norm_first ? "pre_norm" : "post_norm"), row, tolerance::end_to_end);
    }
    for (std::size_t s = 0; s < steps; ++s)
        t.add({std::to_string(s + 1), sci(learning_rate(a, s + 1)), fixed(losses[0][s], 10), fixed(losses[1][s], 10)});
    t.print(out);
    out << "lr = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5): it rises for " << a.warmup
        << " steps, then falls as 1/√step.\n";

    print_step(out, "Training from scratch");
    const std::size_t check_steps = static_cast<std::size_t>(data.integer("inputs.training.check_steps", 1, 1000000));
    std::size_t max_steps = static_cast<std::size_t>(data.integer("inputs.training.max_steps", 1, 100000000));
    double max_seconds = data.number("inputs.training.max_seconds");
    if (o.check) max_steps = check_steps;  // --check: a short run, its figures are not compared
    if (o.has("--steps")) max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 100000000));
    if (o.has("--seconds")) max_seconds = o.number("--seconds", 0.001, 1e7);
    const TrainingRun run = train(data, max_steps, max_seconds);
    Random held(static_cast<std::uint64_t>(data.integer("inputs.training.heldout_seed", 0, 1L << 62)));
    const std::vector<Example> heldout = random_reversals(held, static_cast<std::size_t>(data.integer("inputs.training.heldout", 1, 1000000)),
                                                          static_cast<std::size_t>(data.integer("inputs.training.min_length", 1, 100)),
                                                          static_cast<std::size_t>(data.integer("inputs.training.max_length", 1, 100)));
    const auto eval_start = Clock::now();
    const ExactMatch score = exact_match(run.model, heldout);
    const double eval_seconds = std::chrono::duration<double>(Clock::now() - eval_start).count();
    const TransformerConfig& c = run.model.config;
    out << "model: d_model " << c.d_model << ", h " << c.n_heads << ", d_ff " << c.d_ff << ", " << c.n_encoder_layers << "+"
        << c.n_decoder_layers << " layers, " << (c.norm_first ? "pre-norm" : "post-norm") << ", " << parameter_count(run.model)
        << " parameters\ntrained " << run.losses.size() << " steps in " << fixed(run.seconds, 1) << " s; final loss "
        << fixed(run.losses.back(), 4) << "\nheld-out exact match: " << score.correct << " / " << score.total << " = "
        << fixed(100 * score.rate(), 1) << "% (greedy decoding, " << fixed(eval_seconds, 1) << " s)\n";
    for (std::size_t i = 0; i < 4 && i < heldout.size(); ++i) {
        const GreedySteps g = greedy_decode(run.model, heldout[i].source, heldout[i].target.size());
        out << "  " << words(heldout[i].source) << "  →  " << words(Tokens(g.output.begin() + 1, g.output.end()))
            << (Tokens(g.output.begin() + 1, g.output.end()) == heldout[i].target ? "  ✓" : "  ✗") << "\n";
    }
    results.add_measurement("heldout_exact_match", score.rate());
    results.add_measurement("train_seconds", run.seconds);
    results.add_measurement("steps", static_cast<double>(run.losses.size()));
    results.add_measurement("final_loss", run.losses.back());

    // pictures: the loss curve, and where the decoder looks in the source
    Series curve{"loss", {}, run.losses};
    for (std::size_t s = 0; s < run.losses.size(); ++s) curve.xs.push_back(static_cast<double>(s + 1));
    results.add_figure("ch07_loss.svg", LineChart{"training loss (label-smoothed cross-entropy)", "step", "loss", false, false, {curve}});
    const Example& ex = heldout[0];
    EncodeCache ec;
    DecodeCache dc;
    const Tokens input = decoder_input_of(run.model, ex.target);
    decode_forward(run.model, input, encode_forward(run.model, ex.source, ec), ex.source, dc);
    const MultiHeadCache& cross = dc.layers.back().cross_attn;
    Matrix mean(cross.weights[0].rows, cross.weights[0].cols);
    for (const Matrix& w : cross.weights) add_to(mean, scale(w, 1.0 / static_cast<double>(cross.weights.size())));
    Labels rows, cols;
    for (int id : input) rows.push_back(words({id}));
    for (int id : ex.source) cols.push_back(words({id}));
    results.add_figure("ch07_cross_attention.svg", Heatmap{"last decoder layer's cross-attention (mean of heads)", mean, rows, cols});
    out << "\nThe last decoder layer's cross-attention, averaged over heads (rows: decoder input, columns: source):\n";
    print_matrix(out, "cross-attention", mean, rows, cols, 2);
    out << "For reversal the weight sits on an anti-diagonal: output position t reads source position L − 1 − t.\n";

    const std::string save = o.has("--save") ? o.extra.at("--save") : "build/ch07_reverse_model.json";
    if (!o.check) {
        save_transformer(run.model, save);
        out << "\nsaved the trained model to " << save << "; decode your own digits with\n"
            << "  build/ch06_encoder_decoder --weights " << save << " --source \"3 1 4 1 5\"\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    const ChapterInfo info{"ch07_training",
                           "training from scratch: hand-written gradients, Adam with warm-up, learning to reverse digits",
                           "02 \"训练测试细节\" and \"数据流\"; the paper's §5 (Adam, warm-up, label smoothing)",
                           {svg_flag(),
                            {"--steps", "N", "train at most N steps (a quick run: --steps 20)"},
                            {"--seconds", "S", "train at most S seconds (default: the data file's, 60)"},
                            {"--save", "FILE", "where to save the trained model (default build/ch07_reverse_model.json)"}}};
    return run_chapter(argc, argv, info, walkthrough);
}
