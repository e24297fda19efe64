// ch09_decoding/inputs.cpp — chapter 9's data file, read and checked.
#include "ch09_decoding/inputs.h"

#include <cmath>
#include <string>

#include "io/model_file.h"
#include "io/training_plan.h"
#include "report/chapter.h"
#include "text/translate.h"
#include "train/numerals_task.h"

namespace ch09_decoding {

namespace {

// Rows [temperature, top_k]: a temperature from 0.001 to 1000 (the logits divided by it stay
// finite), top_k from 0 (every token) to the vocabulary's size.
std::vector<SamplingSetting> settings_at(const DataFile& data, const std::string& key,
                                         std::size_t vocab) {
    const Matrix m = data.matrix(key);
    std::vector<SamplingSetting> out;
    for (std::size_t r = 0; r < m.rows; ++r) {
        if (m.cols != 2 || !(m(r, 0) >= 1e-3 && m(r, 0) <= 1e3) || !(m(r, 1) >= 0) ||
            m(r, 1) > static_cast<double>(vocab) || m(r, 1) != std::floor(m(r, 1)))
            throw data.error(key, tr("expected rows [temperature from 0.001 to 1000, top_k (a "
                                     "whole number from 0, every token, to {})]",
                                     vocab));
        out.push_back({m(r, 0), static_cast<std::size_t>(m(r, 1))});
    }
    return out;
}

}  // namespace

Inputs read_inputs(const DataFile& data) {
    Inputs in;
    in.model = load_transformer(data, "inputs");
    in.sources = data.token_lists("inputs.sources", in.model.config.src_vocab);
    in.max_length = data.size("inputs.max_length", 1, 10000);
    in.padded = data.tokens("inputs.kv_cache_padded", in.model.config.tgt_vocab);
    in.beam.beam = data.size("inputs.beam.beam", 1, 64);
    in.beam.alpha = data.number("inputs.beam.alpha");
    in.beam.max_length = in.max_length;
    in.cutoff_sources = data.token_lists("inputs.beam_cutoff.sources", in.model.config.src_vocab);
    in.cutoff_lengths = data.sizes("inputs.beam_cutoff.max_lengths", 1, 10000);
    if (in.cutoff_lengths.size() != in.cutoff_sources.size())
        throw data.error("inputs.beam_cutoff.max_lengths",
                         tr("expected one for each of inputs.beam_cutoff.sources ({})",
                            in.cutoff_sources.size()));
    in.shown = settings_at(data, "inputs.sampling.settings", in.model.config.tgt_vocab);
    in.sampled = settings_at(data, "inputs.sampling.sample_settings", in.model.config.tgt_vocab);
    in.seed = data.seed("inputs.sampling.seed");
    in.samples = data.size("inputs.sampling.samples", 1, 1000);
    in.memory_lengths = data.sizes("inputs.memory_lengths", 1, std::size_t(1) << 24);
    in.timing_lengths = data.sizes("inputs.timing_lengths", 2, 4096);
    in.batch_sizes = data.sizes("inputs.batch_sizes", 1, 1024);
    in.trained_for = data.text("inputs.training.task");
    in.trained_steps = data.size("inputs.training.steps", 0, std::size_t(1) << 31);
    for (const std::int64_t n :
         data.integers("inputs.stopping.numbers", 0, static_cast<std::int64_t>(largest_numeral)))
        in.stopping_numbers.push_back(static_cast<std::uint64_t>(n));
    in.stopping_plan = read_training_plan(data, "inputs.stopping.training.", "numerals");
    return in;
}

Matrix padded(const std::vector<Tokens>& rows, std::size_t width, int pad) {
    Matrix m(rows.size(), width, static_cast<double>(pad));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t t = 0; t < rows[r].size() && t < width; ++t) m(r, t) = rows[r][t];
    return m;
}

}  // namespace ch09_decoding
