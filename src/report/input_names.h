// input_names.h — what the live book's panel calls each input of a chapter's data file: a name
// for each key ("trials", "self_attn", "norm_first"), in the reader's language, which the page
// joins along a key's path ("why divide by √d_k · trials"); the data file's own key stays beside
// it. A key of the form "parent.key" names a key only under that parent ("cases.causal").
#pragma once
#include <string>
#include <utility>
#include <vector>

// Every key's name, translated ("layers" holds {} for the layer's number, counted from 1).
std::vector<std::pair<std::string, std::string>> input_names();
