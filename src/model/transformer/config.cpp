// config.cpp — the names of chapter 10's switches.
#include "model/transformer/config.h"

#include "model/multi_head/multi_head.h"
#include "model/positions/rotary.h"

#include <utility>

namespace {

const std::pair<const char*, NormKind> norms[] = {{"layer", NormKind::Layer},
                                                  {"rms", NormKind::RMS}};
const std::pair<const char*, PositionScheme> schemes[] = {
    {"sinusoidal", PositionScheme::Sinusoidal},
    {"learned", PositionScheme::Learned},
    {"rope", PositionScheme::Rope},
    {"alibi", PositionScheme::Alibi},
    {"none", PositionScheme::None}};

}  // namespace

std::string norm_name(NormKind kind) {
    for (const auto& [name, k] : norms)
        if (k == kind) return name;
    return "";
}

bool norm_from_name(const std::string& name, NormKind& kind) {
    for (const auto& [n, k] : norms)
        if (name == n) return kind = k, true;
    return false;
}

std::string positions_name(PositionScheme scheme) {
    for (const auto& [name, s] : schemes)
        if (s == scheme) return name;
    return "";
}

bool positions_from_name(const std::string& name, PositionScheme& scheme) {
    for (const auto& [n, s] : schemes)
        if (name == n) return scheme = s, true;
    return false;
}

ConfigProblem config_problem(const TransformerConfig& c) {
    using Rule = ConfigProblem::Rule;
    if (c.n_heads == 0 || c.d_model % c.n_heads != 0)
        return {Rule::HeadsDivideWidth, "n_heads", c.d_model};
    if (!kv_heads_fit(c.n_heads, c.kv_heads()))
        return {Rule::KvHeadsDivideHeads, "n_kv_heads", c.n_heads};
    if (c.positions == PositionScheme::Rope && !rope_fits(c.d_model / c.n_heads))
        return {Rule::RopeNeedsEvenDk, "positions", c.d_model / c.n_heads};
    if (c.positions == PositionScheme::Learned && c.max_positions == 0)
        return {Rule::LearnedNeedsRows, "max_positions", 0};
    return {};
}
