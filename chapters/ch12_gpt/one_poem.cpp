// ch12_gpt/one_poem.cpp — one written poem shown to the reader (one_poem.h).
#include "ch12_gpt/one_poem.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "report/chapter.h"
#include "text/translate.h"
#include "verse/regulated_verse.h"

namespace ch12_gpt {

// A poem, a line of it per line, indented; a line too long for the terminal (a model that has
// not learned where lines end) goes on below, indented further.
void print_poem(Chapter& ch, const std::string& text) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            std::istringstream lines(
                wrap(text.substr(start, i - start), narration_width, "    ", "      "));
            for (std::string line; std::getline(lines, line);) ch.line(line);
            start = i + 1;
        }
    ch.line("");
}

// What the model will read of a prompt: characters it does not know become <unk>, and of a
// prompt longer than its window only the last part is read. Said, never done silently.
void say_prompt(Chapter& ch, const CharVocabulary& v, const std::string& prompt,
                std::size_t context) {
    std::vector<std::string> unknown;
    for (const std::string& character : characters(prompt))
        if (character != "\n" && v.id(character) == CharVocabulary::unknown &&
            std::find(unknown.begin(), unknown.end(), character) == unknown.end())
            unknown.push_back(character);
    if (!unknown.empty()) {
        std::string list;
        for (const std::string& u : unknown) list += (list.empty() ? "" : " ") + u;
        ch.say(tr("not in the model's vocabulary: {} — it reads <unk> for each, and knows only "
                  "that some rare character stands there",
                  list),
               "  ", "    ");
    }
    if (prompt.rfind("《", 0) == 0 && prompt.find("》") == std::string::npos)
        ch.say(tr("the prompt opens a title: the poet finishes the title, then writes the poem (a "
                  "prompt with a comma or a full stop is read as the poem's first verse)"),
               "  ", "    ");
    else if (!prompt.empty() && prompt.rfind("《", 0) != 0)
        ch.say(tr("the prompt has no title (《…》): it is read as the poem's first verse, and the "
                  "poem goes on from it"),
               "  ", "    ");
    const std::size_t tokens = characters(prompt).size() + 1;  // and <bos>
    if (tokens > context)
        ch.say(tr("the prompt is {} tokens with <bos>; the model reads only its last {} (the "
                  "window it was trained on) and writes on from there",
                  grouped(tokens), context),
               "  ", "    ");
}

// "from "《春晓》":" — a long prompt by its first characters and its length (the poem below
// prints it whole).
std::string prompt_heading(const std::string& prompt) {
    const std::vector<std::string> chars = characters(prompt);
    std::string start;  // a line break shown as it is typed, \n, to keep the heading one line
    for (std::size_t i = 0; i < chars.size() && (chars.size() <= 30 || i < 20); ++i)
        start += chars[i] == "\n" ? "\\n" : chars[i];
    if (chars.size() <= 30) return tr("from \"{}\":", start);
    return tr("from \"{}…\" ({} characters):", start, grouped(chars.size()));
}

// One written poem judged by each table there is: its rhymes, its tones, its regulated form.
void say_judged(Chapter& ch, const std::string& text, const Sounds& sounds) {
    for (const Pronunciations* table : {&sounds.tang, &sounds.mandarin}) {
        if (table->empty()) continue;
        const VerseMeasures m = measure_verse({text}, *table);
        const RegulatedMeasures r = measure_regulated({text}, *table);
        // every clause, each said to be absent when there is nothing to count
        std::vector<std::string> parts;
        parts.push_back(m.rhyme_places > 0
                            ? tr("{} of {} second verses after the first couplet rhyme with it",
                                 m.rhyming, m.rhyme_places)
                            : tr("no second verse after the first couplet, so no rhyme to count"));
        parts.push_back(m.tone_verses > 0
                            ? tr("{} of {} verses alternate their tones", m.tones_kept,
                                 m.tone_verses)
                            : tr("no verse of five or seven characters with its tones known, so "
                                 "no tones to count"));
        std::vector<std::string> licences;  // the licences it passes by, each named
        if (r.special) licences.push_back(tr("特拗 (平平仄平仄 for 平平平仄仄)"));
        if (r.big_twist) licences.push_back(tr("大拗 made up in its couplet's other verse"));
        if (r.borrowed_rhyme) licences.push_back(tr("首句借韵 (its first verse in a neighbouring group)"));
        parts.push_back(
            r.poems > 0
                ? (r.passed ? (licences.empty()
                                   ? tr("it keeps every rule of a regulated poem (近体诗)")
                                   : tr("it keeps every rule of a regulated poem (近体诗) with "
                                        "the licence of {}",
                                        listed(licences)))
                   : r.oblique_rhymed
                       ? tr("it rhymes on oblique tones: a quatrain of the old style (古绝), not "
                            "a regulated poem")
                       : tr("it breaks a rule of a regulated poem (近体诗)"))
            : r.shaped > 0
                ? tr("it is not judged as a regulated poem (近体诗): a character's tone is not known")
                : tr("it is not judged as a regulated poem (近体诗): that needs two or four couplets, "
                     "every verse of five characters or every one of seven"));
        ch.say(table->table == SoundTable::Tang
                   ? tr("By the Tang table (平水韵, Middle Chinese tones): {}.", clauses(parts))
                   : tr("By modern Mandarin (pinyin): {}.", clauses(parts)),
               "  ", "  ");
    }
}


}  // namespace ch12_gpt
