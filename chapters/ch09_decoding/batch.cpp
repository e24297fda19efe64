// ch09_decoding/batch.cpp — greedy decoding of many sequences in one batch (kv_cache.h's
// decode_steps): the same tokens as alone, and what it saves.
#include "ch09_decoding/batch.h"

#include <string>
#include <utility>
#include <vector>

#include "model/decoding/decoding.h"
#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"
#include "report/chapter.h"
#include "report/measure.h"
#include "report/token_text.h"
#include "text/translate.h"

namespace ch09_decoding {

namespace {

// Seconds for B sequences of `steps` tokens each (a source of the data file's, the same tokens
// fed to each): one sequence after another, and all B in one decode_steps per step.
std::pair<double, double> step_seconds(const Transformer& m, const Inputs& in, std::size_t B,
                                       std::size_t steps) {
    std::vector<int> fed = {m.config.bos_id};  // tokens the model may generate, in turn
    for (int id = 0; fed.size() < steps; id = (id + 1) % static_cast<int>(m.config.tgt_vocab))
        if (may_generate(id, m.config)) fed.push_back(id);
    std::vector<KVCache> started;
    for (std::size_t b = 0; b < B; ++b)
        started.push_back(start_decoding(m, in.sources[b % in.sources.size()]));
    const auto one_after_another = [&] {
        std::vector<KVCache> caches = started;
        for (KVCache& c : caches)
            for (const int token : fed) decode_step(m, c, token);
    };
    one_after_another();  // once untimed: the weights read into the caches before either is timed
    const double alone = median_seconds(one_after_another, 3, 0.05);
    const double together = median_seconds(
        [&] {
            std::vector<KVCache> caches = started;
            std::vector<KVCache*> batch;
            for (KVCache& c : caches) batch.push_back(&c);
            for (const int token : fed) decode_steps(m, batch, Tokens(B, token));
        },
        3, 0.05);
    return {alone, together};
}

// The model's steps timed for each batch size: a table, and the largest batch's speed-up.
double batch_table(Chapter& ch, const Transformer& m, const Inputs& in, const std::string& key) {
    const std::size_t steps = in.max_length;
    Table t({tr("sequences"), tr("alone (ms)"), tr("batched (ms)"),
             tr("alone (µs a token)"), tr("batched (µs a token)"),
             tr("speed-up")});
    double speed_up = 0;
    for (const std::size_t B : in.batch_sizes) {
        const auto [alone, together] = step_seconds(m, in, B, steps);
        const double per = 1e6 / static_cast<double>(B * steps);
        speed_up = alone / together;
        t.add({std::to_string(B), fixed(alone * 1000, 2), fixed(together * 1000, 2),
               fixed(alone * per, 1), fixed(together * per, 1), fixed(speed_up, 1) + "×"});
        ch.measured(key + std::to_string(B), speed_up);
    }
    ch.table(t);
    return speed_up;
}

std::size_t weights_of(const TransformerConfig& c) {  // the decoder's weight matrices, roughly
    return c.n_decoder_layers * (8 * c.d_model * c.d_model + 2 * c.d_model * c.d_ff) +
           c.d_model * c.tgt_vocab;
}

std::string bytes_text(std::size_t bytes) {
    if (bytes < 1024) return tr("{} bytes", bytes);
    if (bytes < (1 << 20)) return tr("{} KB", grouped(bytes / 1024));
    return tr("{} MB", fixed(static_cast<double>(bytes) / (1 << 20), 1));
}

// What a batch saves: on the chapter's small model, and on a wider one of random weights.
void batch_time(Chapter& ch, const Inputs& in) {
    const TransformerConfig& c = in.model.config;
    const std::size_t largest = in.batch_sizes.back();
    ch.say(tr("Timed (on {}, median of runs): B sequences of {} each, one sequence after "
              "another, then all B in one step at a time. This chapter's model first (d_model {}, "
              "its decoder's weights some {}):",
              threads_used(), in.max_length == 1 ? tr("1 step") : tr("{} steps", in.max_length),
              c.d_model, bytes_text(weights_of(c) * 8)));
    const double small = batch_table(ch, in.model, in, "batch_speed_up_");
    TransformerConfig wide = c;  // the same vocabularies and layers, four times the width
    wide.d_model = 256, wide.n_heads = 4, wide.n_kv_heads = 0, wide.d_ff = 1024;
    wide.n_encoder_layers = wide.n_decoder_layers = 2;
    ch.say(tr("The same on a wider model of random weights (d_model {}, d_ff {}, {} decoder "
              "layers: some {} of weights, more than the processor's caches hold):",
              wide.d_model, wide.d_ff, wide.n_decoder_layers, bytes_text(weights_of(wide) * 8)));
    const double wider = batch_table(ch, random_transformer(wide, 9), in, "batch_speed_up_wide_");
    if (largest < 2) {
        ch.say(tr("A batch of one sequence is the step itself (inputs.batch_sizes: give larger "
                  "batches to see what they save)."));
        return;
    }
    if (wider > small)
        ch.say(tr("With {} sequences in a batch: {}× on this chapter's model, {}× on the wider "
                  "one. A step of one sequence reads every weight to multiply it once; in a batch "
                  "each weight read serves every row, so the batch pays most where the weights are "
                  "too many for the caches and one row leaves the multipliers waiting on memory — "
                  "a served language model's case.",
                  largest, fixed(small, 1), fixed(wider, 1)));
    else
        ch.say(tr("With {} sequences in a batch: {}× on this chapter's model, {}× on the wider "
                  "one — here the wider model gained no more than the small one (the machine's "
                  "caches hold its weights, or other work shared the cores while it was timed).",
                  largest, fixed(small, 1), fixed(wider, 1)));
    ch.say(tr("Chapter 12 writes its poems so, up to 64 side by side (sample_gpt_batch) and a batch "
              "on each core, each the poem it writes alone (tests/test_gpt.cpp)."));
}

}  // namespace

void batched(Chapter& ch, const Inputs& in) {
    const TransformerConfig& c = in.model.config;
    ch.step(tr("Many sequences at once: one batch through their caches"));
    ch.say(tr(
        "A server decodes its requests together. At each step the newest token of every sequence "
        "is one row of a matrix, so each weight of the projections and of the feed-forward layers "
        "is read once for all of them — one product of B rows, not B products of one row — while "
        "each sequence attends over its own kept keys and values alone; a sequence leaves the "
        "batch when it ends (src/model/decoding/kv_cache.h: decode_steps). {}",
        in.sources.size() == 1 ? tr("The source above, decoded as a batch of one:")
                               : tr("The {} sources above, decoded together:", in.sources.size())));
    const std::vector<Tokens> together = greedy_decode_batch(in.model, in.sources, in.max_length);
    Table t({tr("source"), tr("decoded in the batch"), tr("steps in the batch"),
             tr("the same as alone")});
    std::size_t same = 0;
    for (std::size_t s = 0; s < in.sources.size(); ++s) {
        const bool equal = together[s] == greedy_decode(in.model, in.sources[s], in.max_length).output;
        same += equal;
        t.add({joined_text(source_names_of(c), in.sources[s], c),
               joined_text(names_of(c), together[s], c), std::to_string(together[s].size() - 1),
               equal ? tr("yes") : tr("no")});
    }
    ch.table(t);
    ch.record("batch_greedy_tokens", padded(together, in.max_length + 1, c.pad_id), Shape::Matrix,
              0.0);
    if (same == in.sources.size())
        ch.say(tr("{}: a row of a product is the same sums whatever rows stand beside it, so each "
                  "step's logits are the same bits (tests/test_kv_cache.cpp).",
                  same == 1 ? tr("The output is token for token the one decoded alone")
                            : tr("Each of the {} outputs is token for token the one decoded alone",
                                 same)));
    else
        ch.say(tr("{} of the {} outputs differ from the ones decoded alone: a bug in the batch.",
                  in.sources.size() - same, in.sources.size()));
    if (!ch.options.check) batch_time(ch, in);  // a measurement: --check compares the rest
}

}  // namespace ch09_decoding
