// ch10_modern_attention/grouped_query.h — grouped-query and multi-query attention.
#pragma once
#include "ch10_modern_attention/inputs.h"

class Chapter;

// Fewer key/value heads: their outputs, the equality with multi-head attention when every head
// keeps its own, the KV cache's size for published models, and (not with --check) the decoding
// time for each number of key/value heads.
void gqa_step(Chapter& ch, const Inputs& in);
