// test_gpt.cpp — chapter 12: the poems' reader, the vocabulary, the baselines, the decoder-only
// model's cache and files, on tests/data/tang_sample.txt (ten poems in fortunes-zh's format),
// so that the suite never needs the package.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/matmul.h"
#include "io/data_file.h"
#include "io/gpt_file.h"
#include "io/poem_corpus.h"
#include "model/decoding/sampling.h"
#include "model/gpt/gpt.h"
#include "model/gpt/gpt_sampling.h"
#include "model/transformer/norms.h"
#include "model/transformer/parameters.h"
#include "train/gpt_training.h"
#include "ngram/kneser_ney.h"
#include "ngram/ngram.h"
#include "verse/poems.h"
#include "helpers.h"

namespace {

const char* const sample = "tests/data/tang_sample.txt";

TransformerConfig small(std::size_t vocab, PositionScheme positions) {
    TransformerConfig c;
    c.d_model = 8, c.n_heads = 2, c.n_kv_heads = 1, c.d_ff = 12;
    c.n_encoder_layers = 0, c.n_decoder_layers = 2;
    c.tgt_vocab = c.src_vocab = vocab;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = positions, c.max_positions = 40;
    c.share_embeddings = true;
    return c;
}

}  // namespace

TEST_CASE("the poems of a fortune file: colour codes stripped, titles, authors, lines") {
    const std::vector<Poem> poems = read_poems(sample);
    REQUIRE(poems.size() == 10);
    CHECK(poems[0].title == "春晓");
    CHECK(poems[0].author == "孟浩然");
    CHECK(poems[0].lines ==
          std::vector<std::string>{"春眠不觉晓，处处闻啼鸟。", "夜来风雨声，花落知多少？"});
    CHECK(poems[9].title == "竹里馆");
    CHECK(without_colour("\x1b[32m《静夜思》\x1b[m") == "《静夜思》");
    const std::string missing = temp_file("none.txt", "") + ".not-there";
    CHECK_THROWS_WITH_AS(read_poems(missing), doctest::Contains("fortunes-zh"), std::runtime_error);
    CHECK_THROWS_WITH_AS(read_poems(temp_file("empty.txt", "%\n\n%\n")),
                         doctest::Contains("no poems"), std::runtime_error);
}

TEST_CASE("characters, the vocabulary and a poem's tokens") {
    CHECK(characters("春a晓") == std::vector<std::string>{"春", "a", "晓"});
    const CharVocabulary v = vocabulary_of({"春眠春", "眠晓"}, 2);  // 晓 once: <unk>
    CHECK(v.size() == 5 + 2);
    CHECK(v.id("晓") == CharVocabulary::unknown);
    const Tokens t = encode(v, poem_text("春", {"眠"}));
    CHECK(t == Tokens{1, v.id("《"), v.id("春"), v.id("》"), 4, v.id("眠"), 2});
    CHECK(t[1] == CharVocabulary::unknown);  // 《 is not in this vocabulary
    CHECK(decode(vocabulary_of({"春眠"}), encode(vocabulary_of({"春眠"}), "春\n眠")) == "春\n眠");
    std::size_t held = 0;
    for (std::size_t i = 0; i < 100; ++i) held += held_out(i, 10);
    CHECK(held == 10);
    CHECK(held_out(9, 10));
    CHECK(!held_out(0, 10));
}

TEST_CASE("the regulated forms: five or seven characters, a comma, as many, an end mark") {
    CHECK(regulated_form("床前明月光，疑是地上霜。"));
    CHECK(regulated_form("花落知多少，夜来风雨声？"));
    CHECK(regulated_form("独在异乡为异客，每逢佳节倍思亲。"));
    CHECK(!regulated_form("床前明月光，疑是地上霜"));        // no end mark
    CHECK(!regulated_form("床前明月，疑是地上霜。"));        // four and five
    CHECK(!regulated_form("床前明月光，疑是地上霜霜霜。"));  // five and seven
    CHECK(!regulated_form("床前明月光。疑是地上霜，"));      // marks swapped
    CHECK(!regulated_form("床前明，月光疑是地上霜。"));
    CHECK(!regulated_form("床前明月《，疑是地上霜。"));  // a bracket is not a character
}

