// chapter.h — what every chapter program shares: its flags, its data file, and the three
// ways it reports (the narrated walkthrough, --json, --check). The contract is in the README
// ("Every chapter program takes the same flags").
//
// A chapter is a ChapterInfo plus one function that reads its inputs and runs its steps:
//
//   int main(int argc, char** argv) { return run_chapter(argc, argv, info, walkthrough); }
//
// Each step narrates into chapter.out and records every computed value under the key its data
// file uses in "expected" — show() does both in one call. run_chapter does the rest: flags,
// loading, error lines with exit code 2, JSON, checking, pictures, exit codes.
#pragma once
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/translate.h"
#include "io/data_file.h"
#include "report/results.h"
#include "report/terminal.h"

struct Flag {
    std::string name;   // "--svg"
    std::string value;  // "DIR", or "" for a switch
    std::string help;
};

struct ChapterInfo {
    std::string name;     // "ch02_self_attention"; its data file is data/<name>.json
    std::string title;    // one line: what the chapter shows
    std::string follows;  // which tutorial article and section it follows
    std::vector<Flag> extra_flags = {};
};

struct Options {
    std::string data_path;
    std::string program_dir = ".";  // where the program is: build/, usually
    bool json = false;
    bool check = false;
    std::map<std::string, std::string> extra;  // extra flags given: name -> value ("" for a switch)
    bool has(const std::string& flag) const { return extra.count(flag) > 0; }
    const std::string& value(const std::string& flag) const { return extra.at(flag); }
    // The value of a numeric flag, checked: "--steps: expected a whole number from 1 to …"
    long integer(const std::string& flag, long min, long max) const;
    double number(const std::string& flag, double min, double max) const;
};

// A bad flag or flag value: one error line naming the program and the flag, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The flag of chapters that draw pictures: --svg DIR writes every figure the chapter made.
inline Flag svg_flag() {
    return {"--svg", "DIR", N_("write the chapter's pictures as SVG files into DIR")};
}

constexpr std::size_t narration_width = 96;  // terminal columns of a paragraph of narration

// What a walkthrough's steps get: where to narrate, and where to record what they computed.
class Chapter {
public:
    Chapter(const DataFile& d, const Options& o, std::ostream& narration)
        : data(d), options(o), out(narration) {}
    const DataFile& data;
    const Options& options;
    std::ostream& out;  // the narration: the terminal, or nothing under --json and --check
    Results results;

    void step(const std::string& title) const;  // a heading for one step of the walkthrough
    // A paragraph of narration, broken into lines of at most narration_width columns.
    void say(const std::string& paragraph) const;
    // Prints m under its title and shape, rows and columns labelled, and records it under key.
    void show(const std::string& key, const std::string& title, const Matrix& m,
              const Labels& rows = {}, const Labels& cols = {}, int decimals = -1,
              double tol = tolerance::single_op);
    // Records without printing (a result printed another way, or too large to print).
    void record(const std::string& key, const Matrix& m, Shape shape = Shape::Matrix,
                double tol = tolerance::single_op);
    void record_number(const std::string& key, double x, double tol = tolerance::single_op);
    void measured(const std::string& key, double x);  // in --json only: seconds, rates
    void reported(const std::string& key, const Json& value);  // in --json only: words, lists
    void picture(const std::string& file_name, const std::string& svg);  // written by --svg DIR
    // What the tutorial gets wrong (or leaves out) where this chapter follows it, in the light
    // of what the chapter computed; `where` names the article and section ("03 §2.1.5"). All
    // are printed together at the end of the walkthrough.
    void correction(const std::string& where, const std::string& what);
    const std::vector<std::pair<std::string, std::string>>& corrections() const {
        return corrections_;
    }

private:
    std::vector<std::pair<std::string, std::string>> corrections_;
};

using Walkthrough = std::function<void(Chapter& chapter)>;

// The exit codes: 0 done (and every check passed), 1 a --check mismatch, 2 bad input or flags.
int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough);
