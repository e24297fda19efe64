// test_doubling.cpp — the poets' 叠字 told from stutters (verse/doubling.h), and the repeat
// correction fitted by likelihood (verse/repeat_correction.h).
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "io/poem_corpus.h"
#include "model/gpt/gpt_sampling.h"
#include "verse/doubling.h"
#include "train/gpt_training.h"
#include "verse/repeat_correction.h"

TEST_CASE("doublings: 叠字 when the training poems hold the pair and it keeps off the pause") {
    const std::set<std::string> attested =
        doubled_pairs({"《春晓》\n春眠不觉晓，处处闻啼鸟。", "《悯农》\n谁知盘中餐，粒粒皆辛苦。"});
    CHECK(attested == std::set<std::string>{"处处", "粒粒"});
    // 处处 at the start: 叠字; 春春: no training poem holds it, a stutter
    DoublingCounts c = count_doublings("《叠》\n春春眠不觉，处处闻啼鸟。", attested);
    CHECK(c.places == 8);
    CHECK(c.doublings == 2);
    CHECK(c.attested == 1);
    CHECK(c.stutters == 1);
    // 处处 across the pause of five (2|3): a stutter though attested
    c = count_doublings("《顿》\n春处处眠晓，夜来风雨声。", attested);
    CHECK(c.attested == 0);
    CHECK(c.stutters == 1);
    // of seven: across 4|3 a stutter, at 5–6 叠字
    CHECK(count_doublings("《停》\n风雨声处处中闻，春眠不觉晓来多。", attested).stutters == 1);
    CHECK(count_doublings("《行》\n风雨声中处处闻，春眠不觉晓来多。", attested).attested == 1);
    CHECK(across_caesura(2, 5));
    CHECK_FALSE(across_caesura(3, 5));
    CHECK(across_caesura(4, 7));
    CHECK_FALSE(across_caesura(5, 7));
}

TEST_CASE("while writing: the kind of the place where the last token would come again") {
    std::vector<std::string> texts;
    for (const Poem& p : read_poems("tests/data/tang_sample.txt"))
        texts.push_back(poem_text(p.title, p.lines));
    const CharVocabulary v = vocabulary_of(texts);
    const DoublingPlaces places(v, {"处处"});
    const auto kind = [&](const std::string& text) { return places.kind(encode(v, text, false)); };
    CHECK(kind("《春晓》\n处") == 0);          // 处处 at a verse's start
    CHECK(kind("《春晓》\n春") == 1);          // 春春: not attested
    CHECK(kind("《春晓》\n春处") == 1);        // 处处 across the pause of five
    CHECK(kind("《春晓》\n春眠处") == 0);      // at the 3rd–4th: a word of the last three
    CHECK(kind("《春") == 1);                  // the title
    CHECK(kind("《春晓》\n春眠不觉晓，") == 1); // after a mark
    // the poem's first verse of seven sets the length: across 4|3 a stutter
    CHECK(kind("《春晓》\n春眠不觉晓来处，春眠不处") == 1);
    CHECK(kind("《春晓》\n春眠不觉晓，春眠不处") == 0);
}

TEST_CASE("the repeat correction: its loss at 0 is the model's, and the fit is the least") {
    TransformerConfig c;
    c.d_model = 8, c.n_heads = 2, c.n_kv_heads = 1, c.d_ff = 12;
    c.n_encoder_layers = 0, c.n_decoder_layers = 2;
    c.tgt_vocab = c.src_vocab = 9;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    c.max_positions = 40, c.share_embeddings = true;
    const Gpt model = random_gpt(c, 3);
    // sequences that repeat a token often, so the fit has something to find
    const std::vector<Tokens> sequences = {{1, 5, 5, 6, 7, 7, 7, 8, 2}, {1, 6, 6, 5, 8, 8, 2},
                                           {1, 7, 5, 6, 8, 5, 5, 2}};
    const auto kind_of = [](const Tokens& s, std::size_t j) { return s[j - 1] == 5 ? 0 : 1; };
    const std::vector<RepeatTarget> targets = repeat_targets(model, sequences, 4, kind_of);
    std::size_t predicted = 0;
    for (const Tokens& s : sequences) predicted += s.size() - 1;
    CHECK(targets.size() == predicted);
    CHECK(corrected_loss(targets, {0, 0}) ==
          doctest::Approx(gpt_sliding_loss(model, sequences, 4)).epsilon(1e-12));
    const RepeatKinds beta = fit_repeat_correction(targets);
    const double best = corrected_loss(targets, beta);
    CAPTURE(beta[0]);
    CAPTURE(beta[1]);
    // the least, to the fit's 1e-6 in β (at the bound 0 the slope is not 0: a step of 1e-6 moves
    // the loss by up to the slope's size times it)
    for (const double step : {-0.01, 0.01})
        for (std::size_t k = 0; k < 2; ++k) {
            RepeatKinds moved = beta;
            moved[k] = std::max(0.0, moved[k] + step);
            CHECK(best <= corrected_loss(targets, moved) + 1e-7);
        }
    CHECK(best < corrected_loss(targets, {0, 0}));
    // β raises the repeats' loss and lowers the rest's: only a β > 0 pays, and the fit is one
    CHECK(beta[1] > 0);
}
