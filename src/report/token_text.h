// token_text.h — token ids as a reader reads them: by their names in a model's vocabulary.
#pragma once
#include <string>

#include "model/transformer/tokens.h"  // exports: token ids

struct TransformerConfig;  // model/transformer/config.h


// The name of an id, or "#id" when the vocabulary has none; "3 1 4 <eos>": each id by its name.
std::string name_of(const Vocabulary& vocabulary, int id);
std::string text_of(const Vocabulary& vocabulary, const Tokens& ids);

// The name of every target token id: config.vocabulary when the model has one; else the special
// tokens by name ("<pad>", "<bos>", "<eos>") and every other id as its number.
Vocabulary names_of(const TransformerConfig& config);
// The same for the source side: config.source_vocabulary, or when it has none, names_of().
Vocabulary source_names_of(const TransformerConfig& config);

// Ids by those names: "<bos> 4 1 3 <eos>".
std::string text_of(const TransformerConfig& config, const Tokens& ids);
std::string source_text_of(const TransformerConfig& config, const Tokens& ids);

// The names run together, <bos> and <eos> left out: "207622", "二十万七千六百二十二" — for
// tasks whose tokens are characters (names: names_of() or source_names_of()).
std::string joined_text(const Vocabulary& names, const Tokens& ids,
                        const TransformerConfig& config);
