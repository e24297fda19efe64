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

// A switch's name from its value, and its value from its name, in one of the tables above.
template <class Kind, std::size_t N>
std::string name_in(const std::pair<const char*, Kind> (&table)[N], Kind kind) {
    for (const auto& [name, k] : table)
        if (k == kind) return name;
    return "";
}
template <class Kind, std::size_t N>
bool kind_in(const std::pair<const char*, Kind> (&table)[N], const std::string& name, Kind& kind) {
    for (const auto& [n, k] : table)
        if (name == n) return kind = k, true;
    return false;
}

}  // namespace

std::string norm_name(NormKind kind) { return name_in(norms, kind); }
bool norm_from_name(const std::string& name, NormKind& kind) { return kind_in(norms, name, kind); }
std::string positions_name(PositionScheme scheme) { return name_in(schemes, scheme); }
bool positions_from_name(const std::string& name, PositionScheme& scheme) {
    return kind_in(schemes, name, scheme);
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