TEST_CASE("the baselines: add-one probabilities sum to 1, the losses are theirs") {
    const std::vector<Tokens> training = {{1, 5, 6, 5, 2}, {1, 6, 6, 2}};
    const NgramCounts n(training, 7);
    double uni = 0, bi = 0;
    for (int b = 0; b < 7; ++b) uni += n.unigram(b), bi += n.bigram(6, b);
    CHECK(uni == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(bi == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(n.bigram(6, 6) == doctest::Approx(2.0 / (3 + 7)));  // 6 is followed by 5, 6, 2
    CHECK(n.unigram(5) == doctest::Approx(3.0 / (7 + 7)));    // 7 tokens after <bos>
    CHECK(n.bigram_loss({{1, 5}}) == doctest::Approx(-std::log(n.bigram(1, 5))));
    Random rng(1);
    const Tokens s = n.sample({1}, 2, 4, 20, rng);
    for (std::size_t t = 1; t < s.size(); ++t) CHECK((s[t] == 2 || s[t] >= 4));
}

TEST_CASE("top-p keeps the most probable tokens up to p, renormalised") {
    const Matrix p{{0.1, 0.5, 0.15, 0.25}};
    const Matrix kept = nucleus(p, 0.7);  // 0.5 + 0.25 reaches 0.7
    CHECK(kept(0, 0) == 0.0);
    CHECK(kept(0, 2) == 0.0);
    CHECK(kept(0, 1) == doctest::Approx(0.5 / 0.75));
    CHECK(kept(0, 3) == doctest::Approx(0.25 / 0.75));
    CHECK(max_abs_diff(nucleus(p, 1.0), p) == 0.0);
}

TEST_CASE("decoder-only model: the KV cache equals the whole pass, every switch") {
    for (const PositionScheme positions : {PositionScheme::Sinusoidal, PositionScheme::Learned,
                                           PositionScheme::Rope, PositionScheme::Alibi}) {
        CAPTURE(positions_name(positions));
        const Gpt m = random_gpt(small(11, positions), 5);
        const Tokens s = {1, 5, 6, 7, 4, 8, 9, 10, 3};
        CHECK(gpt_cache_against_full_pass(m, {s}) == 0.0);
    }
}

TEST_CASE("decoder-only model: the held-out losses, computed in parts, are gpt_loss's bits") {
    // 20 windows of different lengths: the held-out pass cuts them into parts
    // of 8 on the threads, and must give the mean of gpt_loss over all of them at once
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 4);
    Random rng(12);
    std::vector<Tokens> sequences;
    for (std::size_t i = 0; i < 20; ++i) {
        Tokens s(3 + rng.next() % 9);
        for (int& t : s) t = 3 + static_cast<int>(rng.next() % 8);
        sequences.push_back(s);
    }
    const std::size_t context = 16;  // longer than every sequence: one window each
    std::vector<Tokens> inputs, targets;
    std::size_t n = 0;
    for (const Tokens& s : sequences) {
        inputs.emplace_back(s.begin(), s.end() - 1);
        targets.emplace_back(s.begin() + 1, s.end());
        n += s.size() - 1;
    }
    const double whole = gpt_loss(m, inputs, targets) * static_cast<double>(n);
    CHECK(gpt_heldout_loss(m, sequences, context) == whole / static_cast<double>(n));
    // the sliding windows: the same windows, then nothing more (no sequence is longer)
    CHECK(gpt_sliding_loss(m, sequences, context) == whole / static_cast<double>(n));
}

TEST_CASE("decoder-only model: training lowers the loss, sampling stays in the vocabulary") {
    const std::vector<Poem> poems = read_poems(sample);
    std::vector<std::string> texts;
    for (const Poem& p : poems) texts.push_back(poem_text(p.title, p.lines));
    const CharVocabulary v = vocabulary_of(texts);
    std::vector<Tokens> sequences;
    for (const std::string& t : texts) sequences.push_back(encode(v, t));
    TrainingSettings s;
    s.max_steps = 30, s.seed = 3;
    s.adam.d_model = 8, s.adam.warmup = 10, s.adam.factor = 2.0, s.adam.weight_decay = 0.1;
    const Gpt initial = random_gpt(small(v.size(), PositionScheme::Rope), 7);
    const double before = gpt_heldout_loss(initial, sequences, 16);
    const GptTrainingRun run = train_gpt(initial, sequences, {4, 16}, s);
    CHECK(run.loop.diverged_at == 0);
    CHECK(gpt_heldout_loss(run.model, sequences, 16) < before - 0.5);
    Random rng(9);
    SamplingSettings ss;
    ss.temperature = 0.8, ss.top_k = 5, ss.top_p = 0.9, ss.max_new = 33;
    ss.never = {CharVocabulary::unknown};
    const Tokens t = sample_gpt(run.model, encode(v, "《春晓》", false), ss, rng);
    CHECK(t.size() <= 40);
    CHECK(t.size() > 6);
    for (std::size_t i = 1; i < t.size(); ++i) {
        CHECK(t[i] != CharVocabulary::pad);
        CHECK(t[i] != CharVocabulary::bos);
        CHECK(t[i] != CharVocabulary::unknown);
    }
}

TEST_CASE("decoder-only model files: saved whole, loaded back the same, errors named") {
    const Gpt m = random_gpt(small(11, PositionScheme::Learned), 8);
    std::vector<std::string> names(11, "x");
    const std::string path = temp_file("gpt.json", "");
    GptRecord record;
    record.steps = 3, record.heldout_loss = 5.5, record.seconds = 1.0;
    save_gpt(m, names, record, path);
    const Gpt back = load_gpt(DataFile::load(path), "");
    Gpt a = m, b = back;
    const std::vector<Matrix*> pa = parameter_matrices(a), pb = parameter_matrices(b);
    REQUIRE(pa.size() == pb.size());
    for (std::size_t i = 0; i < pa.size(); ++i) CHECK(max_abs_diff(*pa[i], *pb[i]) == 0.0);
    std::string text = read_file(path);
    text.replace(text.find("\"norm.weight\""), 13, "\"norm.weigth\"");
    CHECK_THROWS_WITH_AS(load_gpt(DataFile::parse("bad.json", text), ""),
                         doctest::Contains("norm.weigth"), DataError);
}

TEST_CASE("an untied model: its own output table read, trained, saved and loaded back") {
    TransformerConfig c = small(11, PositionScheme::Rope);
    c.share_embeddings = false;
    const Gpt m = random_gpt(c, 8);
    REQUIRE(m.output.rows == 11);
    CHECK(max_abs_diff(m.output, m.embedding) > 0.1);  // a table of its own, not a copy
    // the logits read the output table: y·Wᵀ, not y·Eᵀ
    Gpt swapped = m;
    std::swap(swapped.output, swapped.embedding);
    const std::vector<Tokens> s = {{1, 4, 5, 6}};
    const Matrix x = gpt_blocks(m, s, gpt_embed(m, s), 0, m.blocks.size());
    CHECK(max_abs_diff(gpt_logits(m, s), matmul_bt(normalize(x, m.norm), m.output)) == 0.0);
    CHECK(max_abs_diff(gpt_logits(m, s), gpt_logits(swapped, s)) > 0.0);
    // the gradient reaches it: output.weight is a parameter of its own
    Gpt grad;
    gpt_loss(m, s, {{4, 5, 6, 2}}, &grad);
    const std::vector<Parameter> ps = parameters(grad);
    CHECK(ps.back().name == "output.weight");
    double moved = 0;
    for (double g : grad.output.data) moved += std::abs(g);
    CHECK(moved > 0);
    // saved with tied_output false, loaded back the same
    const std::string path = temp_file("untied.json", "");
    save_gpt(m, std::vector<std::string>(11, "x"), GptRecord{}, path);
    CHECK(read_file(path).find("\"tied_output\":false") != std::string::npos);
    const Gpt back = load_gpt(DataFile::load(path), "");
    CHECK_FALSE(back.config.share_embeddings);
    CHECK(max_abs_diff(back.output, m.output) == 0.0);
    CHECK(max_abs_diff(gpt_logits(back, s), gpt_logits(m, s)) == 0.0);
}

TEST_CASE("Kneser-Ney: every history's probabilities sum to 1, seen and unseen") {
    const std::vector<Tokens> training = {{1, 5, 6, 5, 7, 2}, {1, 6, 6, 5, 2}, {1, 5, 6, 7, 2},
                                          {1, 7, 7, 7, 5, 6, 2}};
    const std::size_t vocab = 9;
    for (std::size_t order = 1; order <= 3; ++order) {
        CAPTURE(order);
        const KneserNey kn(training, vocab, order);
        for (const Tokens& h : std::vector<Tokens>{{1, 1}, {5, 6}, {6, 6}, {8, 8}, {7, 7}}) {
            CAPTURE(h[0]);
            CAPTURE(h[1]);
            double sum = 0;
            for (int w = 0; w < static_cast<int>(vocab); ++w) {
                const double p = kn.probability(h.data() + 2, w);
                CHECK(p > 0);
                sum += p;
            }
            CHECK(sum == doctest::Approx(1.0).epsilon(1e-13));
        }
    }
    // a history never seen (8 8) leaves the lower orders: the trigram's P is the bigram's there
    const KneserNey bigram(training, vocab, 2), trigram(training, vocab, 3);
    const Tokens unseen = {8, 8};
    CHECK(trigram.probability(unseen.data() + 2, 5) > 0);
    // more context helps on text like the training text; and sampling stays in bounds
    CHECK(trigram.loss(training) < bigram.loss(training));
    Random rng(2);
    const Tokens s = trigram.sample({1}, 2, 4, 30, rng);
    CHECK(s.size() <= 30);
    for (std::size_t t = 1; t < s.size(); ++t) CHECK((s[t] == 2 || s[t] >= 4));
}

TEST_CASE("the corpus: regulated poems, repeats dropped, split three ways, vocabulary capped") {
    const std::vector<Poem> poems = read_poems(sample);
    std::size_t regulated = 0;
    for (const Poem& p : poems) regulated += regulated_poem(p);
    CHECK(regulated == poems.size());  // ten quatrains and eight-line poems
    CHECK(regulated_poem({"t", "a", {"床前明月光，疑是地上霜。", "举头望明月，低头思故乡。"}}));
    CHECK(!regulated_poem({"t", "a", {"床前明月光，疑是地上霜。"}}));  // one couplet
    CHECK(!regulated_poem(
        {"t", "a", {"床前明月光，疑是地上霜。", "独在异乡为异客，每逢佳节倍思亲。"}}));  // 5 and 7
    std::vector<Poem> twice = poems;
    twice.push_back({"another title", "someone", poems[3].lines});  // the same poem again
    CHECK(distinct_poems(twice).size() == poems.size());
    std::vector<Poem> many;
    for (int i = 0; i < 300; ++i) many.push_back({std::to_string(i), "", {std::to_string(i)}});
    const PoemSplit split = split_poems(many, 10, 10, 20);
    CHECK(split.heldout.size() == 30);
    CHECK(split.validation.size() == 20);  // spread out: every 13th of the 270 left
    CHECK(split.training.size() == 250);
    CHECK(split.validation.back().title > "250");  // reaching the end of the corpus
    const CharVocabulary v = vocabulary_of({"春春春眠眠晓"}, 1, 2);  // the 2 most frequent
    CHECK(v.size() == 5 + 2);
    CHECK(v.id("晓") == CharVocabulary::unknown);
    CHECK(repeats_a_character("春春春眠"));
    CHECK(!repeats_a_character("春春眠春"));
}

TEST_CASE("decoder-only model: a <pad> anywhere in its input, the cache still equals the pass") {
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 6);
    const Tokens base = {1, 5, 6, 7, 8, 9};
    for (std::size_t pad = 0; pad < base.size(); ++pad) {
        CAPTURE(pad);
        Tokens s = base;
        s[pad] = 0;
        CHECK(gpt_cache_against_full_pass(m, {s}) == 0.0);
    }
}

