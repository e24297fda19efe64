// exercise_runner.cpp — the commands of build/exercises.
#include "exercises/exercise_runner.h"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "exercises/checking.h"
#include "exercises/mistakes.h"
#include "io/atomic_file.h"
#include "io/data_file.h"
#include "io/platform.h"
#include "report/options.h"
#include "report/terminal.h"
#include "text/translate.h"

namespace {

struct Place {
    std::string data_dir;  // where data/ is: "" or "…/"
    std::string hints;     // the file that counts the hints shown: beside the program
};

Place place_of(const char* argv0) {
    const std::string zh = data_folder_path("data/translations/zh.json", argv0);
    std::string exe = argv0 ? argv0 : "";
    const std::size_t slash = exe.find_last_of("/\\");
    const std::string data_dir = zh.substr(0, zh.size() - std::string("data/translations/zh.json").size());
    // beside the program; started through PATH (no folder in argv[0]), in the project's build/
    // (never the reader's current folder; where there is no build/ the count is not kept)
    return {data_dir, (slash == std::string::npos ? data_dir + "build/" : exe.substr(0, slash + 1)) +
                          "exercise_hints.txt"};
}

std::size_t number_of(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9' || n > 1000) throw UsageError(tr("expected an exercise's number, 1 to {}, got \"{}\"", exercises().size(), text));
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    if (n < 1 || n > exercises().size())
        throw UsageError(tr("expected an exercise's number, 1 to {}, got \"{}\"", exercises().size(), text));
    return n - 1;
}

const char* status_word(Verdict v) {
    return v == Verdict::Passed ? N_("done") : v == Verdict::Failed ? N_("failing") : N_("not started");
}

int list(const Answers& answers, const Place& place) {
    std::size_t counts[3] = {0, 0, 0};
    std::size_t next = exercises().size();
    std::cout << tr("The exercises, in the order of the tutorial and the chapters (your files: chapters/exercises/)") << "\n\n";
    for (std::size_t i = 0; i < exercises().size(); ++i) {
        const Exercise& e = exercises()[i];
        const Verdict v = check_exercise(i, answers, place.data_dir).verdict;
        ++counts[static_cast<int>(v)];
        if (v != Verdict::Passed && next == exercises().size()) next = i;
        std::string number = std::to_string(i + 1), status = tr(status_word(v));
        std::cout << std::string(3 - number.size(), ' ') << number << "  " << status
                  << std::string(display_width(status) < 12 ? 12 - display_width(status) : 1, ' ') << "ch"
                  << (e.chapter < 10 ? "0" : "") << e.chapter << "  " << e.name << " — " << tr(e.title) << "\n";
    }
    std::cout << "\n" << tr("{} done, {} failing, {} not started", counts[0], counts[1], counts[2]) << "\n";
    if (next < exercises().size())
        std::cout << tr("next: exercise {}, chapters/exercises/{} — make exercise (or build/exercises check {})", next + 1,
                        exercise_file(next), next + 1) << "\n";
    else
        std::cout << tr("every exercise is done: make plug N=… runs every chapter's --check on one of yours") << "\n";
    return 0;
}

int check(const Answers& answers, const Place& place, std::size_t index) {
    const Outcome o = check_exercise(index, answers, place.data_dir);
    std::cout << o.report;
    return o.verdict == Verdict::Passed ? 0 : 1;
}

// The hints of an exercise, in order: the first hint, each mistake's, then the answer's place
std::vector<std::string> hints_of(std::size_t index) {
    const Exercise& e = exercises()[index];
    std::vector<std::string> hints = {tr(e.hint)};
    for (const Mistake& m : mistakes_of(e.name)) hints.push_back(told(m));
    hints.push_back(tr("the answer is {} (read it once yours passes, or when you are stuck)", e.answer));
    return hints;
}

int hint(const Place& place, std::size_t index) {
    std::map<std::size_t, std::size_t> shown;  // exercise -> hints shown so far
    if (std::ifstream in = open_for_reading(place.hints)) {
        std::size_t n, k;
        while (in >> n >> k) shown[n] = k;
    }
    const std::vector<std::string> hints = hints_of(index);
    const std::size_t k = shown[index + 1] % hints.size();
    std::cout << tr("exercise {}, {} — hint {} of {}:", index + 1, exercises()[index].name, k + 1, hints.size()) << "\n  "
              << hints[k] << "\n";
    shown[index + 1] = k + 1;
    std::ostringstream text;
    for (const auto& [n, count] : shown) text << n << " " << count << "\n";
    try {
        write_file_atomically(place.hints, text.str());
    } catch (const std::exception&) {
        // the count is a convenience: without it the next call shows the first hint again
    }
    return 0;
}

}  // namespace

int run_exercises(int argc, char** argv, const Answers& answers) {
    prepare_console();
    try {
        choose_language(argc, argv);
        std::vector<std::string> words;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--lang") ++i;
            else words.push_back(a);
        }
        const Place place = place_of(argc > 0 ? argv[0] : nullptr);
        const std::string command = words.empty() ? "list" : words[0];
        if (command == "list" && words.size() <= 1) return list(answers, place);
        if (command == "check" && words.size() <= 2) {
            if (words.size() == 2) return check(answers, place, number_of(words[1]));
            for (std::size_t i = 0; i < exercises().size(); ++i)
                if (check_exercise(i, answers, place.data_dir).verdict != Verdict::Passed) return check(answers, place, i);
            std::cout << tr("every exercise is done") << "\n";
            return 0;
        }
        if (command == "hint" && words.size() == 2) return hint(place, number_of(words[1]));
        throw UsageError(tr("expected list, check [N] or hint N (and --lang zh|en), got \"{}\"", command));
    } catch (const UsageError& e) {
        std::cerr << one_line(tr("error: {}", e.what())) << "\n";
        return 2;
    } catch (const DataError& e) {
        std::cerr << one_line(tr("error: {}", e.what())) << "\n";
        return 2;
    }
}
