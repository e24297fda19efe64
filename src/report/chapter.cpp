// chapter.cpp — loading, reporting and exit codes for every chapter program.
#include "report/chapter.h"

#include "report/chapter_list.h"
#include "report/book_index.h"
#include "report/html_page.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "core/allocation.h"
#include "core/product_loops.h"
#include "fast/threads.h"
#include "io/atomic_file.h"
#include "io/platform.h"
#include "model/decoding/decoding.h"
#include "report/measure.h"
#include "report/simple_factor.h"
#include "report/tutorial_numbers.h"
#include "text/translate.h"

namespace {

// make check's tally: with CHECK_TALLY naming a file, each --check adds its line "name passed
// failed" to it, which the Makefile sums up in its closing line (in the reader's language, not
// read back from the sentences above). A file that cannot be opened is no tally.
void tally(const std::string& chapter, std::size_t passed, std::size_t failed) {
    const char* path = std::getenv("CHECK_TALLY");
    if (!path || !*path) return;
    std::ofstream out(path, std::ios::app);
    out << chapter << " " << passed << " " << failed << "\n";
}

// Whether this program was built without the fast loops (make PLAIN=1: core/product_loops.h).
bool plain_products() { return std::string(product_loops().name) == "plain"; }

std::size_t count_errata(const std::vector<PrintedCheck>& checks) {
    std::size_t wrong = 0;
    for (const PrintedCheck& c : checks) wrong += c.erratum;
    return wrong;
}

// The last step of every walkthrough: the tutorial's printed numbers recomputed (where the data
// file holds them), and what it gets wrong here.
void narrate_corrections(Narration& n, const Chapter& ch, const std::vector<PrintedCheck>& checks) {
    const std::string changed = own_inputs_changed(ch.data);
    if (checks.empty() && ch.corrections().empty() && changed.empty()) return;
    n.step(tr("What the tutorial gets wrong here"));
    const std::size_t wrong = count_errata(checks);
    if (checks.size() == 1 && wrong == 0)
        n.paragraph(tr("The one number it prints for this chapter is a correct rounding of the "
                       "exact value."),
                    "", "");
    else if (!checks.empty() && wrong == 0)
        n.paragraph(tr("Every one of the {} numbers it prints for this chapter is a correct "
                       "rounding of the exact value.",
                       checks.size()),
                    "", "");
    if (wrong > 0)
        n.paragraph(tr("Of the {} numbers it prints for this chapter, {} are not correct roundings "
                       "of the exact values:",
                       checks.size(), wrong),
                    "", "");
    for (const PrintedCheck& c : checks)
        if (c.erratum)
            n.wrong_number(ch.title_of(c.name) + "[" + std::to_string(c.row) + "," +
                               std::to_string(c.col) + "]",
                           c.printed.text, round_like(c.exact, c.printed), general(c.exact, 10));
    if (!changed.empty())
        n.paragraph(
            tr("(The tutorial's printed numbers belong to its own inputs; this file's {} is "
               "different, so they are not judged.)",
               changed),
            "", "");
    for (const auto& [where, what] : ch.corrections()) n.correction(where, what);
}

// got / expected as a simple number, when it is one (report/simple_factor.h); "" otherwise.
std::string factor_of(const Mismatch& m) {
    char* end_got = nullptr;
    char* end_expected = nullptr;
    const double got = std::strtod(m.got.c_str(), &end_got);
    const double expected = std::strtod(m.expected.c_str(), &end_expected);
    if (*end_got != '\0' || *end_expected != '\0' || expected == 0 || got == 0) return "";
    return simple_factor(got / expected);
}

void print_mismatches(std::ostream& out, const std::vector<Mismatch>& rows,
                      std::size_t limit = 40) {
    // got ÷ expected: shown where it is a simple number (√5: a scale 1/√5 left out)
    Table table({tr("name"), tr("index"), tr("got"), tr("expected"), "|diff|", tr("tolerance"),
                 tr("got ÷ expected")});
    std::size_t factors = 0;
    for (std::size_t i = 0; i < rows.size() && i < limit; ++i) {
        const Mismatch& m = rows[i];
        const bool shape = m.index == "shape";
        const std::string factor = shape ? "" : factor_of(m);
        factors += !factor.empty();
        table.add({m.name, m.index, m.got, m.expected, shape ? "-" : sci(m.diff),
                   shape ? "-" : sci(m.tol), factor});
    }
    table.print(out);
    if (rows.size() > limit)
        out << tr("... and {} more mismatches", rows.size() - limit) << "\n";
    if (factors > 0)
        out << wrap(tr("(where got ÷ expected is a simple number such as √5, one factor moved "
                       "those values: a scale added or left out, as attention's 1/√d_k, does so)"),
                    100, "", " ");
}

// --check: every result against expected, and our errata against the oracle's list. When the
// inputs were edited since the expected values were computed, it says so and what to run.
int check(const ChapterInfo& info, const Chapter& ch, const std::vector<PrintedCheck>& printed) {
    CheckReport r = check_results(ch.results, ch.data);
    r.add(check_errata(printed, ch.data));
    const std::vector<std::string> edited = inputs_changed_since_expected(ch.data);
    std::string edited_list;
    for (const std::string& k : edited) edited_list += (edited_list.empty() ? "" : ", ") + k;
    const std::string rewrite = "make rewrite FILE=" + ch.data.path();
    if (r.failed && !edited.empty())
        std::cout << tr("{} --check: {} not what this file's expected values were computed from; "
                        "{} recomputes them (with the oracle), then --check again",
                        info.name,
                        edited.size() == 1 ? tr("{} is", edited_list) : tr("{} are", edited_list),
                        rewrite)
                  << "\n";
    if (r.failed) {
        std::cout << tr("{} --check: mismatches against {}", info.name, ch.data.path()) << "\n";
        print_mismatches(std::cout, r.mismatches);
    }
    // the summary's parts after the data file, each in the reader's language
    std::vector<std::string> parts = {ch.data.path()};
    if (!printed.empty())
        parts.push_back(tr("{} printed tutorial numbers judged, {} errata as the oracle lists",
                           printed.size(), count_errata(printed)));
    else if (const std::size_t unjudged = printed_count(ch.data); unjudged > 0)
        parts.push_back(tr("the tutorial's {} printed numbers not judged: they belong to "
                           "tutorial.inputs",
                           unjudged));
    if (!edited.empty()) parts.push_back(tr("inputs edited since: {} — {}", edited_list, rewrite));
    parts.push_back(threads_used());
    if (plain_products()) parts.push_back(tr("every product through core/matmul.cpp's plain loop"));
    std::string within;
    for (const std::string& part : parts) within += (within.empty() ? "" : tr("; ")) + part;
    std::cout << tr("{} --check: {} passed, {} failed ({})", info.name, r.passed, r.failed, within)
              << "\n";
    tally(info.name, r.passed, r.failed);
    return r.failed ? 1 : 0;
}

// --html: the page, with the --check summary of this very run at its end.
void write_page(const ChapterInfo& info, const Chapter& ch, const HtmlPage& page,
                const std::vector<PrintedCheck>& printed) {
    CheckReport r = check_results(ch.results, ch.data);
    r.add(check_errata(printed, ch.data));
    // Inputs edited (a reader's data file, the live book's panel) and results that differ: the
    // expected values belong to the inputs they were computed from, so the line says how many
    // still equal them, not that the rest "failed".
    std::string edited;
    for (const std::string& k : inputs_changed_since_expected(ch.data))
        edited += (edited.empty() ? "" : ", ") + k;
    HtmlPage::Frame f{
        info.name,
        tr(info.title),
        tr(info.follows),
        tr("en"),
        r.passed + r.failed == 0  // (chapter 12's --write, chapter 14's --poem)
            ? tr("{}: this run computes nothing {} holds expected values for, so nothing is "
                 "checked",
                 info.name, ch.data.path())
        : edited.empty() || r.failed == 0  // (inputs only the timings read may differ: all pass)
            ? tr("{} --check: {} passed, {} failed ({})", info.name, r.passed, r.failed,
                 ch.data.path())
            : tr("{}: edited inputs ({}): the expected values in {} were computed from other "
                 "inputs, so nothing is checked against them; {} of {} results still equal them",
                 info.name, edited, ch.data.path(), r.passed, r.passed + r.failed),
        "",
        ""};
    f.live = ch.options.live;
    if (f.live) {  // the panel starts from the data file this page was computed from
        std::ifstream in = open_for_reading(ch.data.path());
        f.live_data.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::vector<std::string>& book = chapter_names();
    const std::size_t n = book.size();
    for (std::size_t i = 0; i < n; ++i)
        if (info.name == book[i]) {
            if (i > 0) f.previous = book[i - 1];
            if (i + 1 < n) f.next = book[i + 1];
        }
    // make book's layout, build/book/en/ and build/book/zh/: each page links to its twin
    std::string dir_name = ch.options.html_dir;
    while (dir_name.size() > 1 && (dir_name.back() == '/' || dir_name.back() == '\\'))
        dir_name.pop_back();
    dir_name = dir_name.substr(dir_name.find_last_of("/\\") + 1);
    if (dir_name == "en") f.other_book = "zh";
    if (dir_name == "zh") f.other_book = "en";
    write_file_atomically(ch.options.html_dir, info.name + ".html", page.page(f));
    write_book_index(ch.options.html_dir, f);
}

int report(const ChapterInfo& info, Chapter& ch) {
    const std::vector<PrintedCheck> printed = compare_printed(ch.results, ch.data);
    if (ch.options.json) {
        ch.measured("threads", thread_count());
        std::cout << results_json(ch.results) << "\n";
        return 0;
    }
    if (ch.options.check) return check(info, ch, printed);
    narrate_corrections(ch.narration(), ch, printed);
    // how many threads the large loops shared out their work among (fast/threads.h)
    if (thread_count() == 1)
        ch.say(
            tr("Run on one thread (OMP_NUM_THREADS=1, one core, or a build without OpenMP); on "
               "more, the large products share out their work, and every number stays the same."));
    else
        ch.say(
            tr("Run on {} (the cores, or OMP_NUM_THREADS): the large products share out their "
               "work; every number is the same on any count.",
               threads_used()));
    if (plain_products())
        ch.say(tr("Built with make PLAIN=1: every matrix product ran through the plain loop of "
                  "core/matmul.cpp, not the fast loops (the same numbers, bit for bit, more "
                  "slowly)."));
    if (ch.options.has("--svg")) {
        ch.step(tr("Pictures"));
        for (const auto& f : ch.figures())
            ch.line(tr("wrote {}/{}", ch.options.value("--svg"), f.first));
    }
    return 0;
}

bool all_finite(const Matrix& m) {
    for (double x : m.data)
        if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

void Chapter::show(const std::string& key, const std::string& title, const Matrix& m,
                   const Labels& rows, const Labels& cols, int decimals, double tol) {
    record(key, m, Shape::Matrix, tol);  // first: a value that is not finite is never printed
    titles_[key] = title;
    matrix(title, m, rows, cols, decimals);
}

std::string Chapter::title_of(const std::string& key) const {
    const auto it = titles_.find(key);
    return it == titles_.end() ? key : it->second;
}

void Chapter::record(const std::string& key, const Matrix& m, Shape shape, double tol) {
    // under make plug (tests/exercises/plug.sh names the reader's function) the NaN is most
    // likely that function's, not the data file's
    const char* plugged = std::getenv("PLUGGED_FUNCTION");
    if (!all_finite(m) && plugged && *plugged)
        throw UsageError(tr("result {} is not finite (NaN or infinity): your {}, plugged in, "
                            "computed a NaN or an infinity on the way",
                            key, plugged));
    if (!all_finite(m))
        throw data.error("inputs",
                         tr("result {} is not finite (NaN or infinity); expected inputs small "
                            "enough for float64",
                            key));
    results.add(key, m, shape, tol);
}

void Chapter::record_number(const std::string& key, double x, double tol) {
    record(key, Matrix{{x}}, Shape::Number, tol);
}

void Chapter::measured(const std::string& key, double x) {
    if (!std::isfinite(x))
        throw data.error("inputs", tr("measurement {} is not finite; expected inputs that give "
                                      "a finite one",
                                      key));
    results.add_measurement(key, x);
}

void Chapter::picture(const std::string& file_name, const std::string& svg) {
    figures_.push_back({file_name, svg});
    narration_.picture(file_name, svg);
}

std::runtime_error non_finite_model(const std::string& file, std::size_t step) {
    return std::runtime_error(
        tr("{}: decoding step {}: the model's logits are not all finite (weights so large that "
           "they overflow, or not numbers); expected a model whose outputs are finite",
           file, step));
}

int run_chapter(int argc, char** argv_as_given, const ChapterInfo& info,
                const Walkthrough& walkthrough) {
    reuse_freed_memory();
    prepare_console();
    Utf8Arguments arguments(argc, argv_as_given);  // on Windows, read again as UTF-8
    char** const argv = arguments.argv();
    std::string where = info.name;
    try {
        choose_language(argc, argv);
        if (print_help_if_asked(argc, argv, info)) return 0;
        const Options options = parse_flags(argc, argv, info);
        where = options.data_path;
        const DataFile data = DataFile::load(options.data_path);
        if (options.has("--svg")) {  // the directory made, and found writable, before any work
            make_directory(options.value("--svg"));
            check_writable(options.value("--svg") + "/" + info.name + ".svg");
        }
        // the narration streams to the terminal as it is computed; --json and --check print
        // only their own output
        TerminalNarration terminal(std::cout);
        SilentNarration silent;
        HtmlPage page;
        if (!options.html_dir.empty()) {  // the page's folder made, and writable, before any work
            make_directory(options.html_dir);
            check_writable(options.html_dir + "/" + info.name + ".html");
        }
        Narration& narration = options.json || options.check ? static_cast<Narration&>(silent)
                               : options.html_dir.empty()    ? static_cast<Narration&>(terminal)
                                                             : page;
        Chapter chapter(data, options, narration);
        walkthrough(chapter);
        if (options.has("--svg"))
            for (const auto& f : chapter.figures())
                write_file_atomically(options.value("--svg"), f.first, f.second);
        const int status = report(info, chapter);
        if (!options.html_dir.empty()) {
            write_page(info, chapter, page, compare_printed(chapter.results, chapter.data));
            std::cout << tr("wrote {}/{}.html", options.html_dir, info.name) << "\n";
        }
        return status;
    } catch (const UsageError& e) {
        std::cerr << one_line(tr("error: {}: {}", info.name, e.what())) << "\n";
    } catch (const NonFiniteLogits& e) {
        std::cerr << one_line(tr("error: {}", non_finite_model(where, e.step).what())) << "\n";
    } catch (const std::runtime_error& e) {  // DataError, or a file that cannot be written
        std::cerr << one_line(tr("error: {}", e.what())) << "\n";
    } catch (const std::exception& e) {
        // a shape or range problem the chapter's own validation did not name
        std::cerr << one_line(tr("error: {}: {}", where, e.what())) << "\n";
    }
    return 2;
}