TEST_CASE("writing past the window: a long prompt reads only its last window, in linear time") {
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 9);
    Tokens prompt = {1};
    for (int i = 0; i < 200; ++i) prompt.push_back(5 + i % 6);
    SamplingSettings s;
    s.max_new = 40, s.context = 8;
    Random a(4), b(4);
    const Tokens long_one = sample_gpt(m, prompt, s, a);
    const Tokens last(prompt.end() - 8, prompt.end());
    const Tokens short_one = sample_gpt(m, last, s, b);
    CHECK(long_one.size() - prompt.size() == short_one.size() - last.size());
    CHECK(Tokens(long_one.begin() + static_cast<long>(prompt.size()), long_one.end()) ==
          Tokens(short_one.begin() + 8, short_one.end()));
    CHECK(long_one.size() <= prompt.size() + 40);
}

TEST_CASE("decoding in a batch: each row of a step is its sequence's row of the whole pass") {
    // five sequences of different lengths side by side; the batch shrinks as the short ones end
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 8);
    const std::vector<Tokens> seqs = {
        {1, 5, 6, 7, 4, 8, 9, 10, 3}, {1, 9}, {1, 4, 4, 4, 4, 7}, {1}, {1, 10, 0, 6, 5}};
    std::vector<GptKV> kvs(seqs.size(), start_gpt(m));
    for (std::size_t t = 0; t < seqs.front().size(); ++t) {
        std::vector<GptKV*> batch;
        Tokens next;
        std::vector<std::size_t> who;
        for (std::size_t b = 0; b < seqs.size(); ++b)
            if (t < seqs[b].size())
                batch.push_back(&kvs[b]), next.push_back(seqs[b][t]), who.push_back(b);
        const Matrix logits = gpt_steps(m, batch, next);
        REQUIRE(logits.rows == who.size());
        for (std::size_t r = 0; r < who.size(); ++r) {
            CAPTURE(t);
            CAPTURE(who[r]);
            const Matrix full = gpt_logits(m, {seqs[who[r]]});
            CHECK(max_abs_diff(row_block(logits, r, 1), row_block(full, t, 1)) == 0.0);
        }
    }
    GptKV one = start_gpt(m);
    const std::vector<GptKV*> lone = {&one};
    CHECK_THROWS_AS(gpt_steps(m, lone, Tokens()), std::invalid_argument);
}

