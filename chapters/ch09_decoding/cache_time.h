// ch09_decoding/cache_time.h — time: recomputing the prefix against the KV cache.
#pragma once
#include "ch09_decoding/inputs.h"

class Chapter;

namespace ch09_decoding {

// Each length of inputs.timing_lengths generated both ways and timed (median of runs), a table,
// the fitted exponents worded against the counted 3 and 2, and a chart.
void timed(Chapter& ch, const Inputs& in);

}  // namespace ch09_decoding
