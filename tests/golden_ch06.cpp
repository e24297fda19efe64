// golden_ch06.cpp — our encoder-decoder against torch.nn.Transformer's logits (float64), for
// both norm placements, with source and target padding, on two data files of other sizes.
#include <doctest/doctest.h>

#include "helpers.h"
#include "io/model_file.h"
#include "model/decoding/decoding.h"
#include "model/transformer/transformer.h"
#include "model/transformer/transformer_init.h"

TEST_CASE("ch06 golden: logits match nn.Transformer to 1e-9, post-norm and pre-norm") {
    for (const char* path :
         {"data/ch06_encoder_decoder.json", "tests/data/ch06_encoder_decoder.other.json"}) {
        CAPTURE(path);
        const DataFile data = DataFile::load(path);
        Transformer m = load_transformer(data, "inputs");
        const std::vector<Tokens> sources = data.token_lists("inputs.source", m.config.src_vocab);
        const std::vector<Tokens> targets = data.token_lists("inputs.target", m.config.tgt_vocab);
        for (bool norm_first : {false, true}) {
            m.config.norm_first = norm_first;
            const std::string placement = norm_first ? "pre_norm" : "post_norm";
            for (std::size_t b = 0; b < sources.size(); ++b) {
                const Tokens& source = sources[b];
                const Tokens& target = targets[b];
                const Tokens input = shifted_right(target, m.config.bos_id);
                check_close(logits_teacher_forced(m, source, input), data,
                            "logits_" + placement + "_" + std::to_string(b), tolerance::end_to_end);
                const GreedySteps g =
                    greedy_decode(m, source, data.size("inputs.max_length", 1, 1000));
                CHECK(g.output ==
                      data.tokens("expected.greedy_" + placement + "_" + std::to_string(b),
                                  m.config.tgt_vocab));
            }
        }
        CHECK(parameter_count(m) == data.size("expected.small_parameter_count", 0, 1 << 30));
        CHECK(core_parameter_count(m) ==
              data.size("expected.small_core_parameter_count", 0, 1 << 30));
    }
}
