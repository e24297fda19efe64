// chapter.h — what every chapter program shares: its flags, its data file, and the three
// ways it reports (the narrated walkthrough, --json, --check). The contract is in README.md
// ("The flags every chapter takes").
//
// A chapter is a ChapterInfo plus one function that reads its inputs and runs its steps:
//
//   int main(int argc, char** argv) { return run_chapter(argc, argv, info, walkthrough); }
//
// Each step narrates (step, say, line, matrix, table) and records every computed value under
// the key its data file uses in "expected" — show() does both in one call. run_chapter does the
// rest: flags, loading, error lines with exit code 2, JSON, checking, pictures, exit codes.
#pragma once
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.h"
#include "io/data_file.h"
#include "io/results.h"
#include "report/narration.h"
#include "report/options.h"
#include "report/terminal.h"
#include "text/numbers.h"

// What a walkthrough's steps get: where to narrate, and where to record what they computed.
class Chapter {
public:
    Chapter(const DataFile& d, const Options& o, Narration& narration)
        : data(d), options(o), narration_(narration) {}
    const DataFile& data;
    const Options& options;
    Results results;

    // --- narrating -----------------------------------------------------------------------
    void step(const std::string& title) { narration_.step(title); }  // a heading for one step
    // A paragraph of narration, broken into lines of at most narration_width columns; with
    // first and indent, a hanging one ("2. scaled to [0, 1] …").
    void say(const std::string& paragraph, const std::string& first = "",
             const std::string& indent = "") {
        narration_.paragraph(paragraph, first, indent);
    }
    void line(const std::string& text) { narration_.line(text); }  // one line, as it is
    void matrix(const std::string& title, const Matrix& m, const Labels& rows = {},
                const Labels& cols = {}, int decimals = -1) {
        narration_.matrix(title, m, rows, cols, decimals);
    }
    void table(const Table& t) { narration_.table(t); }
    void shaded(const std::string& title, const Matrix& m, const std::string& legend = "") {
        narration_.shaded(title, m, legend);
    }
    // A picture: shown in place by a page, written by --svg DIR as a file of that name.
    void picture(const std::string& file_name, const std::string& svg);

    // --- recording -----------------------------------------------------------------------
    // Prints m under its title and shape, rows and columns labelled, and records it under key.
    void show(const std::string& key, const std::string& title, const Matrix& m,
              const Labels& rows = {}, const Labels& cols = {}, int decimals = -1,
              double tol = tolerance::single_op);
    // Records without printing (a result printed another way, or too large to print).
    void record(const std::string& key, const Matrix& m, Shape shape = Shape::Matrix,
                double tol = tolerance::single_op);
    void record_number(const std::string& key, double x, double tol = tolerance::single_op);
    void measured(const std::string& key, double x);  // in --json only: seconds, rates
    void measured(const std::string& key, const Matrix& m) { results.add_measurement(key, m); }
    void reported(const std::string& key, const Words& words) { results.add_words(key, words); }
    void reported(const std::string& key, const std::vector<Words>& lists) {
        results.add_word_lists(key, lists);
    }
    void reported_text(const std::string& key, const std::string& text) {
        results.add_text(key, text);
    }
    // What the tutorial gets wrong (or leaves out) where this chapter follows it, in the light
    // of what the chapter computed; `where` names the article and section ("03 §2.1.5"). All
    // are narrated together at the end of the walkthrough.
    void correction(const std::string& where, const std::string& what) {
        corrections_.push_back({where, what});
    }
    const std::vector<std::pair<std::string, std::string>>& corrections() const {
        return corrections_;
    }
    const std::vector<std::pair<std::string, std::string>>& figures() const { return figures_; }
    Narration& narration() { return narration_; }
    // The title a result was shown under ("softmax(XXᵀ)"), or its key when it was not shown.
    std::string title_of(const std::string& key) const;

private:
    Narration& narration_;
    std::map<std::string, std::string> titles_;  // key -> the title show() printed it under
    std::vector<std::pair<std::string, std::string>> corrections_;
    std::vector<std::pair<std::string, std::string>> figures_;  // file name, SVG
};

using Walkthrough = std::function<void(Chapter& chapter)>;

// The error for a model whose logits stopped being finite while it decoded (NonFiniteLogits,
// model/decoding/decoding.h), naming the file the model came from. run_chapter reports it
// against the data file; a chapter that loads a model from elsewhere rethrows it with that file.
std::runtime_error non_finite_model(const std::string& file, std::size_t step);

// The exit codes: 0 done (and every check passed), 1 a --check mismatch, 2 bad input or flags.
int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough);
