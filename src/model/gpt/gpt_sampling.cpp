// gpt_sampling.cpp — the prompt fed once through the cache, then one token at a time.
#include "model/gpt/gpt_sampling.h"

#include <limits>

#include "model/decoding/sampling.h"

Tokens sample_gpt(const Gpt& model, const Tokens& prompt, const SamplingSettings& s, Random& rng) {
    GptKV kv = start_gpt(model);
    Matrix logits;
    for (int id : prompt) logits = gpt_step(model, kv, id);  // the prompt, one row at a time
    Tokens out = prompt;
    while (out.size() < s.max_length && out.back() != model.config.eos_id) {
        for (int id : s.never)
            logits(0, static_cast<std::size_t>(id)) = -std::numeric_limits<double>::infinity();
        const Matrix p =
            nucleus(sampling_distribution(logits, model.config, s.temperature, s.top_k), s.top_p);
        out.push_back(draw_token(p, rng));
        if (out.back() != model.config.eos_id) logits = gpt_step(model, kv, out.back());
    }
    return out;
}
