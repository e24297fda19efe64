// test_verse.cpp — tones, rhymes and the masks that keep a poem's form (verse/verse.h): each
// rule held by every poem a mask lets through, drawn at random from what it allows.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/random.h"
#include "helpers.h"
#include "io/poem_corpus.h"
#include "io/pronunciation_file.h"
#include "verse/form_mask.h"
#include "verse/parallelism.h"
#include "verse/pingshui.h"
#include "verse/poem_measures.h"
#include "verse/poems.h"
#include "verse/regulated_verse.h"
#include "verse/verse.h"

namespace {

const char* sample = "tests/data/tang_sample.txt";
const char* table = "tests/data/tang_sample.pinyin.txt";
const char* tang_table = "tests/data/tang_sample.tang.txt";

// A vocabulary of the sample's characters (every one, seen once or more).
CharVocabulary sample_vocabulary() {
    std::vector<std::string> texts;
    for (const Poem& p : read_poems(sample)) texts.push_back(poem_text(p.title, p.lines));
    return vocabulary_of(texts);
}

// A poem drawn uniformly from what the mask allows after the prompt, until <eos> or 80 tokens.
std::string drawn(const CharVocabulary& v, const TokenMask& mask, Random& rng,
                  const std::string& prompt = "《题》\n") {
    Tokens t = encode(v, prompt, false);
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
    REQUIRE(p.of("霜").size() == 1);
    CHECK(p.tone("霜") == Tone::Level);
    CHECK(p.rhyme_groups("霜") == std::vector<int>{9});  // 唐
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
    CHECK(p.table == SoundTable::Mandarin);
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

TEST_CASE("the masks: a shape asked (5 or 7 characters, a quatrain or regulated verse) is every poem's") {
    const CharVocabulary v = sample_vocabulary();
    const Pronunciations p = read_tang_table(tang_table);
    Random rng(11);
    for (const std::size_t length : {std::size_t(5), std::size_t(7)})
        for (const std::size_t couplets : {std::size_t(2), std::size_t(4)}) {
            CAPTURE(length);
            CAPTURE(couplets);
            FormRules rules{true, true, true};
            rules.length = length, rules.couplets = couplets;
            const TokenMask mask = form_mask(v, p, rules);
            for (int i = 0; i < 10; ++i) {
                const std::string poem = drawn(v, mask, rng);
                CAPTURE(poem);
                const std::vector<std::string> lines = body_lines(poem);
                CHECK(lines.size() == couplets);
                for (const std::string& line : lines)
                    CHECK(characters(line).size() == 2 * length + 2);  // verse ， verse 。
            }
        }
    // the shape alone, no rule: still a mask, and still the shape
    FormRules shape_only;
    shape_only.length = 7;
    CHECK(shape_only.any());
    const TokenMask mask = form_mask(v, p, shape_only);
    for (int i = 0; i < 10; ++i)
        for (const std::string& line : body_lines(drawn(v, mask, rng)))
            CHECK(characters(line).size() == 16);
}

TEST_CASE("a prompt that is a first verse, with a title or without, keeps the form from it") {
    const CharVocabulary v = sample_vocabulary();
    const Pronunciations p = read_tang_table(tang_table);
    const TokenMask mask = form_mask(v, p, FormRules{true, true, true});
    Random rng(3);
    // 光 ends the first verse level: it sets the rhyme (阳), as in 《静夜思》
    for (const std::string prompt : {"床前明月光，", "《静夜思》\n床前明月光，"}) {
        CAPTURE(prompt);
        for (int i = 0; i < 20; ++i) {
            const std::string poem = drawn(v, mask, rng, prompt);
            CAPTURE(poem);
            REQUIRE(poem.rfind(prompt, 0) == 0);
            const std::vector<std::string> lines = body_lines(poem);
            REQUIRE((lines.size() == 2 || lines.size() == 4));
            for (const std::string& line : lines) {
                CHECK(regulated_form(line));
                CHECK(characters(line).size() == 12);  // 5 + ， + 5 + 。
            }
            const VerseMeasures m = measure_verse({poem}, p);
            CHECK(m.rhyming == m.rhyme_places);
            const RegulatedMeasures r = measure_regulated({poem}, p);
            CHECK(r.poems == 1);
            CHECK(r.passed == 1);
            CHECK(r.first_rhyming == r.first_level);  // the rhymes are in 光's group
        }
    }
}

TEST_CASE("a prompt as the start of a poem: a title in 《》, a title's start, or a first verse") {
    CHECK(poem_start("山") == "《山");          // neither 《 nor a verse mark: a title's start
    CHECK(poem_start("《春晓》") == "《春晓》");  // a title
    CHECK(poem_start("《春") == "《春");          // a title's start already
    CHECK(poem_start("国破山河在，") == "国破山河在，");  // a first verse, no title
    CHECK(poem_start("春眠不觉晓\n") == "春眠不觉晓\n");
    CHECK(poem_start("").empty());  // <bos> alone
}

TEST_CASE("poems that share a couplet stay on one side of the split") {
    // couplets of 12 characters, those of two poems apart in 6 places
    const auto couplet = [](char side, int i) {
        const std::string n = (i < 10 ? "0" : "") + std::to_string(i);
        return std::string(1, side) + n + n + "xyz" + n + n + ".";
    };
    std::vector<Poem> poems;
    for (int i = 0; i < 40; ++i)
        poems.push_back({std::to_string(i), "", {couplet('a', i), couplet('b', i)}});
    poems[25].lines[1] = couplet('b', 9);  // 25 quotes 9's second couplet
    poems[31].lines[0] = couplet('a', 25);  // and 31 shares 25's first: 9, 25 and 31 are one group
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

TEST_CASE("poems whose couplets differ in one character are kin; in two, or when short, not") {
    const std::vector<Poem> poems = {
        {"凉州词", "王之涣", {"黄河远上白云间，一片孤城万仞山。", "羌笛何须怨杨柳，春风不度玉门关。"}},
        {"江楼", "甲", {"江上秋风起，楼中月色寒。"}},
        {"出塞", "王之涣", {"黄沙直上白云间，一片孤城万仞山。", "羌笛何须怨杨柳，春光不度玉门关。"}},
        {"江楼又", "乙", {"江上春风起，楼中日色寒。"}},  // two characters apart from 江楼
        {"短", "丙", {"兮，"}},
        {"短又", "丁", {"归，"}},  // a short line a character apart from 短's
        {"短三", "戊", {"兮，"}},  // and one word for word
    };
    const std::vector<std::size_t> group = kin_groups(poems);
    CHECK(group[2] == group[0]);  // 春风 for 春光: one character, in one verse
    CHECK(group[3] != group[1]);
    CHECK(group[5] != group[4]);
    CHECK(group[6] == group[4]);
    CHECK(group == std::vector<std::size_t>{0, 1, 0, 2, 3, 4, 3});
}

TEST_CASE("the standard forms the Makefile wrote: read, or one line naming the file") {
    const std::string good = temp_file("standard_forms.txt", "疎\t疏\t1760\r\n鴈\t雁\t976\n");
    const std::vector<StandardForm> forms = read_standard_forms(good);
    REQUIRE(forms.size() == 2);
    CHECK(forms[0].from == "疎");
    CHECK(forms[0].to == "疏");
    CHECK(forms[0].count == 1760);
    CHECK(forms[1].count == 976);
    CHECK(standard_forms_path("build/corpus/quantangshi.txt") == "build/corpus/standard_forms.txt");
    CHECK(standard_forms_path("quantangshi.txt") == "standard_forms.txt");
    CHECK(read_standard_forms(good + ".not-there").empty());
    for (const char* bad : {"疎\t疏\n", "疎疎\t疏\t3\n", "疎\t疏\tmany\n", "疎\t疏\t3\textra\n",
                            "疎\t疏\t99999999999\n"}) {
        CAPTURE(bad);
        const std::string path = temp_file("bad_forms.txt", bad);
        bool thrown = false;
        try {
            read_standard_forms(path);
        } catch (const std::runtime_error& e) {
            thrown = true;
            CHECK(std::string(e.what()).find(path + ", line 1: expected") == 0);
        }
        CHECK(thrown);
    }
}

// --- the Tang table: 平水韵 and Middle Chinese tones -------------------------------------------

TEST_CASE("平水韵's headings: 106 groups, each a tone, none repeated") {
    TangReading r;
    REQUIRE(tang_reading("东", r));
    CHECK(r.tone == TangTone::Level);
    CHECK(r.group == 0);
    REQUIRE(tang_reading("咸", r));
    CHECK(r.group == 29);  // the last level heading
    REQUIRE(tang_reading("董", r));
    CHECK(r.tone == TangTone::Rising);
    CHECK(r.group == 30);
    REQUIRE(tang_reading("送", r));
    CHECK(r.tone == TangTone::Departing);
    REQUIRE(tang_reading("屋", r));
    CHECK(r.tone == TangTone::Entering);
    REQUIRE(tang_reading("洽", r));
    CHECK(r.group == pingshui_groups - 1);
    REQUIRE(tang_reading("入", r));  // a tone alone
    CHECK(r.tone == TangTone::Entering);
    CHECK(r.group == -1);
    CHECK_FALSE(tang_reading("春", r));
    CHECK_FALSE(tang_reading("dong1", r));
    std::vector<std::string> all;
    for (int g = 0; g < pingshui_groups; ++g) {
        all.push_back(pingshui_heading(g));
        REQUIRE(tang_reading(all.back(), r));
        CHECK(r.group == g);
    }
    std::sort(all.begin(), all.end());
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
    CHECK(pingshui_heading(pingshui_groups).empty());
}

TEST_CASE("the Tang table: every reading, the entering tone oblique, rhymes on level readings") {
    const Pronunciations p = read_tang_table(tang_table);
    CHECK(p.table == SoundTable::Tang);
    // 白 and 国 read level in Mandarin (bai2, guo2); in the Tang they are entering, so oblique
    CHECK(p.tone("白") == Tone::Oblique);
    CHECK(p.tone("国") == Tone::Oblique);
    // 行 as this sample table gives it (every 广韵 entry, as the tables of earlier versions did;
    // make's table now reads it 庚): several readings, either tone, two level rhyme groups
    CHECK(p.tone("行") == Tone::Unknown);
    CHECK(p.can_be("行", Tone::Level));
    CHECK(p.can_be("行", Tone::Oblique));
    CHECK(p.rhyme_groups("行").size() == 2);
    CHECK(p.all_groups("行").size() == 4);
    // 魂: the dictionary has no entry under this form; its tone alone (kTang), no rhyme group
    CHECK(p.tone("魂") == Tone::Level);
    CHECK(p.rhyme_groups("魂").empty());
    // 东 and 冬 rhyme apart, as Tang poets kept them (Mandarin's 庚 merges them)
    CHECK(p.rhyme_groups("东") != p.rhyme_groups("农"));
}

TEST_CASE("a Tang table that is not one: one error line naming the file, the line and the reading") {
    const std::string bad = temp_file("bad.tang.txt", "东\t东\n春\tchun1\n");
    try {
        read_tang_table(bad);
        FAIL("read a table with a pinyin reading");
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        CHECK(what.find(bad + ", line 2") != std::string::npos);
        CHECK(what.find("chun1") != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);
    }
    CHECK_THROWS_AS(read_tang_table(temp_file("empty.tang.txt", "")), std::runtime_error);
    CHECK_THROWS_AS(read_tang_table(temp_file("notab.tang.txt", "东 东\n")), std::runtime_error);
}

TEST_CASE("Tang measures: rhymes and tones as the poets heard them, where Mandarin misjudges") {
    const Pronunciations tang = read_tang_table(tang_table);
    const Pronunciations mandarin = read_pronunciations(table);
    // 登鹳雀楼: 白日依山尽 — 日 (entering, oblique) against 山 (level) alternates; Mandarin reads
    // 日 ri4, oblique too. 更上一层楼 — 上 oblique, 层 level: alternates in both. 欲穷千里目 —
    // 穷 level, 里 oblique. 黄河入海流 — 河 level, 海 oblique.
    const std::string poem = "《登鹳雀楼》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。";
    const VerseMeasures t = measure_verse({poem}, tang);
    CHECK(t.tone_verses == 4);
    CHECK(t.tones_kept == 4);
    CHECK(t.rhyme_places == 1);
    CHECK(t.rhyming == 1);  // 楼 with 流: 尤
    // 登乐游原: 原 and 昏 rhyme in 平水韵's 元 (元, 魂, 痕 were one group) — in Mandarin yuan2 (寒)
    // and hun1 (文) do not
    const std::string leyouyuan = "《登乐游原》\n向晚意不适，驱车登古原。\n夕阳无限好，只是近黄昏。";
    CHECK(measure_verse({leyouyuan}, tang).rhyming == 1);
    CHECK(measure_verse({leyouyuan}, mandarin).rhyming == 0);
    // the entering tone: 国 reads guo2 (level) today, but was entering (oblique), so 白国花月明
    // does not alternate (国 and 月 both oblique) — in Mandarin it seems to
    const std::string entering = "《国》\n白国花月明，春来发几枝。";
    CHECK(measure_verse({entering}, tang).tones_kept == 1);
    CHECK(measure_verse({entering}, mandarin).tones_kept == 2);
}

TEST_CASE("the whole check of regulated verse, rule by rule") {
    const Pronunciations p = read_tang_table(tang_table);
    const auto check = [&](const std::string& text) { return measure_regulated({text}, p); };
    // 杜甫's 绝句 keeps every rule: 粘对, one level rhyme (天, 船: 先), no 三平尾, no 孤平; 行 is
    // read level (in 阳 or 庚) where the verse needs it
    const RegulatedMeasures jueju =
        check("《绝句》\n两个黄鹂鸣翠柳，一行白鹭上青天。\n窗含西岭千秋雪，门泊东吴万里船。");
    CHECK(jueju.poems == 1);
    CHECK(jueju.passed == 1);
    CHECK(jueju.first_level == 0);  // 柳: the first verse ends oblique
    // 重韵: 流 twice at the rhyme
    const RegulatedMeasures twice = check("《重》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层流。");
    CHECK(twice.repeated_rhyme == 1);
    CHECK(twice.passed == 0);
    // 三平尾: 东南流
    const RegulatedMeasures three = check("《三平》\n白日依山尽，黄河东南流。\n欲穷千里目，更上一层楼。");
    CHECK(three.three_level == 1);
    CHECK(three.passed == 0);
    // 孤平: 古河入海流 — 河 the only level tone besides the rhyme, between obliques
    const RegulatedMeasures lone = check("《孤》\n白日依山尽，古河入海流。\n欲穷千里目，更上一层楼。");
    CHECK(lone.lone_level == 1);
    CHECK(lone.passed == 0);
    // … and its accepted remedy (拗救): 古河清海流, the 3rd level too
    const RegulatedMeasures remedy = check("《救》\n白日依山尽，古河清海流。\n欲穷千里目，更上一层楼。");
    CHECK(remedy.lone_level == 0);
    CHECK(remedy.passed == 1);
    // a first verse ending level (花: 麻) that does not rhyme with the second's (行)
    const RegulatedMeasures first = check("《首》\n春风吹柳花，人在远方行。\n明月照归路，东风送客城。");
    CHECK(first.first_level == 1);
    CHECK(first.first_rhyming == 0);
    CHECK(first.passed == 0);
    // not judged: one couplet, a verse of six, a character of no known tone
    CHECK(check("《一》\n白日依山尽，黄河入海流。").poems == 0);
    CHECK(check("《六》\n白日依山尽了，黄河入海流。\n欲穷千里目，更上一层楼。").poems == 0);
    CHECK(check("《缺》\n白日依山尽，黄河入海㐀。\n欲穷千里目，更上一层楼。").poems == 0);
    // 登鹳雀楼 itself: 白日依山尽 / 黄河入海流 — 日 oblique, 河 level: 对 kept; 欲穷千里目 — 穷
    // level, like 河: 粘 kept; 更上一层楼 — 上 oblique: 对 kept; rhymes 流, 楼 (尤)
    CHECK(check("《登鹳雀楼》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。").passed == 1);
}

TEST_CASE("the licences: each poem passes only by its own, and a quatrain rhyming oblique is apart") {
    const Pronunciations p = read_tang_table(tang_table);
    const auto check = [&](const std::string& text) { return measure_regulated({text}, p); };
    // 特拗: 欲穷里千目 is 仄平仄平仄 where 平平平仄仄 belongs (穷 and 千 both level)
    const RegulatedMeasures special = check("《特拗》\n白日依山尽，黄河入海流。\n欲穷里千目，更上一层楼。");
    CHECK(special.passed == 1);
    CHECK(special.special == 1);
    CHECK(special.big_twist + special.borrowed_rhyme == 0);
    CHECK(special.licensed == 1);  // it fails with no licence at all
    // 大拗: 白日依里尽 (仄仄平仄仄: 里 oblique where 平 belongs), made up by 黄河千海流 (平平平仄平)
    const RegulatedMeasures twist = check("《大拗》\n白日依里尽，黄河千海流。\n欲穷千里目，更上一层楼。");
    CHECK(twist.passed == 1);
    CHECK(twist.big_twist == 1);
    CHECK(twist.special + twist.borrowed_rhyme == 0);
    // … and not made up (黄河入海流: 入 oblique): it fails
    const RegulatedMeasures unmade = check("《拗》\n白日依里尽，黄河入海流。\n欲穷千里目，更上一层楼。");
    CHECK(unmade.poems == 1);
    CHECK(unmade.passed == 0);
    // 首句借韵: 飞 (微) ends the first verse, the poem rhymes in 支 (枝, 思), its neighbour
    const RegulatedMeasures borrowed = check("《借》\n红豆鸟南飞，春来发几枝。\n愿君多采撷，此物最相思。");
    CHECK(borrowed.passed == 1);
    CHECK(borrowed.borrowed_rhyme == 1);
    CHECK(borrowed.first_rhyming == 0);  // the first verse does not rhyme strictly
    // … 流 (尤) is no neighbour of 支: the first verse fails to rhyme
    CHECK(check("《不借》\n红豆鸟南流，春来发几枝。\n愿君多采撷，此物最相思。").passed == 0);
    // 《春晓》 rhymes on oblique tones (晓 鸟 少, 筱): 古绝, not judged by these rules, counted apart
    const RegulatedMeasures old_style = check("《春晓》\n春眠不觉晓，处处闻啼鸟。\n夜来风雨声，花落知多少。");
    CHECK(old_style.passed == 0);
    CHECK(old_style.oblique_rhymed == 1);
    CHECK(check("《登鹳雀楼》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。").licensed == 0);
    CHECK(special.oblique_rhymed + twist.oblique_rhymed + borrowed.oblique_rhymed == 0);
}

TEST_CASE("masks by the Tang table: every poem keeps the whole check — 平水韵 rhyme, no 重韵, no 三平尾") {
    const CharVocabulary v = sample_vocabulary();
    const Pronunciations p = read_tang_table(tang_table);
    Random rng(11);
    for (const FormRules rules : {FormRules{true, false, false}, FormRules{true, true, false},
                                  FormRules{true, true, true}}) {
        CAPTURE(rules.tones);
        CAPTURE(rules.no_runs);
        const TokenMask mask = form_mask(v, p, rules);
        std::size_t judged = 0;
        for (int i = 0; i < 60; ++i) {
            const std::string poem = drawn(v, mask, rng);
            CAPTURE(poem);
            const VerseMeasures m = measure_verse({poem}, p);
            CHECK(m.rhyming == m.rhyme_places);
            const RegulatedMeasures r = measure_regulated({poem}, p);
            CHECK(r.repeated_rhyme == 0);
            if (rules.tones) {
                CHECK(m.tones_kept == m.tone_verses);
                CHECK(r.three_level == 0);
                CHECK(r.lone_level == 0);
                CHECK(r.passed == r.poems);
            }
            judged += r.poems;
        }
        CHECK(judged > 30);  // the sample's characters all have tones: nearly every poem judged
    }
}

TEST_CASE("对仗 on word classes: the middle couplets of a poem of four, pair by pair") {
    const Pronunciations p = read_tang_table(tang_table);
    CHECK(same_word_class("万", "百"));  // numbers
    CHECK(same_word_class("日", "月"));  // times and heavens both
    CHECK_FALSE(same_word_class("木", "江"));
    // 登高: 万里悲秋常作客，百年多病独登台 — 万 and 百 are numbers (both oblique: 万 departing,
    // 百 entering); nothing else of the two middle couplets is in one class of the short list
    const ParallelCounts c = count_parallelism(
        "《登高》\n风急天高猿啸哀，渚清沙白鸟飞回。\n无边落木萧萧下，不尽长江滚滚来。"
        "\n万里悲秋常作客，百年多病独登台。\n艰难苦恨繁霜鬓，潦倒新停浊酒杯。",
        p);
    CHECK(c.couplets == 2);
    CHECK(c.positions == 14);
    CHECK(c.same_class == 1);
    CHECK(c.opposite == 0);
    // 白 (entering) against 黄 (level): colours; 山 (level) against 海 (rising): landscape; 千
    // (level) against 万 (departing): numbers — three pairs, each of opposite tones
    const ParallelCounts d = count_parallelism(
        "《对》\n春眠不觉晓，处处闻啼鸟。\n白日依山尽，黄河入海流。\n千山鸟飞绝，万径人踪灭。"
        "\n红豆生南国，春来发几枝。",
        p);
    CHECK(d.same_class == 3);
    CHECK(d.opposite == 3);
    // two couplets: no middle ones
    CHECK(count_parallelism("《二》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。", p).couplets == 0);
}

TEST_CASE("对仗 of places: a name answers a name as long at the same position") {
    const auto at = [](const char* a, const char* b) {
        std::string marks;
        for (bool placed : places_answered(characters(a), characters(b))) marks += placed ? '+' : '.';
        return marks;
    };
    // 杜甫: 即从巴峡穿巫峡，便下襄阳向洛阳 — 巫峡 answers 洛阳; 巴 (a state, one character) does
    // not answer 襄阳 (two), and 巴峡 is not in the list
    CHECK(at("即从巴峡穿巫峡", "便下襄阳向洛阳") == ".....++");
    CHECK(at("吴楚东南坼", "乾坤日夜浮") == ".....");  // 乾坤 is not a place
    CHECK(at("吴宫花草埋幽径", "楚宫今夜起秋风") == "++.....");  // two palaces
    CHECK(at("吴山", "楚水") == "+.");  // 吴 answers 楚; 山 and 水 are landscape, not places
    CHECK(at("潇湘", "吴楚") == ".+");  // 潇湘 is one name of two, 吴 one of one; 湘 answers 楚
    CHECK(at("长安", "洛阳城") == "..");  // verses of different lengths: nothing
    // a middle couplet of places: 洞庭 and 巫峡 are in no class of characters; as two places they
    // give two pairs in one class (the same poem with 春来 and 欲穷 there gives none)
    const Pronunciations p = read_tang_table(tang_table);
    const char* const without =
        "《地》\n白日依山尽，黄河入海流。\n春来发几枝，欲穷千里目。\n举头望明月，低头思故乡。"
        "\n红豆生南国，更上一层楼。";
    const char* const with =
        "《地》\n白日依山尽，黄河入海流。\n洞庭发几枝，巫峡千里目。\n举头望明月，低头思故乡。"
        "\n红豆生南国，更上一层楼。";
    const ParallelCounts a = count_parallelism(without, p), b = count_parallelism(with, p);
    CHECK(a.couplets == 2);
    CHECK(b.positions == a.positions);
    CHECK(b.same_class == a.same_class + 2);
}
