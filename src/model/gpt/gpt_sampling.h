// gpt_sampling.h — a decoder-only model writes: from a prompt, each next token drawn through the
// KV cache with a temperature, top-k and top-p (model/decoding/sampling.h), until <eos>.
#pragma once
#include <cstddef>
#include <vector>

#include "core/random.h"
#include "model/gpt/gpt.h"

struct SamplingSettings {
    double temperature = 1.0;
    std::size_t top_k = 0;         // 0: every token
    double top_p = 1.0;            // 1: every token
    std::size_t max_length = 128;  // tokens in all, the prompt's included
    std::vector<int> never = {};   // ids never drawn (besides <pad> and <bos>), e.g. <unk>
};

// The prompt (starting with <bos>) and what the model draws after it: up to <eos> (kept) or
// max_length tokens.
Tokens sample_gpt(const Gpt& model, const Tokens& prompt, const SamplingSettings& s, Random& rng);
