// config_words.cpp — a config's rules in the reader's words.
#include "io/config_words.h"

#include "model/transformer/config.h"
#include "text/translate.h"

std::string config_problem_words(const ConfigProblem& p) {
    using Rule = ConfigProblem::Rule;
    switch (p.rule) {
        case Rule::HeadsDivideWidth:
            return tr("expected a divisor of d_model = {}", p.value);
        case Rule::KvHeadsDivideHeads:
            return tr("expected a divisor of n_heads = {}", p.value);
        case Rule::RopeNeedsEvenDk:
            return tr("rope rotates pairs of columns: expected an even d_k = d_model / n_heads, "
                      "got {}",
                      p.value);
        case Rule::LearnedNeedsRows:
            return tr("learned positions need a table of at least 1 row");
        case Rule::None:
            break;
    }
    return "";
}

void check_config(const DataFile& data, const std::string& key, const TransformerConfig& c) {
    if (const ConfigProblem p = config_problem(c))
        throw data.error(key + p.field, config_problem_words(p));
}
