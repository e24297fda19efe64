// gpt_cache.h — what a pass of the decoder-only model (gpt.h) keeps for its backward pass, and
// for a reader who looks inside (chapter 14): each block's cache, the final norm's.
#pragma once
#include <vector>

#include "core/matrix.h"
#include "model/transformer/caches.h"  // exports: each block's cache

struct GptCache {
    std::vector<EncoderLayerCache> blocks;
    NormCache norm;
    Matrix y;  // after the final norm: the output projection's input
};