TEST_CASE("poems written in a batch are, token for token, the poems written one at a time") {
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 9);
    // prompts of different lengths (one reads its prompt while others already draw), a window
    // short enough to be refilled, and one prompt that has already ended
    const std::vector<Tokens> prompts = {{1}, {1, 5, 6, 7, 8, 9, 10, 5, 6, 7}, {1, 4}, {1, 5, 2},
                                         {1, 6, 6}};
    SamplingSettings s;
    s.max_new = 30, s.context = 6, s.temperature = 1.2, s.top_k = 6;
    std::vector<Random> rngs;
    for (std::size_t i = 0; i < prompts.size(); ++i) rngs.emplace_back(40 + i);
    const std::vector<Tokens> together = sample_gpt_batch(m, prompts, s, rngs);
    REQUIRE(together.size() == prompts.size());
    bool different = false;
    for (std::size_t i = 0; i < prompts.size(); ++i) {
        CAPTURE(i);
        Random alone_rng(40 + i);
        const Tokens alone = sample_gpt(m, prompts[i], s, alone_rng);
        CHECK(together[i] == alone);
        CHECK(rngs[i].next() == alone_rng.next());  // each generator advanced as far
        different = different || together[i] != together.front();
    }
    CHECK(different);  // the rows are not one poem copied
}

