// ch09_decoding/batch.h — many sequences decoded at once through their caches, as an inference
// server batches its requests: each the tokens it gets alone; the time one batch saves.
#pragma once
#include "ch09_decoding/inputs.h"

class Chapter;

namespace ch09_decoding {

// The data file's sources decoded greedily in one batch, against each alone (recorded: the
// oracle's greedy tokens); then, unless --check, the time of B sequences decoded one at a time
// and in one batch, for each B of inputs.batch_sizes.
void batched(Chapter& ch, const Inputs& in);

}  // namespace ch09_decoding
