// tokens.h — token ids, the sequences a Transformer reads and writes.
#pragma once
#include <string>
#include <vector>

struct Stacking;  // model/multi_head/stacking.h

using Tokens = std::vector<int>;              // ids into a vocabulary
using Vocabulary = std::vector<std::string>;  // the name of each id (the model file keeps them)

// The decoder's input at training time: <bos> followed by every target token but the last, so
// that position t predicts target[t] having seen only target[0 .. t−1] (tutorial 02, 数据流).
Tokens shifted_right(const Tokens& target, int bos_id);

// true where the id is the padding id: those keys are masked in every attention.
std::vector<bool> is_padding(const Tokens& ids, int pad_id);

// Sequences stacked one below the other (stacking.h): where each begins, and every id in order.
Stacking stacking_of(const std::vector<Tokens>& sequences);
Tokens concatenated(const std::vector<Tokens>& sequences);
