// options.cpp — flags, --help, and the language of the narration.
#include "report/options.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "io/catalog.h"
#include "io/data_file.h"
#include "io/platform.h"
#include "report/narration.h"
#include "text/numbers.h"
#include "text/translate.h"

namespace {

// One flag of --help: the flag and its value's name in 14 columns, then what it does.
// A flag and its help, the help in a column after the widest flag of the chapter.
void print_flag(const std::string& left, const std::string& help, std::size_t column) {
    std::cout << wrap(help, narration_width,
                      "  " + left + std::string(column > left.size() ? column - left.size() : 1, ' '),
                      std::string(column + 2, ' '));
}

void print_help(const ChapterInfo& info) {
    std::cout << wrap(info.name + " — " + tr(info.title), narration_width, "", "  ")
              << wrap(tr("Follows the tutorial: {}", tr(info.follows)), narration_width, "", "  ")
              << "\n"
              << tr("usage: build/{} [flags]", info.name) << "\n\n";
    std::size_t column = 14;  // the widest flag, and two spaces
    for (const Flag& f : info.extra_flags)
        column = std::max(column, f.name.size() + 1 + f.value.size() + 2);
    const auto print_flag = [column](const std::string& left, const std::string& help) {
        ::print_flag(left, help, column);
    };
    print_flag("--data FILE",
               tr("use another data file of the same schema (default data/{}.json)", info.name));
    print_flag("--json", tr("print every computed result as one JSON object, nothing else"));
    print_flag("--check",
               tr("compare every result with the data file's expected values; exit 1 and print a "
                  "table of mismatches if any differ"));
    print_flag("--html DIR",
               tr("write the walkthrough as a web page, DIR/{}.html, its pictures inline (make "
                  "book writes every chapter's)",
                  info.name));
    print_flag("--live",
               tr("with --html: the page gets a panel to change the inputs and recompute them in "
                  "the browser, by this program compiled to WebAssembly (it loads "
                  "../live/live_book.js: make book puts it there)"));
    print_flag("--cache DIR",
               info.kept.empty()
                   ? tr("keep a long computation that depends on few inputs in DIR, and read it "
                        "back when those inputs are the same (the live book passes it to every "
                        "chapter; this one has none to keep)")
                   : tr("keep a long computation that depends on few inputs ({}) in DIR, and read "
                        "it back when those inputs are the same (the live book does)",
                        tr(info.kept)));
    for (const Flag& f : info.extra_flags)
        print_flag(f.name + (f.value.empty() ? "" : " " + f.value), tr(f.help));
    print_flag("--lang zh|en",
               tr("the language of the narration (default: from LC_ALL, LC_MESSAGES or LANG; a "
                  "zh… locale gives Chinese)"));
    print_flag("--help", tr("this text"));
    if (!info.see_also.empty()) std::cout << "\n" << wrap(tr(info.see_also), narration_width, "", "");
    std::cout << "\n"
              << tr("Exit codes: 0 success, 1 a --check mismatch, 2 bad input or flags.") << "\n";
}

std::string default_data_path(const std::string& name, const char* argv0) {
    return data_folder_path("data/" + name + ".json", argv0);
}

// The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set (the
// order the C library reads them in), Chinese when it starts with "zh"; where none is set (a
// Windows console), the system's display language.
std::string locale_language() {
    for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* v = std::getenv(var);
        if (v && *v) return std::string(v).rfind("zh", 0) == 0 ? "zh" : "en";
    }
    return system_language() == "zh" ? "zh" : "en";
}

}  // namespace

std::string data_folder_path(const std::string& rel, const char* argv0) {
    if (open_for_reading(rel)) return rel;
    std::string exe = argv0 ? argv0 : "";
    const std::size_t slash = exe.find_last_of("/\\");  // Windows writes either
    if (slash == std::string::npos) return rel;
    const std::string beside = exe.substr(0, slash) + "/../" + rel;
    return open_for_reading(beside) ? beside : rel;
}

