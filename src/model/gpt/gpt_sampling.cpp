// gpt_sampling.cpp — the prompt fed once through the cache, then one token at a time.
#include "model/gpt/gpt_sampling.h"

#include <algorithm>
#include <limits>

#include "model/decoding/sampling.h"
#include "model/gpt/gpt.h"
#include "model/multi_head/attending.h"
#include "model/transformer/tokens.h"

Tokens sample_gpt(const Gpt& model, const Tokens& prompt, const SamplingSettings& s, Random& rng) {
    const std::size_t window = s.context ? s.context : std::numeric_limits<std::size_t>::max();
    Tokens out = prompt;
    GptKV kv = start_gpt(model);
    Matrix logits;
    // the cache emptied and given the last `keep` tokens of out, one row at a time
    const auto read_last = [&](std::size_t keep) {
        for (KeptKV& block : kv.blocks) block = KeptKV();
        kv.fed.clear();
        for (std::size_t i = out.size() - keep; i < out.size(); ++i)
            logits = gpt_step(model, kv, out[i]);
    };
    read_last(std::min(out.size(), window));
    for (std::size_t written = 0; written < s.max_new && out.back() != model.config.eos_id;
         ++written) {
        const double hidden = -std::numeric_limits<double>::infinity();
        if (s.repeat_correction)
            logits(0, static_cast<std::size_t>(out.back())) -= s.repeat_correction(out);
        for (int id : s.never) logits(0, static_cast<std::size_t>(id)) = hidden;
        if (s.mask) {
            std::vector<bool> allowed(logits.cols, true);
            s.mask(out, allowed);
            for (std::size_t id = 0; id < logits.cols; ++id)
                if (!allowed[id]) logits(0, id) = hidden;
        }
        const Matrix p =
            nucleus(sampling_distribution(logits, model.config, s.temperature, s.top_k), s.top_p);
        out.push_back(draw_token(p, rng));
        if (out.back() == model.config.eos_id) break;
        if (kv.fed.size() < window)
            logits = gpt_step(model, kv, out.back());
        else  // the window is full: start again from its second half, the new token included
            read_last(std::max<std::size_t>(1, window / 2));
    }
    return out;
}
