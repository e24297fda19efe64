// config.cpp — the names of chapter 10's switches.
#include "model/transformer/config.h"

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
