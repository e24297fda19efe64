// golden_ch06.cpp — our encoder-decoder against torch.nn.Transformer's logits (float64), for
// both norm placements, with source and target padding, on two data files of other sizes.
#include <doctest/doctest.h>

#include "helpers.h"
#include "io/model_file.h"
#include "model/decoding.h"
#include "model/transformer.h"

static Tokens row_tokens(const Json& v) {
    Tokens t;
    for (const Json& x : v) t.push_back(x.get<int>());
    return t;
}

TEST_CASE("ch06 golden: logits match nn.Transformer to 1e-9, post-norm and pre-norm") {
    for (const char* path :
         {"data/ch06_encoder_decoder.json", "tests/data/ch06_encoder_decoder.other.json"}) {
        CAPTURE(path);
        const DataFile data = DataFile::load(path);
        Transformer m = load_transformer(data, "inputs");
        for (bool norm_first : {false, true}) {
            m.config.norm_first = norm_first;
            const std::string placement = norm_first ? "pre_norm" : "post_norm";
            for (std::size_t b = 0; b < data.at("inputs.source").size(); ++b) {
                const Tokens source = row_tokens(data.at("inputs.source")[b]);
                const Tokens target = row_tokens(data.at("inputs.target")[b]);
                const Tokens input = shifted_right(target, m.config.bos_id);
                check_close(logits_teacher_forced(m, source, input), data,
                            "logits_" + placement + "_" + std::to_string(b), tolerance::end_to_end);
                const GreedySteps g = greedy_decode(
                    m, source, static_cast<std::size_t>(data.integer("inputs.max_length")));
                CHECK(g.output == row_tokens(data.at("expected.greedy_" + placement + "_" +
                                                     std::to_string(b))));
            }
        }
        CHECK(parameter_count(m) ==
              static_cast<std::size_t>(data.integer("expected.small_parameter_count")));
        CHECK(core_parameter_count(m) ==
              static_cast<std::size_t>(data.integer("expected.small_core_parameter_count")));
    }
}
