// chapter.h — what every chapter program shares: its flags, its data file, and the three
// ways it reports (the narrated walkthrough, --json, --check). See "The chapter program
// contract" in the README.
//
// A chapter is a ChapterInfo plus one function that computes and narrates:
//
//   int main(int argc, char** argv) { return run_chapter(argc, argv, info, walkthrough); }
//
// The walkthrough writes its narration to `out` and adds every computed value to `results`
// under the key its data file uses in "expected". run_chapter does the rest: flags, loading,
// error lines with exit code 2, printing, JSON, checking, exit codes.
#pragma once
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "data_file.h"
#include "results.h"

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
    bool json = false;
    bool check = false;
    std::map<std::string, std::string> extra;  // extra flags given: name -> value ("" for a switch)
    bool has(const std::string& flag) const { return extra.count(flag) > 0; }
    // The value of a numeric flag, checked: "--steps: expected a whole number from 1 to …"
    long integer(const std::string& flag, long min, long max) const;
    double number(const std::string& flag, double min, double max) const;
};

// The flag of chapters that draw pictures: --svg DIR writes every figure added to the results.
inline Flag svg_flag() { return {"--svg", "DIR", "write the chapter's heatmaps as SVG files into DIR"}; }

using Walkthrough = std::function<void(const DataFile& data, const Options& options,
                                       std::ostream& out, Results& results)>;

// The exit codes: 0 done (and every check passed), 1 a --check mismatch, 2 bad input or flags.
int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough);
