// ch12_gpt/yardstick.cpp — the judge against the Three Hundred Tang Poems (yardstick.h).
#include "ch12_gpt/yardstick.h"

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "io/poem_corpus.h"
#include "report/chapter.h"
#include "report/terminal.h"
#include "text/numbers.h"
#include "text/translate.h"
#include "verse/poems.h"
#include "verse/regulated_verse.h"

namespace ch12_gpt {

namespace {

// The sections of the book, in its order, each named by its first poem (蘅塘退士's order, as the
// fortune file keeps it); each runs to the next one's first poem. 乐府 poems stand inside the
// section of their form.
struct Section {
    const char* form;         // the form's name, as the book heads the section (a term, the
                              // same in both languages)
    const char* first_title;  // the section's first poem
    bool regulated;           // a regulated form (近体) or the old style (古体)
};
const Section sections[] = {
    {"五言古诗", "感遇・其一", false}, {"七言古诗", "登幽州台歌", false},
    {"五言律诗", "经邹鲁祭孔子而叹之", true}, {"七言律诗", "黄鹤楼", true},
    {"五言绝句", "鹿柴", true},        {"七言绝句", "回乡偶书", true}};
constexpr std::size_t section_count = sizeof sections / sizeof sections[0];

// Where each section starts: its first poem, found after the previous section's, and the end;
// none when a section's first poem is not where the book puts it (said).
std::vector<std::size_t> section_starts(Chapter& ch, const std::vector<Poem>& poems) {
    std::vector<std::size_t> start;
    for (std::size_t s = 0, i = 0; s < section_count; ++s) {
        while (i < poems.size() && poems[i].title != sections[s].first_title) ++i;
        if (i == poems.size()) {
            ch.say(tr("{}: the poem that opens the section {} (《{}》) is not where the book puts "
                      "it: the judge is not measured against the poets.",
                      tang300_path(), sections[s].form, sections[s].first_title));
            return {};
        }
        start.push_back(i);
    }
    start.push_back(poems.size());
    return start;
}

std::string share(std::size_t n, std::size_t of) {
    return of ? fixed(100.0 * double(n) / double(of), 1) + "%" : "—";
}

}  // namespace

void yardstick_step(Chapter& ch, const Sounds& sounds) {
    ch.step(tr("The judge against the poets: the Three Hundred Tang Poems, form by form"));
    if (sounds.tang.empty()) {
        ch.say(tr("No Tang table (make corpus writes build/corpus/tang.txt): the judge is not "
                  "measured against the poets."));
        return;
    }
    std::vector<Poem> poems;
    try {
        poems = read_poems(tang300_path());
    } catch (const std::exception&) {
        ch.say(tr("{} is not there (Debian's fortunes-zh: apt-get install fortunes-zh): the "
                  "judge is not measured against the poets.",
                  tang300_path()));
        return;
    }
    const std::vector<std::size_t> start = section_starts(ch, poems);
    if (start.empty()) return;
    Table t({tr("form"), tr("poems"), tr("of regulated shape"), tr("pass"), tr("by a licence"),
             tr("古绝 (rhyming oblique)")});
    std::size_t old_shaped = 0, old_passed = 0;
    std::vector<std::string> regulated_rates;
    for (std::size_t s = 0; s < section_count; ++s) {
        std::vector<std::string> texts;
        for (std::size_t i = start[s]; i < start[s + 1]; ++i)
            texts.push_back(poem_text(poems[i].title, poems[i].lines));
        const RegulatedMeasures m = measure_regulated(texts, sounds.tang);
        t.add({sections[s].form, grouped(texts.size()), grouped(m.poems),
               grouped(m.passed) + " (" + share(m.passed, m.poems) + ")", grouped(m.licensed),
               grouped(m.oblique_rhymed)});
        const std::string key = "yardstick_" + std::to_string(s);
        ch.measured(key + "_judged", double(m.poems));
        ch.measured(key + "_passed", double(m.passed));
        ch.measured(key + "_oblique_rhymed", double(m.oblique_rhymed));
        if (sections[s].regulated) {
            regulated_rates.push_back(
                tr("{} of {} ({})", share(m.passed, m.poems), sections[s].form,
                   count_of(m.poems, "{} poem", "{} poems")));
        } else {
            old_shaped += m.poems, old_passed += m.passed;
        }
    }
    ch.table(t);
    ch.say(tr("Regulated, by the same judge as the model's poems: {}; of the old-style poems (古诗) "
              "that happen to have a regulated shape, {} ({} of {}). By a licence: the poems that "
              "pass only with 特拗, 大拗 with its 救, or 首句借韵. 古绝: a quatrain "
              "that rhymes on oblique tones, a form of its own (《春晓》, 《江雪》), counted among "
              "the poems that do not pass.",
              listed(regulated_rates), share(old_passed, old_shaped), grouped(old_passed),
              grouped(old_shaped)));
}

}  // namespace ch12_gpt
