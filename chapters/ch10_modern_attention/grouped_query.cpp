// ch10_modern_attention/grouped_query.cpp — grouped-query and multi-query attention: fewer key and
// value heads, what they give the same, what they save in the KV cache and in time.
#include "ch10_modern_attention/grouped_query.h"

#include <string>

#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer_init.h"
#include "report/measure.h"
#include "report/progress.h"
#include "report/recorded_gradients.h"
#include "text/translate.h"

namespace {

// The layer with kv key/value heads: each group's key (and value) heads averaged into one, as the
// GQA paper turns a multi-head checkpoint into a grouped one.
MultiHeadWeights with_kv_heads(const MultiHeadWeights& w, std::size_t kv) {
    const std::size_t h = w.n_heads, d_k = w.d_k(), group = h / kv;
    MultiHeadWeights out = w;
    out.n_kv_heads = kv;
    const auto pool = [&](const Matrix& W) {  // (rows x h·d_k) -> (rows x kv·d_k)
        Matrix p(W.rows, kv * d_k);
        for (std::size_t r = 0; r < W.rows; ++r)
            for (std::size_t j = 0; j < kv; ++j)
                for (std::size_t c = 0; c < d_k; ++c) {
                    double sum = 0.0;
                    for (std::size_t g = 0; g < group; ++g) sum += W(r, (j * group + g) * d_k + c);
                    p(r, j * d_k + c) = sum / static_cast<double>(group);
                }
        return p;
    };
    out.W_K = pool(w.W_K), out.W_V = pool(w.W_V), out.b_K = pool(w.b_K), out.b_V = pool(w.b_V);
    return out;
}

// Seconds per generated token with a KV cache, for a model of the given shape.
double seconds_per_token(const TransformerConfig& c, std::size_t tokens) {
    const Transformer m = random_transformer(c, 5);
    const Tokens source = {3, 4, 5, 6, 7, 8, 9, 10, 2};
    return median_seconds(
               [&] {
                   KVCache cache = start_decoding(m, source);
                   for (std::size_t t = 0; t < tokens; ++t)
                       decode_step(m, cache, t == 0 ? c.bos_id : 3 + static_cast<int>(t % 10));
               },
               3, 0.3) /
           static_cast<double>(tokens);
}

// The layer with every key/value head count of the data file, against all heads.
void show_grouped_outputs(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& full = in.gqa;
    ch.say(
        tr("One layer, d_model {} and {} query heads; its key and value heads averaged in "
           "groups into {} (the GQA paper's way of converting a trained model). Query head i "
           "reads key/value head i / (h / n_kv):",
           full.d_model(), full.n_heads, seq(in.gqa_kv)));
    const Attending all = within_one(in.gqa_x.rows, in.gqa_x.rows);
    Table t({tr("key/value heads"), tr("kind"), tr("K and V per token"),
             tr("largest change from all heads")});
    Matrix reference;
    for (const std::size_t kv : in.gqa_kv) {
        const Matrix out = multi_head_attention(in.gqa_x, in.gqa_x, with_kv_heads(full, kv), all);
        ch.record("gqa_output_kv" + std::to_string(kv), out, Shape::Matrix, tolerance::end_to_end);
        if (reference.empty()) reference = out;
        const std::string kind = kv == full.n_heads ? tr("multi-head")
                                 : kv == 1          ? tr("multi-query")
                                                    : tr("grouped-query");
        t.add({std::to_string(kv), kind, std::to_string(2 * kv * full.d_k()),
               fixed(max_abs_diff(out, reference), 4)});
    }
    ch.table(t);
}

// With n_kv = h, grouped-query attention is chapter 4's multi-head attention, bit for bit.
void show_equal_to_multi_head(Chapter& ch, const Inputs& in) {
    const MultiHeadWeights& full = in.gqa;
    const Attending all = within_one(in.gqa_x.rows, in.gqa_x.rows);
    const Matrix fused = multi_head_attention(in.gqa_x, in.gqa_x, full, all);
    const Matrix per_head = multi_head_attention_per_head(in.gqa_x, in.gqa_x, full);
    const double same = max_abs_diff(fused, per_head);
    ch.record("gqa_mha_output", fused, Shape::Matrix, tolerance::end_to_end);
    ch.record_number("gqa_equals_mha_max_abs_diff", same, 0.0);
    ch.say(same == 0.0
               ? tr("With n_kv = h it is chapter 4's multi-head attention: max |difference| = 0, "
                    "bit for bit against the per-head form, and PyTorch's nn.MultiheadAttention "
                    "to 1e-9 (--check).")
               : tr("With n_kv = h it should be chapter 4's multi-head attention, bit for bit; "
                    "here the two differ by {}.",
                    sci(same)));
}

// What the cache costs per token, for published shapes.
void show_kv_cache_sizes(Chapter& ch, const Inputs& in) {
    Table bytes({tr("model"), tr("layers"), tr("heads"), tr("key/value heads"), "d_k",
                 tr("per token, float64"), tr("per token, float16")});
    Matrix kb(in.kv_shapes.size(), in.bytes_per_number.size());
    for (std::size_t i = 0; i < in.kv_shapes.size(); ++i) {
        const TransformerConfig& c = in.kv_shapes[i].config;
        const double b64 = kv_cache_bytes(c, 1, 0);  // one token, float64
        for (std::size_t j = 0; j < in.bytes_per_number.size(); ++j)
            kb(i, j) = b64 * in.bytes_per_number[j] / 8.0;
        bytes.add({in.kv_shapes[i].name, std::to_string(c.n_decoder_layers),
                   std::to_string(c.n_heads), std::to_string(c.kv_heads()),
                   std::to_string(c.d_model / c.n_heads), grouped(static_cast<long long>(b64)),
                   grouped(static_cast<long long>(b64 / 4))});
    }
    ch.record("kv_bytes_per_token", kb);
    ch.say(
        tr("Every layer keeps one key and one value row of n_kv·d_k numbers per token (the "
           "encoder-decoder's decoder layers; the LLaMA models are decoder-only):"));
    ch.table(bytes);
    for (const KvShape& shape : in.kv_shapes) {  // the first that groups its heads
        const TransformerConfig& c = shape.config;
        if (c.kv_heads() == c.n_heads) continue;
        const double fp16 = kv_cache_bytes(c, 1, 0) / 4;
        const std::size_t ratio = c.n_heads / c.kv_heads();
        ch.say(
            tr("{} keeps {} bytes per token in float16 with its {} key/value heads; with one "
               "per query head it would keep {}, {}× as much — the saving that lets a model of "
               "that size serve long contexts.",
               shape.name, grouped(static_cast<long long>(fp16)), c.kv_heads(),
               grouped(static_cast<long long>(fp16 * static_cast<double>(ratio))), ratio));
        break;
    }
}

// The time per token, worded from what it did as the key/value heads went from most to fewest.
void word_kv_timing(Chapter& ch, const Inputs& in, double first, double last) {
    if (last > first * 1.05) {
        ch.say(tr("From {} to {} key/value heads the time per token went from {} ms to {} ms "
                  "here: fewer key/value heads did not make this small model faster. Its keys "
                  "and values are a small part of a step's work, and a difference this size is "
                  "within what a timing on a shared machine varies by; what shrinks for certain "
                  "is the cache.",
                  in.timing_kv.front(), in.timing_kv.back(), fixed(1000 * first, 3),
                  fixed(1000 * last, 3)));
        return;
    }
    ch.say(last < first * 0.95
               ? tr("From {} to {} key/value heads the time per token falls by {}%: fewer keys "
                    "and values to project and to read. The projections of the queries, the "
                    "feed-forward layers and the output stay, so the time does not fall as fast "
                    "as the cache shrinks.",
                    in.timing_kv.front(), in.timing_kv.back(), fixed(100 * (1 - last / first), 0))
               : tr("From {} to {} key/value heads the time per token hardly changes here ({} ms "
                    "against {} ms): at this size the queries, the feed-forward layers and the "
                    "output weigh more than the keys and values; what shrinks is the cache.",
                    in.timing_kv.front(), in.timing_kv.back(), fixed(1000 * first, 3),
                    fixed(1000 * last, 3)));
}

// Decoding timed at each key/value head count of inputs.timing.
void time_kv_heads(Chapter& ch, const Inputs& in) {
    Table times(
        {tr("key/value heads"), tr("ms per token"), tr("cache after {} tokens", in.timing_tokens)});
    std::vector<double> per;
    ProgressBar progress;
    for (const std::size_t kv : in.timing_kv) {
        progress.status(tr("timing {} key/value heads", kv));
        TransformerConfig c = in.timing;
        c.n_kv_heads = kv;
        const double s = seconds_per_token(c, in.timing_tokens);
        per.push_back(s);
        ch.measured("decode_seconds_per_token_kv" + std::to_string(kv), s);
        times.add({std::to_string(kv), fixed(1000 * s, 3),
                   grouped(static_cast<long long>(kv_cache_bytes(c, in.timing_tokens, 9))) + " B"});
    }
    progress.done();
    ch.say(
        tr("Decoding {} tokens with the cache on a model of d_model {}, {} heads, {}+{} layers "
           "(median of runs, on {}):",
           in.timing_tokens, in.timing.d_model, in.timing.n_heads, in.timing.n_encoder_layers,
           in.timing.n_decoder_layers, threads_used()));
    ch.table(times);
    word_kv_timing(ch, in, per.front(), per.back());
}

}  // namespace

void gqa_step(Chapter& ch, const Inputs& in) {
    ch.step(tr("Grouped-query and multi-query attention: fewer key/value heads"));
    show_grouped_outputs(ch, in);
    show_equal_to_multi_head(ch, in);
    show_kv_cache_sizes(ch, in);
    if (!ch.options.check) time_kv_heads(ch, in);
}
