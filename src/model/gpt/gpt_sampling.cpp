// gpt_sampling.cpp — prompts fed through the cache, then each sequence one token at a time; many
// sequences side by side, one batch of new tokens per step.
#include "model/gpt/gpt_sampling.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <limits>

#include "model/decoding/sampling.h"
#include "model/gpt/gpt.h"
#include "model/multi_head/attending.h"
#include "model/transformer/tokens.h"

namespace {

// One sequence being written: its tokens so far, its cache, how many of the tokens the cache has
// read (the rest are read next), and whether it has ended.
struct Writing {
    Tokens out;
    GptKV kv;
    std::size_t fed = 0;
    std::size_t written = 0;
    bool done = false;
};

// The cache emptied and given the last `keep` tokens of the text to read again (the window).
void read_last(Writing& w, std::size_t keep) {
    for (KeptKV& block : w.kv.blocks) block = KeptKV();
    w.kv.fed.clear();
    w.fed = w.out.size() - keep;
}

// The next token drawn from one row of logits: the repeat correction, the tokens never drawn,
// the mask, then temperature, top-k and top-p.
int draw_next(const Gpt& model, const Tokens& out, Matrix logits, const SamplingSettings& s,
              Random& rng) {
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
    return draw_token(p, rng);
}

}  // namespace

Tokens sample_gpt(const Gpt& model, const Tokens& prompt, const SamplingSettings& s, Random& rng) {
    std::vector<Random> rngs = {rng};
    const Tokens out = sample_gpt_batch(model, {prompt}, s, rngs).front();
    rng = rngs.front();
    return out;
}

std::vector<Tokens> sample_gpt_batch(const Gpt& model, const std::vector<Tokens>& prompts,
                                     const SamplingSettings& s, std::vector<Random>& rngs) {
    const std::size_t window = s.context ? s.context : std::numeric_limits<std::size_t>::max();
    if (rngs.size() != prompts.size())
        throw std::invalid_argument("sample_gpt_batch: " + std::to_string(rngs.size()) +
                                    " generators for " + std::to_string(prompts.size()) + " prompts");
    for (const Tokens& p : prompts)
        if (p.empty()) throw std::invalid_argument("sample_gpt: an empty prompt (it needs <bos>)");
    std::vector<Writing> all(prompts.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i].out = prompts[i];
        all[i].kv = i == 0 ? start_gpt(model) : start_another(all[0].kv);
        all[i].fed = all[i].out.size() - std::min(all[i].out.size(), window);  // its last window
    }
    for (;;) {
        // every sequence not ended reads its next unread token, all of them in one step
        std::vector<GptKV*> kvs;
        std::vector<std::size_t> rows;
        Tokens next;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (!all[i].done)
                kvs.push_back(&all[i].kv), next.push_back(all[i].out[all[i].fed]),
                    rows.push_back(i);
        if (kvs.empty()) break;
        const Matrix logits = gpt_steps(model, kvs, next);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            Writing& w = all[rows[r]];
            if (++w.fed < w.out.size()) continue;  // still reading the prompt (or the window again)
            if (w.written == s.max_new || w.out.back() == model.config.eos_id) {
                w.done = true;
                continue;
            }
            w.out.push_back(draw_next(model, w.out, row_block(logits, r, 1), s, rngs[rows[r]]));
            ++w.written;
            if (w.out.back() == model.config.eos_id || w.written == s.max_new) {
                w.done = true;
            } else if (w.kv.fed.size() >= window) {
                // the window is full: start again from its second half, the new token included
                read_last(w, std::max<std::size_t>(1, window / 2));
            }
        }
    }
    std::vector<Tokens> out;
    for (Writing& w : all) out.push_back(std::move(w.out));
    return out;
}