// --lang zh|en; without it (or with a value that is neither) the locale's. Chinese loads the
// catalog. A catalog that cannot be used stops the program when --lang zh asked for it, and
// otherwise leaves the narration English with one warning. A bad --lang is reported after the
// language is chosen, so that a reader under a Chinese locale reads the error in Chinese.
void choose_language(int argc, char** argv) {
    std::string asked;
    bool flag_given = false;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--lang") {
            flag_given = true;
            asked = i + 1 < argc ? argv[i + 1] : "";
        }
    const bool valid = asked == "zh" || asked == "en";
    const std::string lang = valid ? asked : locale_language();
    set_translations(Language::English, {});
    if (lang == "zh") {
        const std::string path =
            data_folder_path("data/translations/zh.json", argc > 0 ? argv[0] : nullptr);
        try {
            set_translations(Language::Chinese, load_catalog(path));
        } catch (const DataError& e) {
            if (valid) throw;  // --lang zh, explicitly: the reader must know why it is English
            std::cerr << "warning: " << e.what() << "; narrating in English\n";
        }
    }
    if (flag_given && asked.empty()) throw UsageError(tr("--lang: expected zh or en after it"));
    if (flag_given && !valid) throw UsageError(tr("--lang: expected zh or en, got \"{}\"", asked));
}

bool print_help_if_asked(int argc, char** argv, const ChapterInfo& info) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
            print_help(info);
            return true;
        }
    return false;
}

Flag svg_flag() {
    return {"--svg", "DIR", N_("write the chapter's pictures as SVG files into DIR")};
}

Options parse_flags(int argc, char** argv, const ChapterInfo& info) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const std::string& flag) -> std::string {
            if (i + 1 >= argc) throw UsageError(tr("{}: expected a value after it", flag));
            const std::string v = argv[++i];
            if (v.empty()) throw UsageError(tr("{}: expected a value, got an empty one", flag));
            return v;
        };
        if (a == "--json")
            o.json = true;
        else if (a == "--check")
            o.check = true;
        else if (a == "--lang")
            ++i;  // chosen before the flags are read
        else if (a == "--data")
            o.data_path = value(a), o.data_given = true;
        else if (a == "--html")
            o.html_dir = value(a);
        else if (a == "--live")
            o.live = true;
        else if (a == "--cache")
            o.cache_dir = value(a);
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
    if (!o.html_dir.empty() && (o.json || o.check))
        throw UsageError(tr("--html writes the walkthrough: not with --json or --check"));
    if (o.live && o.html_dir.empty())
        throw UsageError(tr("--live makes the page of --html live: give --html DIR too"));
    const std::string self = argc > 0 ? argv[0] : "";
    const std::size_t slash = self.find_last_of("/\\");
    if (slash != std::string::npos) o.program_dir = self.substr(0, slash);
    if (!o.data_given) o.data_path = default_data_path(info.name, argc > 0 ? argv[0] : nullptr);
    return o;
}

std::int64_t Options::integer(const std::string& flag, std::int64_t min, std::int64_t max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    // strtoll would skip leading spaces, as strtod does: " 5" is refused as "5 " is
    if (v.empty() || std::isspace(static_cast<unsigned char>(v[0])) || *end != '\0' || errno == ERANGE || x < min || x > max)
        throw UsageError(tr("{}: expected a whole number from {} to {}", flag, min, max));
    return x;
}

std::string Options::text(const std::string& flag) const {
    std::string t = extra.at(flag);
    for (std::size_t at = 0; (at = t.find("\\n", at)) != std::string::npos; ++at) t.replace(at, 2, "\n");
    return t;
}

double Options::number(const std::string& flag, double min, double max) const {
    const std::string& v = extra.at(flag);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || std::isspace(static_cast<unsigned char>(v[0])) || *end != '\0' || !(x >= min && x <= max))
        throw UsageError(
            tr("{}: expected a number from {} to {}", flag, general(min, 6), general(max, 6)));
    return x;
}
