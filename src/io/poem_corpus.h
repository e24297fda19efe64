// poem_corpus.h — chapter 12's poems, read into titles, authors and lines: the complete Tang
// poems (全唐诗, the npm package chinese-poetry, prepared by the Makefile into
// build/corpus/quantangshi.txt) or the Three Hundred Tang Poems as Debian's fortunes-zh ships
// them (/usr/share/games/fortunes/tang300).
//
// Both files are fortune(6) databases: entries separated by lines holding only "%", each entry
// a title line 《…》, an author line 作者：…, then the poem, one couplet per line. tang300's title
// and author carry terminal colour codes (ESC [ 32 m … ESC [ m), which are stripped.
#pragma once
#include <string>
#include <set>
#include <vector>

#include "verse/poems.h"

// Every entry of the file that has a title and at least one line. Throws std::runtime_error
// with one line naming the file when it cannot be read or holds no poem.
std::vector<Poem> read_poems(const std::string& path);

// "\x1b[32m《静夜思》\x1b[m" -> "《静夜思》": the colour codes removed.
std::string without_colour(const std::string& line);

// A corpus as the reader names it (--corpus): "quantangshi", the regulated poems of the complete
// Tang poems (two or four couplets of five or seven characters); "quantangshi-all", every poem
// of them; "tang300", the Three Hundred Tang Poems; anything else, a file of the same format.
struct CorpusChoice {
    std::string name;            // as asked, or "tang300" after a fallback
    std::string path;
    bool regulated_only = false;
    std::string fallback;  // when quantangshi is not there: the one line that says what is used
};
// quantangshi_path: where the Makefile prepares it (build/corpus/quantangshi.txt).
CorpusChoice choose_corpus(const std::string& asked, const std::string& quantangshi_path);

// The Three Hundred Tang Poems' file.
inline const char* tang300_path() { return "/usr/share/games/fortunes/tang300"; }

// How a corpus is made ready (chapter 12's data file says; a saved model's file remembers it, so
// chapter 13 rebuilds the same held-out poems): the corpus, how it is split, the vocabulary.
struct CorpusSettings {
    std::string source;   // quantangshi, quantangshi-all, tang300 or a file
    CorpusChoice choice;  // where it is; tang300 when quantangshi is not there
    std::size_t heldout_every = 10, validation_every = 10, validation_max = 300;
    std::size_t min_count = 1, vocabulary = 0;
};

// An old variant form the Makefile wrote in its standard form (data/corpus/quantangshi.js: 疎 as
// 疏), and how many times: a line "疎<TAB>疏<TAB>1760" of build/corpus/standard_forms.txt.
struct StandardForm {
    std::string from, to;
    std::size_t count = 0;
};
// The file's lines, or none when there is no such file (a corpus other than quantangshi). Throws
// std::runtime_error with one line naming the file when a line is not of that shape.
std::vector<StandardForm> read_standard_forms(const std::string& path);
// standard_forms.txt beside the corpus file.
std::string standard_forms_path(const std::string& corpus_path);

// The corpus read, its regulated poems kept (quantangshi), without repeats, split by whole poem
// and encoded — in `given` (a saved model's vocabulary) when there is one.
struct Corpus {
    CorpusChoice choice;
    std::size_t read = 0, regulated = 0, distinct = 0;  // poems at each stage
    std::vector<StandardForm> standard_forms;  // quantangshi's, as the Makefile wrote them
    PoemSplit split;
    CharVocabulary vocabulary;
    std::vector<Tokens> training, validation, heldout;
    std::set<std::string> training_lines;  // every line of every training poem, to spot copies
    std::size_t training_unknown = 0, heldout_unknown = 0;  // characters read as <unk>
    // A number that changes with any token of any poem on any side of the split, or with the
    // vocabulary: whether a saved model's record was measured on this very corpus.
    std::string fingerprint() const;
};
Corpus prepare_corpus(const CorpusSettings& settings, const CharVocabulary* given = nullptr);
