// script_lines.cpp — the lines of the Makefile and the scripts, each marked for the catalog.
#include "report/script_lines.h"

#include <stdexcept>
#include <string>

#include "text/translate.h"

namespace {

struct Line {
    const char* name;
    std::size_t args;  // how many placeholders it fills
    const char* english;
};

// One table: what each line says, its arguments in order. Counts that decide a plural are
// worded by script_line below.
const Line lines[] = {
    // make run's closing table (tests/tools/run_chapters.sh): its heading, its last row, the peak
    {"run_table", 0, N_("make run: each chapter's wall time and peak memory")},
    {"run_table_wall", 0, N_("make run: each chapter's wall time")},
    {"run_total", 0, N_("in all")},
    {"run_peak", 1, N_("the most memory one chapter held at once: {} GB")},
    // make check: chapters passed, chapters run, checks passed, checks failed
    {"check_total", 4, N_("make check: {} of {} passed; in all {} checks passed, {} failed")},
    // the chapters that did not pass, after it
    {"check_failed", 1, N_("make check: not passed: {}")},
    // make plug: the function, the reader's file, the project's file, chapters passed, failed
    {"plug_total", 5, N_("plugged in: your {} ({}) in place of {}'s: {} passed, {} failed")},
    {"watching", 0, N_("(watching chapters/exercises/: save a file to check again; Ctrl-C stops)")},
    {"oracle_needs_torch", 0,
     N_("error: the oracle needs PyTorch: apt-get install python3-torch python3-numpy")},
    {"rewrite_needs_file", 0, N_("error: make rewrite: expected FILE=the data file to recompute")},
    {"rewrote", 1, N_("rewrote {}")},
    {"hint_needs_n", 0,
     N_("error: make hint: expected N=the exercise's number (make exercises lists them)")},
    {"plug_needs_n", 0,
     N_("error: make plug: expected N=an exercise's number (tests/exercises/plug/ lists those "
        "that plug in)")},
    {"plug_no_function", 2,
     N_("error: make plug N={}: this exercise has no project function of its signature to "
        "replace; these do: {}")},
    {"plug_needs_elf", 2,
     N_("error: make plug needs ELF objects, whose functions objcopy can make weak (Linux, WSL); "
        "{} builds for {}")},
    {"plug_needs_binutils", 0,
     N_("error: make plug needs GNU binutils' objcopy and nm (apt-get install binutils)")},
    {"plug_not_there", 1,
     N_("error: {}: not there yet (make exercises copies the exercises there)")},
    {"plug_not_written", 1,
     N_("error: {}: not written yet (it still calls not_written_yet): write it, and make exercise checks it, before make plug runs the chapters on it")},
};

const Line& line_named(const std::string& name) {
    for (const Line& l : lines)
        if (name == l.name) return l;
    throw std::invalid_argument("say: no line named \"" + name + "\"");
}

// "1 chapter" or "3 chapters", as the reader's language counts them
std::string chapters(const std::string& n) {
    return count_of(std::stoul(n), N_("{} chapter"), N_("{} chapters"));
}

}  // namespace

std::string script_line(const std::string& name, const std::vector<std::string>& args) {
    const Line& l = line_named(name);
    if (args.size() != l.args)
        throw std::invalid_argument("say " + name + ": expected " + std::to_string(l.args) +
                                    " arguments, got " + std::to_string(args.size()));
    std::vector<std::string> filled = args;
    if (name == "check_total") filled[1] = chapters(args[1]);
    if (name == "plug_total") filled[3] = chapters(args[3]), filled[4] = chapters(args[4]);
    return fill_placeholders(translate(l.english), filled);
}

std::vector<std::string> script_line_names() {
    std::vector<std::string> names;
    for (const Line& l : lines) names.push_back(l.name);
    return names;
}
