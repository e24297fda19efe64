// sampling.cpp — temperature, top-k, and drawing tokens.
#include "model/decoding/sampling.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer.h"

Matrix sampling_distribution(const Matrix& logits, const TransformerConfig& c, double temperature,
                             std::size_t top_k) {
    const double hidden = -std::numeric_limits<double>::infinity();
    Matrix z = scale(logits, 1.0 / temperature);
    for (std::size_t v = 0; v < z.cols; ++v)
        if (!may_generate(static_cast<int>(v), c)) z(0, v) = hidden;
    if (top_k > 0 && top_k < z.cols) {  // keep the k largest: rank the ids, hide the rest
        std::vector<std::size_t> ids(z.cols);
        std::iota(ids.begin(), ids.end(), std::size_t(0));
        std::stable_sort(ids.begin(), ids.end(),
                         [&](std::size_t a, std::size_t b) { return z(0, a) > z(0, b); });
        for (std::size_t r = top_k; r < ids.size(); ++r) z(0, ids[r]) = hidden;
    }
    return softmax_rows(z);
}

Matrix nucleus(const Matrix& probs, double top_p) {
    if (top_p >= 1.0) return probs;
    std::vector<std::size_t> ids(probs.cols);
    std::iota(ids.begin(), ids.end(), std::size_t(0));
    std::stable_sort(ids.begin(), ids.end(),
                     [&](std::size_t a, std::size_t b) { return probs(0, a) > probs(0, b); });
    Matrix kept(1, probs.cols);
    double sum = 0.0;
    for (std::size_t r = 0; r < ids.size() && sum < top_p; ++r) {  // the most probable first
        kept(0, ids[r]) = probs(0, ids[r]);
        sum += probs(0, ids[r]);
    }
    return scale(kept, 1.0 / sum);
}

int draw_token(const Matrix& probs, Random& rng) {
    const double u = rng.uniform();
    double sum = 0.0;
    int last = 0;  // the last id with a non-zero probability: where a rounding shortfall lands
    for (std::size_t v = 0; v < probs.cols; ++v) {
        if (probs(0, v) == 0.0) continue;
        sum += probs(0, v);
        last = static_cast<int>(v);
        if (sum > u) return last;
    }
    return last;
}

Tokens sample_decode(const Transformer& m, const Tokens& source, double temperature,
                     std::size_t top_k, std::size_t max_length, Random& rng) {
    KVCache cache = start_decoding(m, source);
    Tokens out = {m.config.bos_id};
    while (out.size() <= max_length && out.back() != m.config.eos_id) {
        const Matrix logits = decode_step(m, cache, out.back());
        out.push_back(draw_token(sampling_distribution(logits, m.config, temperature, top_k), rng));
    }
    return out;
}
