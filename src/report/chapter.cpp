// chapter.cpp — flags, loading and reporting for every chapter program.
#include "report/chapter.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "core/translate.h"
#include "io/atomic_file.h"
#include "io/catalog.h"
#include "report/tutorial_numbers.h"

namespace {

// One flag of --help: the flag and its value's name in 14 columns, then what it does.
void print_flag(const std::string& left, const std::string& help) {
    std::cout << wrap(help, narration_width,
                      "  " + left + std::string(left.size() < 14 ? 14 - left.size() : 1, ' '),
                      std::string(16, ' '));
}

void print_help(const ChapterInfo& info) {
    std::cout << info.name << " — " << tr(info.title) << "\n"
              << tr("Follows the tutorial: {}", tr(info.follows)) << "\n\n"
              << tr("usage: build/{} [flags]", info.name) << "\n\n";
    print_flag("--data FILE",
               tr("use another data file of the same schema (default data/{}.json)", info.name));
    print_flag("--json", tr("print every computed result as one JSON object, nothing else"));
    print_flag("--check",
               tr("compare every result with the data file's expected values; exit 1 and print a "
                  "table of mismatches if any differ"));
    for (const Flag& f : info.extra_flags)
        print_flag(f.name + (f.value.empty() ? "" : " " + f.value), tr(f.help));
    print_flag("--lang zh|en",
               tr("the language of the narration (default: from LC_ALL, LC_MESSAGES or LANG; a "
                  "zh… locale gives Chinese)"));
    print_flag("--help", tr("this text"));
    std::cout << "\n"
              << tr("Exit codes: 0 success, 1 a --check mismatch, 2 bad input or flags.") << "\n";
}

// A file of the project's data/ folder: from the working directory, else beside the program's
// build/ directory (so build/chNN works from anywhere).
std::string data_folder_path(const std::string& rel, const char* argv0) {
    if (std::ifstream(rel)) return rel;
    std::string exe = argv0 ? argv0 : "";
    const std::size_t slash = exe.rfind('/');
    if (slash == std::string::npos) return rel;
    const std::string beside = exe.substr(0, slash) + "/../" + rel;
    return std::ifstream(beside) ? beside : rel;
}

std::string default_data_path(const std::string& name, const char* argv0) {
    return data_folder_path("data/" + name + ".json", argv0);
}

// --lang zh|en; without it the locale: the first of LC_ALL, LC_MESSAGES, LANG that is set (the
// order the C library reads them in), Chinese when it starts with "zh". Chinese loads the
// catalog; one the locale asked for but that cannot be found leaves the narration English.
void choose_language(int argc, char** argv) {
    std::string lang;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--lang") {
            if (i + 1 >= argc) throw UsageError(tr("--lang: expected zh or en after it"));
            lang = argv[i + 1];
            if (lang != "zh" && lang != "en")
                throw UsageError(tr("--lang: expected zh or en, got \"{}\"", lang));
        }
    bool asked = !lang.empty();
    for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* v = std::getenv(var);
        if (!lang.empty() || !v || !*v) continue;
        lang = std::string(v).rfind("zh", 0) == 0 ? "zh" : "en";
    }
    if (lang != "zh") return set_translations(Language::English, {});
    const std::string path =
        data_folder_path("data/translations/zh.json", argc > 0 ? argv[0] : nullptr);
    if (!asked && !std::ifstream(path)) return set_translations(Language::English, {});
    set_translations(Language::Chinese, load_catalog(path));
}

Options parse_flags(int argc, char** argv, const ChapterInfo& info) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const std::string& flag) -> std::string {
            if (i + 1 >= argc) throw UsageError(tr("{}: expected a value after it", flag));
            return argv[++i];
        };
        if (a == "--json") o.json = true;
        else if (a == "--check") o.check = true;
        else if (a == "--lang") value(a);  // chosen before the flags are read
        else if (a == "--data") o.data_path = value(a);
        else {
            bool known = false;
            for (const Flag& f : info.extra_flags)
                if (a == f.name) {
                    o.extra[a] = f.value.empty() ? "" : value(a);
                    known = true;
                }
            if (!known) throw UsageError(tr("{}: unknown flag (see --help)", a));
        }
    }
    if (o.json && o.check) throw UsageError(tr("--json and --check: choose one"));
    const std::string self = argc > 0 ? argv[0] : "";
    if (self.rfind('/') != std::string::npos) o.program_dir = self.substr(0, self.rfind('/'));
    if (o.data_path.empty())
        o.data_path = default_data_path(info.name, argc > 0 ? argv[0] : nullptr);
    return o;
}

std::size_t count_errata(const std::vector<PrintedCheck>& checks) {
    std::size_t wrong = 0;
    for (const PrintedCheck& c : checks) wrong += c.erratum;
    return wrong;
}

