// ch13_precision/inputs.cpp — chapter 13's data file and switches, read and checked.
#include "ch13_precision/inputs.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/matmul.h"
#include "io/gpt_file.h"
#include "model/transformer/parameters.h"
#include "report/chapter.h"
#include "text/translate.h"

// The largest weight of a model in size, and the tensor it is in (NaN counts as largest).
std::pair<std::string, double> largest_weight(Gpt& model) {
    double largest = 0;
    std::string name;
    for (const Parameter& w : parameters(model))
        for (const double x : w.value->data)
            if (!(std::fabs(x) <= largest)) largest = std::fabs(x), name = w.name;
    return {name, largest};
}

namespace {

void read_poems_settings(const DataFile& d, Inputs& in) {
    const std::string k = "inputs.poems.";
    in.poet = read_poet_settings(d, k);
    in.heldout_poems = d.size(k + "heldout_poems", 1, 1000000);
    in.poem_prompts = d.texts(k + "prompts");
    in.poem_new_tokens = d.size(k + "new_tokens", 1, 10000);
}

void apply_flags(const Options& o, Inputs& in) {
    if (o.has("--steps"))
        in.poet.training.max_steps = static_cast<std::size_t>(o.integer("--steps", 1, 10000000));
}

// The numbers to round and the tutorial's X (its scaled scores within float16's range).
void read_rounding_and_tutorial(const DataFile& d, Inputs& in) {
    in.values = d.texts("inputs.rounding.values");
    if (in.values.empty())
        throw d.error("inputs.rounding.values", tr("expected at least one number"));
    for (std::size_t i = 0; i < in.values.size(); ++i) {
        char* end = nullptr;
        std::strtod(in.values[i].c_str(), &end);
        if (in.values[i].empty() || *end != '\0')
            throw d.error("inputs.rounding.values[" + std::to_string(i) + "]",
                          tr("expected a number (hexadecimal, inf or nan)"));
    }
    in.X = d.matrix("inputs.tutorial.X");
    if (in.X.rows > 4096 || in.X.cols > 4096)
        throw d.error("inputs.tutorial.X", tr("expected at most 4,096 rows and 4,096 columns"));
    in.tokens = d.texts("inputs.tutorial.tokens");
    if (in.tokens.size() != in.X.rows)
        throw d.error("inputs.tutorial.tokens", tr("expected one token per row of X"));
    // every format must hold the tutorial's scores: float16's range is the narrowest
    const Matrix scaled = scale(matmul(in.X, transpose(in.X)), 1.0 / std::sqrt(double(in.X.cols)));
    for (const double s : scaled.data)
        if (!(std::fabs(s) <= float16_largest))
            throw d.error("inputs.tutorial.X",
                          tr("its scaled scores XXᵀ/√d reach {}, past float16's largest number, "
                             "65,504; expected smaller numbers",
                             general(s, 6)));
}

// The cases where attention breaks in float16, each within the format's range.
void read_breaking(const DataFile& d, Inputs& in) {
    const std::string b = "inputs.breaking.";
    for (double s : d.vector(b + "scores").data) {
        if (!(std::fabs(s) <= float16_largest))
            throw d.error(b + "scores", tr("expected numbers float16 holds, from −65,504 to 65,504"));
        in.scores.push_back(static_cast<float>(s));
    }
    if (in.scores.empty()) throw d.error(b + "scores", tr("expected at least one number"));
    in.mask_value = d.number(b + "mask_value", -1e300, 0);
    in.masked_row = d.size(b + "masked_row", 1, 4096);
    in.dot_lengths = d.sizes(b + "dot_lengths", 1, 1 << 20);
    if (in.dot_lengths.empty() || in.dot_lengths.size() > 64)
        throw d.error(b + "dot_lengths", tr("expected from 1 to 64 lengths"));
    in.seed = d.seed(b + "seed");
    in.d_k = d.size(b + "d_k", 1, 4096);
    in.scale_rows = d.size(b + "scale_rows", 1, 4096);
    in.norm_offset = d.number(b + "norm_offset", -60000, 60000);
    in.norm_spread = d.vector(b + "norm_spread").data;
    if (in.norm_spread.empty()) throw d.error(b + "norm_spread", tr("expected at least one number"));
    // the row and its float16 sum (the mean's first step) must stay in float16's range
    double row_sum = 0;
    for (const double s : in.norm_spread) row_sum += std::fabs(in.norm_offset + s);
    if (!(row_sum <= float16_largest))
        throw d.error(b + "norm_offset",
                      tr("the row norm_offset + norm_spread sums to {} in size, past float16's "
                         "largest number, 65,504; expected a smaller offset or fewer numbers",
                         general(row_sum, 6)));
}

// The oracle's small model (its weights within float16's range), its held-out sequences and
// prompts; the readings its expected values list.
void read_small_model(const DataFile& d, Inputs& in) {
    // the readings the expected values list, as the oracle names them: this chapter's, in order
    std::vector<std::string> names;
    for (const Reading& r : readings) names.push_back(r.name);
    if (d.texts("inputs.readings") != names)
        throw d.error("inputs.readings", tr("expected the readings this chapter computes, in "
                                            "order: {}",
                                            listed(names)));
    in.small = load_gpt(d, "inputs.model");
    // read in float16 below: a weight float16 does not hold is named as float16's, not float64's
    const auto [name, largest] = largest_weight(in.small);
    if (!(largest <= float16_largest))
        throw d.error("inputs.model",
                      tr("its weight {} is {}, past float16's largest number, 65,504: its "
                         "float16 readings would overflow to infinity; expected weights that "
                         "float16 holds",
                         name, general(largest, 6)));
    const std::size_t vocab = in.small.config.tgt_vocab;
    in.heldout = d.token_lists("inputs.model.heldout", vocab);
    in.prompts = d.token_lists("inputs.model.prompts", vocab);
    in.new_tokens = d.size("inputs.model.new_tokens", 1, 10000);
}

}  // namespace

Inputs read_inputs(const DataFile& d, const Options& o) {
    Inputs in;
    read_rounding_and_tutorial(d, in);
    read_breaking(d, in);
    read_small_model(d, in);
    read_poems_settings(d, in);
    apply_flags(o, in);
    return in;
}
