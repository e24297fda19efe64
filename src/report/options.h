// options.h — what every chapter program takes on its command line: the flags of the contract
// (README.md, "The flags every chapter takes"), its own extra ones, and the language.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>


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
    std::string see_also = "";  // --help's last paragraph: where else the chapter's idea runs
    std::string kept = "";      // what --cache keeps of this chapter's ("": nothing, here)
};

// The flag of chapters that draw pictures: --svg DIR writes every figure the chapter made.
Flag svg_flag();

struct Options {
    std::string data_path;
    std::string program_dir = ".";  // where the program is: build/, usually
    bool json = false;
    bool check = false;
    bool data_given = false;  // --data: a data file of the reader's, not the chapter's own
    std::string html_dir;     // --html DIR: the walkthrough as a page, DIR/<chapter>.html
    bool live = false;        // --live: that page with its panel to edit and recompute (the live book)
    std::string cache_dir;    // --cache DIR: long results kept between runs (report/computed_once.h)
    std::map<std::string, std::string> extra;  // extra flags given: name -> value ("" for a switch)
    bool has(const std::string& flag) const { return extra.count(flag) > 0; }
    const std::string& value(const std::string& flag) const { return extra.at(flag); }
    // The value of a numeric flag, checked: "--steps: expected a whole number from 1 to …"
    std::int64_t integer(const std::string& flag, std::int64_t min, std::int64_t max) const;
    double number(const std::string& flag, double min, double max) const;
    // The value of a text flag, a "\n" typed in a shell read as a line break (--prompt, --poem)
    std::string text(const std::string& flag) const;
};

// A bad flag or flag value: one error line naming the program and the flag, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// --lang zh|en, else the locale: sets the language the program narrates in (text/translate.h).
void choose_language(int argc, char** argv);

// True when --help or -h is among the arguments; then the help text is printed.
bool print_help_if_asked(int argc, char** argv, const ChapterInfo& info);

// The flags, checked; a bad one throws UsageError.
Options parse_flags(int argc, char** argv, const ChapterInfo& info);

// A file of the project's data/ folder ("data/translations/zh.json"): from the working
// directory, else beside the program's build/ directory (so build/chNN works from anywhere).
std::string data_folder_path(const std::string& rel, const char* argv0);
