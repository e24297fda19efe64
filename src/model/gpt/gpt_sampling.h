// gpt_sampling.h — a decoder-only model writes: from a prompt, each next token drawn through the
// KV cache with a temperature, top-k and top-p (model/decoding/sampling.h), until <eos>.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct Gpt;  // model/gpt/gpt.h

// Which tokens may come next, given the tokens so far: allowed (one entry per token, all true
// to begin with) is narrowed; a token not allowed gets the logit −∞ before the softmax, the way
// chapter 3's masks hide a key. Chapter 12 keeps the form of a poem so (verse/verse.h).
using TokenMask = std::function<void(const Tokens& so_far, std::vector<bool>& allowed)>;

struct SamplingSettings {
    double temperature = 1.0;
    std::size_t top_k = 0;        // 0: every token
    double top_p = 1.0;           // 1: every token
    std::size_t max_new = 128;    // tokens written after the prompt, at most
    std::size_t context = 0;      // the most tokens the model reads at once (0: no limit)
    std::vector<int> never = {};  // ids never drawn (besides <pad> and <bos>), e.g. <unk>
    TokenMask mask = {};          // none: every token may come
    // what is subtracted from the logit of the token just written, given the tokens so far (a
    // repeat correction, verse/repeat_correction.h); none: nothing
    std::function<double(const Tokens& so_far)> repeat_correction = {};
};

// The prompt (starting with <bos>) and what the model draws after it: up to <eos> (kept) or
// max_new tokens. The model reads at most `context` tokens — the window it was trained on: of a
// longer prompt only the last `context`, and once the text outgrows the window the cache is
// refilled with its last context/2 tokens, so every new token reads between context/2 and
// context tokens before it. The time grows with the text's length, not its square.
Tokens sample_gpt(const Gpt& model, const Tokens& prompt, const SamplingSettings& s, Random& rng);

// Many sequences written side by side, as an inference server batches its requests (chapter 9):
// every sequence not yet ended reads its next token in one step of all of them (gpt_steps), each
// drawing from its own row of logits with its own generator (rngs[i] for prompts[i], advanced).
// Sequence i is, token for token, what sample_gpt(model, prompts[i], s, rngs[i]) writes alone.
std::vector<Tokens> sample_gpt_batch(const Gpt& model, const std::vector<Tokens>& prompts,
                                     const SamplingSettings& s, std::vector<Random>& rngs);
