// chapter.cpp — flags, loading and reporting for every chapter program.
#include "report/chapter.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "io/atomic_file.h"
#include "report/tutorial_numbers.h"

namespace {

void print_help(const ChapterInfo& info) {
    std::cout << info.name << " — " << info.title << "\n"
              << "Follows the tutorial: " << info.follows << "\n\n"
              << "usage: build/" << info.name << " [flags]\n\n"
              << "  --data FILE   use another data file of the same schema (default data/"
              << info.name << ".json)\n"
              << "  --json        print every computed result as one JSON object, nothing else\n"
              << "  --check       compare every result with the data file's expected values;\n"
              << "                exit 1 and print a table of mismatches if any differ\n";
    for (const Flag& f : info.extra_flags) {
        const std::string left = f.name + (f.value.empty() ? "" : " " + f.value);
        std::cout << "  " << left << std::string(left.size() < 14 ? 14 - left.size() : 1, ' ')
                  << f.help << "\n";
    }
    std::cout << "  --help        this text\n\n"
              << "Exit codes: 0 success, 1 a --check mismatch, 2 bad input or flags.\n";
}

// The default data file: data/<name>.json from the working directory, else beside the
// program's build/ directory (so build/chNN works from anywhere).
std::string default_data_path(const std::string& name, const char* argv0) {
    const std::string rel = "data/" + name + ".json";
    if (std::ifstream(rel)) return rel;
    std::string exe = argv0 ? argv0 : "";
    const std::size_t slash = exe.rfind('/');
    if (slash == std::string::npos) return rel;
    const std::string beside = exe.substr(0, slash) + "/../" + rel;
    return std::ifstream(beside) ? beside : rel;
}

Options parse_flags(int argc, char** argv, const ChapterInfo& info) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const std::string& flag) -> std::string {
            if (i + 1 >= argc) throw UsageError(flag + ": expected a value after it");
            return argv[++i];
        };
        if (a == "--json") o.json = true;
        else if (a == "--check") o.check = true;
        else if (a == "--data") o.data_path = value(a);
        else {
            bool known = false;
            for (const Flag& f : info.extra_flags)
                if (a == f.name) {
                    o.extra[a] = f.value.empty() ? "" : value(a);
                    known = true;
                }
            if (!known) throw UsageError(a + ": unknown flag (see --help)");
        }
    }
    if (o.json && o.check) throw UsageError("--json and --check: choose one");
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
    print_step(out, "What the tutorial gets wrong here");
    const std::size_t wrong = count_errata(checks);
    if (checks.size() == 1 && wrong == 0)
        out << "The one number it prints for this chapter is a correct rounding of the exact value.\n";
    else if (!checks.empty() && wrong == 0)
        out << "Every one of the " << checks.size()
            << " numbers it prints for this chapter is a correct rounding "
            << "of the exact value.\n";
    if (wrong > 0)
        out << "Of the " << checks.size() << " numbers it prints for this chapter, " << wrong
            << " are not correct roundings of the exact values:\n";
    for (const PrintedCheck& c : checks)
        if (c.erratum)
            out << wrap(c.name + "[" + std::to_string(c.row) + "," + std::to_string(c.col) +
                            "]: printed " + c.printed.text + ", correctly rounded " +
                            round_like(c.exact, c.printed) + " (exactly " + general(c.exact, 10) +
                            ")",
                        narration_width, "  erratum: ", "    ");
    if (!changed.empty())
        out << "(The tutorial's printed numbers belong to its own inputs; this file's " << changed
            << " is different, so they are not judged.)\n";
    for (const auto& [where, what] : ch.corrections())
        out << wrap(what, narration_width, "• " + where + ": ", "  ");
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
        print_step(std::cout, "Pictures");
        for (const auto& f : ch.results.figures())
            std::cout << "wrote " << ch.options.value("--svg") << "/" << f.first << "\n";
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
        throw data.error("inputs", "result " + key +
                                       " is not finite (NaN or infinity); expected inputs small "
                                       "enough for float64");
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
        throw UsageError(flag + ": expected a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max));
    return x;
}

double Options::number(const std::string& flag, double min, double max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(x >= min && x <= max))
        throw UsageError(flag + ": expected a number from " + general(min, 6) + " to " +
                         general(max, 6));
    return x;
}

int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
            print_help(info);
            return 0;
        }
    std::string where = info.name;
    try {
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
        std::cerr << "error: " << info.name << ": " << e.what() << "\n";
    } catch (const std::runtime_error& e) {  // DataError, or a file that cannot be written
        std::cerr << "error: " << e.what() << "\n";
    } catch (const std::exception& e) {
        // a shape or range problem the chapter's own validation did not name
        std::cerr << "error: " << where << ": " << e.what() << "\n";
    }
    return 2;
}
