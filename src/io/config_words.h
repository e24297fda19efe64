// config_words.h — a config's broken rule (model/transformer/config.h: config_problem) worded for
// the reader, and the one check every reader of a config calls: a data file's, a model file's,
// chapter 7's flags.
#pragma once
#include <string>

#include "io/data_file.h"

struct TransformerConfig;  // model/transformer/config.h
struct ConfigProblem;

// "expected a divisor of n_heads = 4", in the reader's language.
std::string config_problem_words(const ConfigProblem& problem);

// Throws the data file's error at key + the field when the config breaks a rule (key ends in '.'
// or is "").
void check_config(const DataFile& data, const std::string& key, const TransformerConfig& config);
