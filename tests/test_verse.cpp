// test_verse.cpp — tones, rhymes and the masks that keep a poem's form (train/verse.h): each
// rule held by every poem a mask lets through, drawn at random from what it allows.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/random.h"
#include "io/poem_corpus.h"
#include "io/pronunciation_file.h"
#include "train/poem_measures.h"
#include "train/verse.h"

namespace {

const char* sample = "tests/data/tang_sample.txt";
const char* table = "tests/data/tang_sample.pinyin.txt";

// A vocabulary of the sample's characters (every one, seen once or more).
CharVocabulary sample_vocabulary() {
    std::vector<std::string> texts;
    for (const Poem& p : read_poems(sample)) texts.push_back(poem_text(p.title, p.lines));
    return vocabulary_of(texts);
}

// A poem drawn uniformly from what the mask allows after the prompt, until <eos> or 80 tokens.
std::string drawn(const CharVocabulary& v, const TokenMask& mask, Random& rng) {
    Tokens t = encode(v, "《题》\n", false);
    while (t.size() < 80 && t.back() != CharVocabulary::eos) {
        std::vector<bool> allowed(v.size(), true);
        allowed[CharVocabulary::pad] = allowed[CharVocabulary::bos] = false;
        allowed[CharVocabulary::unknown] = false;
        mask(t, allowed);
        std::vector<int> ids;
        for (std::size_t id = 0; id < v.size(); ++id)
            if (allowed[id]) ids.push_back(static_cast<int>(id));
        REQUIRE(!ids.empty());
        t.push_back(ids[static_cast<std::size_t>(rng.uniform() * double(ids.size()))]);
    }
    return decode(v, t);
}

}  // namespace

TEST_CASE("a reading's tone and rhyme group, by the rules of 中华新韵") {
    CHECK(tone_of("chun1") == Tone::Level);
    CHECK(tone_of("mian2") == Tone::Level);
    CHECK(tone_of("xiao3") == Tone::Oblique);
    CHECK(tone_of("ru4") == Tone::Oblique);
    CHECK(tone_of("de5") == Tone::Unknown);
    const auto group = [](const char* r) { return std::string(rhyme_group_names[rhyme_group_of(r)]); };
    CHECK(group("guang1") == "唐");  // 光 and 霜 and 乡 rhyme: 静夜思
    CHECK(group("shuang1") == "唐");
    CHECK(group("xiang1") == "唐");
    CHECK(group("shi1") == "支");    // the -i after sh
    CHECK(group("xi1") == "齐");     // and the i after x
    CHECK(group("qu4") == "齐");     // u after q is ü
    CHECK(group("lu4") == "姑");     // after l it is u
    CHECK(group("yun2") == "文");    // yun is ün
    CHECK(group("wei2") == "微");    // wei is uei
    CHECK(rhyme_group_of("hm5") == -1);
}

TEST_CASE("verse measured: doubled and tripled characters, rhymes, alternating tones") {
    const Pronunciations p = read_pronunciations(table);
    REQUIRE(p.reading.at("霜") == "shuang1");
    // 静夜思: rhymes (霜, 乡: 唐); tones of 床前明月光 at 2, 4: 前 (level), 月 (oblique) alternate
    const VerseMeasures m = measure_verse(
        {"《静夜思》\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。",
         "《叠》\n处处闻啼鸟，春眠不觉晓。\n夜夜夜来声，花落知多少。"},
        p);
    CHECK(m.lines == 4);
    CHECK(m.doubled == 2);  // 处处 and 夜夜夜
    CHECK(m.tripled == 1);
    CHECK(m.rhyme_places == 2);
    CHECK(m.rhyming == 2);  // 乡 with 霜 (唐), 少 with 晓 (豪)
    CHECK(m.tone_verses == 8);
    CHECK(m.tones_kept == 5);  // not 疑是地上霜 (是, 上), 举头望明月 (头, 明), 春眠不觉晓 (眠, 觉)
}

TEST_CASE("the masks: every poem they let through keeps the form, and each rule it is given") {
    const CharVocabulary v = sample_vocabulary();
    const Pronunciations p = read_pronunciations(table);
    Random rng(5);
    for (const FormRules rules : {FormRules{false, false, true}, FormRules{true, false, false},
                                  FormRules{true, true, false}, FormRules{true, true, true}}) {
        CAPTURE(rules.rhyme);
        CAPTURE(rules.tones);
        CAPTURE(rules.no_runs);
        const TokenMask mask = form_mask(v, p, rules);
        for (int i = 0; i < 40; ++i) {
            const std::string poem = drawn(v, mask, rng);
            CAPTURE(poem);
            const std::vector<std::string> lines = body_lines(poem);
            REQUIRE((lines.size() == 2 || lines.size() == 4));
            for (const std::string& line : lines) CHECK(regulated_form(line));
            const VerseMeasures m = measure_verse({poem}, p);
            if (rules.rhyme) CHECK(m.rhyming == m.rhyme_places);
            if (rules.tones) CHECK(m.tones_kept == m.tone_verses);
            if (rules.no_runs) CHECK(m.doubled == 0);
        }
    }
}

TEST_CASE("poems that share a couplet stay on one side of the split") {
    std::vector<Poem> poems;
    for (int i = 0; i < 40; ++i)
        poems.push_back({std::to_string(i), "", {"a" + std::to_string(i), "b" + std::to_string(i)}});
    poems[25].lines[1] = "b9";     // 25 quotes 9's second couplet
    poems[31].lines[0] = "a25";    // and 31 shares 25's first: 9, 25 and 31 are one group
    const std::vector<std::size_t> group = kin_groups(poems);
    CHECK(group[25] == group[9]);
    CHECK(group[31] == group[9]);
    CHECK(group[10] != group[9]);
    const PoemSplit split = split_poems(poems, 10, 10, 300);
    CHECK(split.kin == 1);
    CHECK(split.in_kin == 3);
    CHECK(split.groups == 38);
    // 9 is the tenth group: held out, and its kin with it
    std::vector<std::string> held;
    for (const Poem& q : split.heldout) held.push_back(q.title);
    CHECK(std::find(held.begin(), held.end(), "9") != held.end());
    CHECK(std::find(held.begin(), held.end(), "25") != held.end());
    CHECK(std::find(held.begin(), held.end(), "31") != held.end());
    for (const Poem& t : split.training)
        for (const Poem& h : split.heldout)
            for (const std::string& line : t.lines)
                CHECK(std::find(h.lines.begin(), h.lines.end(), line) == h.lines.end());
}