// The last step of every walkthrough: the tutorial's printed numbers recomputed (where the data
// file holds them), and what it gets wrong here.
void print_corrections(std::ostream& out, const Chapter& ch,
                       const std::vector<PrintedCheck>& checks) {
    const std::string changed = own_inputs_changed(ch.data);
    if (checks.empty() && ch.corrections().empty() && changed.empty()) return;
    print_step(out, tr("What the tutorial gets wrong here"));
    const std::size_t wrong = count_errata(checks);
    if (checks.size() == 1 && wrong == 0)
        out << wrap(
            tr("The one number it prints for this chapter is a correct rounding of the exact value."),
            narration_width);
    else if (!checks.empty() && wrong == 0)
        out << wrap(
            tr("Every one of the {} numbers it prints for this chapter is a correct rounding of the "
               "exact value.",
               checks.size()),
            narration_width);
    if (wrong > 0)
        out << wrap(
            tr("Of the {} numbers it prints for this chapter, {} are not correct roundings of the "
               "exact values:",
               checks.size(), wrong),
            narration_width);
    for (const PrintedCheck& c : checks)
        if (c.erratum)
            out << wrap(
                tr("{}[{},{}]: printed {}, correctly rounded {} (exactly {})", c.name, c.row, c.col,
                   c.printed.text, round_like(c.exact, c.printed), general(c.exact, 10)),
                narration_width, tr("  erratum: "), "    ");
    if (!changed.empty())
        out << wrap(
            tr("(The tutorial's printed numbers belong to its own inputs; this file's {} is different, "
               "so they are not judged.)",
               changed),
            narration_width);
    for (const auto& [where, what] : ch.corrections())
        out << wrap(what, narration_width, tr("• {}: ", where), "  ");
}

// --check: every result against expected, and our errata against the oracle's list.
int check(const ChapterInfo& info, const Chapter& ch, const std::vector<PrintedCheck>& printed) {
    CheckReport r = check_results(ch.results, ch.data);
    r.add(check_errata(printed, ch.data));
    if (r.failed) {
        std::cout << info.name << " --check: mismatches against " << ch.data.path() << "\n";
        print_mismatches(std::cout, r.mismatches);
    }
    std::cout << info.name << " --check: " << r.passed << " passed, " << r.failed << " failed"
              << " (" << ch.data.path();
    if (!printed.empty())
        std::cout << "; " << printed.size() << " printed tutorial numbers judged, "
                  << count_errata(printed) << " errata as the oracle lists";
    std::cout << ")\n";
    return r.failed ? 1 : 0;
}

int report(const ChapterInfo& info, const Chapter& ch) {
    const std::vector<PrintedCheck> printed = compare_printed(ch.results, ch.data);
    if (ch.options.json) {
        std::cout << ch.results.to_json().dump(2) << "\n";
        return 0;
    }
    if (ch.options.check) return check(info, ch, printed);
    print_corrections(std::cout, ch, printed);
    if (ch.options.has("--svg")) {
        print_step(std::cout, tr("Pictures"));
        for (const auto& f : ch.results.figures())
            std::cout << tr("wrote {}/{}", ch.options.value("--svg"), f.first) << "\n";
    }
    return 0;
}

bool all_finite(const Matrix& m) {
    for (double x : m.data)
        if (!std::isfinite(x)) return false;
    return true;
}

}  // namespace

void Chapter::step(const std::string& title) const { print_step(out, title); }

void Chapter::say(const std::string& paragraph) const { out << wrap(paragraph, narration_width); }

void Chapter::show(const std::string& key, const std::string& title, const Matrix& m,
                   const Labels& rows, const Labels& cols, int decimals, double tol) {
    record(key, m, Shape::Matrix, tol);  // first: a value that is not finite is never printed
    print_matrix(out, title, m, rows, cols, decimals);
}

void Chapter::record(const std::string& key, const Matrix& m, Shape shape, double tol) {
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

void Chapter::measured(const std::string& key, double x) { results.add_measurement(key, x); }

void Chapter::reported(const std::string& key, const Json& value) { results.add_json(key, value); }

void Chapter::picture(const std::string& file_name, const std::string& svg) {
    results.add_figure(file_name, svg);
}

void Chapter::correction(const std::string& where, const std::string& what) {
    corrections_.push_back({where, what});
}

long Options::integer(const std::string& flag, long min, long max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x < min || x > max)
        throw UsageError(tr("{}: expected a whole number from {} to {}", flag, min, max));
    return x;
}

double Options::number(const std::string& flag, double min, double max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(x >= min && x <= max))
        throw UsageError(
            tr("{}: expected a number from {} to {}", flag, general(min, 6), general(max, 6)));
    return x;
}

int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough) {
    std::string where = info.name;
    try {
        choose_language(argc, argv);
        for (int i = 1; i < argc; ++i)
            if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
                print_help(info);
                return 0;
            }
        const Options options = parse_flags(argc, argv, info);
        where = options.data_path;
        const DataFile data = DataFile::load(options.data_path);
        if (options.has("--svg")) check_writable(options.value("--svg") + "/" + info.name + ".svg");
        // the narration streams to the terminal as it is computed; --json and --check print
        // only their own output, so there it goes nowhere (an ostream without a buffer)
        std::ostream nowhere(nullptr);
        Chapter chapter(data, options, options.json || options.check ? nowhere : std::cout);
        walkthrough(chapter);
        if (options.has("--svg"))
            for (const auto& f : chapter.results.figures())
                write_file_atomically(options.value("--svg"), f.first, f.second);
        return report(info, chapter);
    } catch (const UsageError& e) {
        std::cerr << tr("error: ") << info.name << ": " << e.what() << "\n";
    } catch (const std::runtime_error& e) {  // DataError, or a file that cannot be written
        std::cerr << tr("error: ") << e.what() << "\n";
    } catch (const std::exception& e) {
        // a shape or range problem the chapter's own validation did not name
        std::cerr << tr("error: ") << where << ": " << e.what() << "\n";
    }
    return 2;
}
