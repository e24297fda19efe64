// chapter.cpp — flags, loading and reporting for every chapter program.
#include "chapter.h"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "print.h"
#include "printed.h"

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void print_help(const ChapterInfo& info) {
    std::cout << info.name << " — " << info.title << "\n"
              << "Follows the tutorial: " << info.follows << "\n\n"
              << "usage: build/" << info.name << " [flags]\n\n"
              << "  --data FILE   use another data file of the same schema (default data/" << info.name << ".json)\n"
              << "  --json        print every computed result as one JSON object, nothing else\n"
              << "  --check       compare every result with the data file's expected values;\n"
              << "                exit 1 and print a table of mismatches if any differ\n";
    for (const Flag& f : info.extra_flags)
        std::cout << "  " << f.name << (f.value.empty() ? "" : " " + f.value)
                  << std::string(f.name.size() + f.value.size() < 12 ? 12 - f.name.size() - f.value.size() : 1, ' ')
                  << f.help << "\n";
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
        if (a == "--json") { o.json = true; continue; }
        if (a == "--check") { o.check = true; continue; }
        if (a == "--data") { o.data_path = value(a); continue; }
        bool known = false;
        for (const Flag& f : info.extra_flags) {
            if (a != f.name) continue;
            o.extra[a] = f.value.empty() ? "" : value(a);
            known = true;
        }
        if (!known) throw UsageError(a + ": unknown flag (see --help)");
    }
    if (o.json && o.check) throw UsageError("--json and --check: choose one");
    if (o.data_path.empty()) o.data_path = default_data_path(info.name, argc > 0 ? argv[0] : nullptr);
    return o;
}

std::size_t count_errata(const std::vector<PrintedCheck>& checks) {
    std::size_t wrong = 0;
    for (const PrintedCheck& c : checks) wrong += c.erratum;
    return wrong;
}

// The last step of every walkthrough whose data file holds numbers printed in the tutorial.
void print_errata(std::ostream& out, const std::vector<PrintedCheck>& checks) {
    const std::size_t wrong = count_errata(checks);
    print_step(out, "The tutorial's printed numbers, recomputed");
    out << "numbers the tutorial prints for this chapter: " << checks.size()
        << "; correct roundings of the exact values: " << checks.size() - wrong << "; errata: " << wrong << "\n";
    for (const PrintedCheck& c : checks)
        if (c.erratum)
            out << "erratum: " << c.name << "[" << c.row << "," << c.col << "]: the tutorial prints "
                << c.printed.text << ", the correct value is " << round_like(c.exact, c.printed)
                << " (exactly " << std::setprecision(10) << c.exact << ")\n";
}


int report(const ChapterInfo& info, const Options& o, const DataFile& data, const Results& results,
           const std::string& narration) {
    const std::vector<PrintedCheck> printed = compare_printed(results, data);
    if (o.json) {
        std::cout << results.to_json().dump(2) << "\n";
        return 0;
    }
    if (!o.check) {
        std::cout << narration;
        if (!printed.empty()) print_errata(std::cout, printed);
        if (o.has("--svg")) {
            print_step(std::cout, "Pictures");
            for (const auto& f : results.figures()) std::cout << "wrote " << o.extra.at("--svg") << "/" << f.first << "\n";
        }
        return 0;
    }
    CheckReport r = check_results(results, data);
    const CheckReport e = check_errata(printed, data);
    r.passed += e.passed;
    r.failed += e.failed;
    r.mismatches.insert(r.mismatches.end(), e.mismatches.begin(), e.mismatches.end());
    if (r.failed) {
        std::cout << info.name << " --check: mismatches against " << data.path() << "\n";
        print_mismatches(std::cout, r.mismatches);
    }
    std::cout << info.name << " --check: " << r.passed << " passed, " << r.failed << " failed"
              << " (" << data.path();
    if (!printed.empty())
        std::cout << "; " << printed.size() << " printed tutorial numbers judged, " << count_errata(printed)
                  << " errata as the oracle lists";
    std::cout << ")\n";
    return r.failed ? 1 : 0;
}

}  // namespace

long Options::integer(const std::string& flag, long min, long max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x < min || x > max)
        throw UsageError(flag + ": expected a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return x;
}

double Options::number(const std::string& flag, double min, double max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(x >= min && x <= max))
        throw UsageError(flag + ": expected a number from " + general(min, 6) + " to " + general(max, 6));
    return x;
}

int run_chapter(int argc, char** argv, const ChapterInfo& info, const Walkthrough& walkthrough) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
            print_help(info);
            return 0;
        }
    Options options;
    std::string where = info.name;
    try {
        options = parse_flags(argc, argv, info);
        where = options.data_path;
        const DataFile data = DataFile::load(options.data_path);
        // the walkthrough narrates into a buffer: nothing is printed unless everything worked
        std::ostringstream narration;
        Results results;
        walkthrough(data, options, narration, results);
        const std::string bad = results.first_not_finite();
        if (!bad.empty())
            throw DataError(data.path() + ", inputs: result " + bad +
                            " is not finite (NaN or infinity); expected inputs small enough for float64");
        if (options.has("--svg"))
            for (const auto& f : results.figures()) write_file_atomically(options.extra.at("--svg"), f.first, f.second);
        return report(info, options, data, results, narration.str());
    } catch (const UsageError& e) {
        std::cerr << "error: " << info.name << ": " << e.what() << "\n";
    } catch (const std::runtime_error& e) {  // DataError, or a file that cannot be written
        std::cerr << "error: " << e.what() << "\n";
    } catch (const std::exception& e) {
        // a shape or range problem the walkthrough's own validation did not name
        std::cerr << "error: " << where << ": " << e.what() << "\n";
    }
    return 2;
}