TEST_CASE("a model file claiming more than its weights hold is refused before any allocation") {
    const Gpt m = random_gpt(small(11, PositionScheme::Rope), 8);
    const std::string path = temp_file("claims.json", "");
    save_gpt(m, std::vector<std::string>(11, "x"), GptRecord(), path);
    const std::string text = read_file(path);
    for (const auto& change : std::vector<std::pair<std::string, std::string>>{
             {"\"d_model\":8", "\"d_model\":65536"},
             {"\"d_ff\":12", "\"d_ff\":262144"},
             {"\"n_layers\":2", "\"n_layers\":64"},
             {"\"vocab\":11", "\"vocab\":4194304"}}) {
        const std::string &field = change.first, &huge = change.second;
        CAPTURE(huge);
        std::string edited = text;
        REQUIRE(edited.find(field) != std::string::npos);
        edited.replace(edited.find(field), field.size(), huge);
        // d_model 65,536 with 2 heads breaks no rule; the weights say otherwise
        CHECK_THROWS_AS(load_gpt(DataFile::parse("huge.json", edited), ""), DataError);
    }
    // a config that breaks a rule names its field, in the words every reader uses
    std::string odd = text;  // 4 heads, 3 key/value heads
    odd.replace(odd.find("\"n_heads\":2"), 11, "\"n_heads\":4");
    odd.replace(odd.find("\"n_kv_heads\":1"), 14, "\"n_kv_heads\":3");
    CHECK_THROWS_WITH_AS(load_gpt(DataFile::parse("odd.json", odd), ""),
                         doctest::Contains("config.n_kv_heads: expected a divisor of n_heads = 4"),
                         DataError);
}

TEST_CASE("a config's rules: each broken one named, in one place") {
    TransformerConfig c = small(11, PositionScheme::Rope);
    CHECK(!config_problem(c));
    c.n_kv_heads = 3;  // 2 heads
    CHECK(std::string(config_problem(c).field) == "n_kv_heads");
    c.n_kv_heads = 1, c.d_model = 6;  // d_k = 3: RoPE rotates pairs
    CHECK(config_problem(c).rule == ConfigProblem::Rule::RopeNeedsEvenDk);
    c.d_model = 7;
    CHECK(config_problem(c).rule == ConfigProblem::Rule::HeadsDivideWidth);
    c = small(11, PositionScheme::Learned);
    c.max_positions = 0;
    CHECK(config_problem(c).rule == ConfigProblem::Rule::LearnedNeedsRows);
}
