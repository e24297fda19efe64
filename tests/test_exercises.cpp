// test_exercises.cpp — the exercises (src/exercises/): for every one, the shipped stub says "not
// written yet", the project's own function passes, and each usual mistake, put in its place,
// fails with its own hint — in English and in Chinese. And the program build/exercises: its
// list, its errors, the hints in turn.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "exercises/checking.h"
#include "exercises/mistakes.h"
#include "helpers.h"
#include "io/catalog.h"
#include "text/translate.h"

namespace {

struct InLanguage {  // the language of a block, English again after it
    explicit InLanguage(bool chinese) {
        if (chinese) set_translations(::Language::Chinese, load_catalog("data/translations/zh.json"));
    }
    ~InLanguage() { set_translations(::Language::English, {}); }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("there are at least 24 exercises, each with at least two mistakes it recognises") {
    CHECK(exercises().size() >= 24);
    for (const Exercise& e : exercises()) {
        INFO(e.name);
        CHECK(mistakes_of(e.name).size() >= 2);
    }
}

TEST_CASE("every exercise: the stub is not written yet, the project's answer passes, each mistake is named") {
    for (const bool chinese : {false, true}) {
        const InLanguage language(chinese);
        for (std::size_t i = 0; i < exercises().size(); ++i) {
            const Exercise& e = exercises()[i];
            INFO(e.name << (chinese ? " (zh)" : " (en)"));
            const Outcome stub = check_exercise(i, linked_answers(), "");
            CHECK(stub.verdict == Verdict::NotWritten);
            CHECK(has(stub.report, tr("{}: not written yet ({} says so): write it in chapters/exercises/{}", tr("exercise {}, {}", i + 1, e.name), e.name, exercise_file(i))));
            CHECK(has(stub.report, chinese ? "还没有写" : "not written yet"));
            const Outcome answer = check_exercise(i, project_answers(), "");
            CHECK(answer.verdict == Verdict::Passed);
            CHECK(has(answer.report, e.answer));
            const std::vector<Mistake>& mistakes = mistakes_of(e.name);
            for (std::size_t m = 0; m < mistakes.size(); ++m) {
                INFO("mistake " << m << ": " << mistakes[m].hint);
                Answers wrong = project_answers();
                mistakes[m].put(wrong);
                const Outcome o = check_exercise(i, wrong, "");
                CHECK(o.verdict == Verdict::Failed);
                CHECK(o.mistake == static_cast<int>(m));
                // the mistake named first, then the rule it breaks
                CHECK(has(o.report, told(mistakes[m])));
                CHECK(told(mistakes[m]).find(tr(mistakes[m].mistake)) <
                      told(mistakes[m]).find(tr(mistakes[m].hint)));
                if (chinese) CHECK(tr(mistakes[m].hint) != std::string(mistakes[m].hint));
                if (chinese) CHECK(tr(mistakes[m].mistake) != std::string(mistakes[m].mistake));
            }
        }
    }
}

// --- the program, as shipped (build/exercises_as_shipped: the stubs in place of yours) ---

namespace {

// exit code 2, nothing on stdout, one line on stderr starting "error: " and naming `what`
void refused(const Run& r, const std::string& what) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(has(r.err, what));
}

}  // namespace

TEST_CASE("build/exercises: the list, the next exercise, the hints in turn, its errors") {
    const Run list = run_program("exercises_as_shipped", "list --lang en");
    CHECK(list.exit_code == 0);
    CHECK(has(list.out, " 1  not started ch01  scores — the scores"));
    CHECK(has(list.out, "0 done, 0 failing, " + std::to_string(exercises().size()) + " not started"));
    CHECK(has(list.out, "next: exercise 1, chapters/exercises/01_scores.cpp"));
    const Run zh = run_program("exercises_as_shipped", "list --lang zh");
    CHECK(has(zh.out, "未开始"));
    CHECK(has(zh.out, "下一个：练习 1"));

    const Run next = run_program("exercises_as_shipped", "check --lang en");
    CHECK(next.exit_code == 1);
    CHECK(next.out == "exercise 1, scores: not written yet (scores says so): write it in chapters/exercises/01_scores.cpp\n");
    CHECK(run_program("exercises_as_shipped", "check 26 --lang en").out.find("exercise 26, without_head") == 0);

    // the hints count on, in a copy of the program whose count is kept in a folder of this test's
    const std::string dir = temp_directory("exercise_hints");
    REQUIRE(run_command("cp " + program_path("exercises_as_shipped") + " " + dir + "/exercises").exit_code == 0);
    const std::size_t hints = 2 + mistakes_of("softmax_rows").size();
    for (std::size_t k = 1; k <= hints + 1; ++k) {
        const Run h = run_command(dir + "/exercises hint 2 --lang en");
        CHECK(h.exit_code == 0);
        const std::size_t shown = (k - 1) % hints + 1;  // after the last, the first again
        CHECK(has(h.out, "exercise 2, softmax_rows — hint " + std::to_string(shown) + " of " + std::to_string(hints)));
        if (shown == 2) CHECK(has(h.out, "a usual mistake, NaN for a row of −inf — a row whose scores are all −inf"));
        if (shown == hints) CHECK(has(h.out, "the answer is src/core/matrix.cpp, softmax_rows"));
    }
    CHECK(has(run_command(dir + "/exercises hint 3 --lang zh").out, "练习 3，attention — 提示 1/"));

    refused(run_program("exercises_as_shipped", "check 0"), "expected an exercise's number, 1 to 26, got \"0\"");
    refused(run_program("exercises_as_shipped", "check 27"), "got \"27\"");
    refused(run_program("exercises_as_shipped", "hint x2"), "got \"x2\"");
    refused(run_program("exercises_as_shipped", "hint"), "expected list, check [N] or hint N");
    refused(run_program("exercises_as_shipped", "grade 2"), "got \"grade\"");
    refused(run_program("exercises_as_shipped", "check --lang fr"), "--lang: expected zh or en");
}

TEST_CASE("make plug: a finished exercise in place of the project's function, every chapter on it" *
          doctest::test_suite("native")) {
    // chapters 2 and 3 on a softmax of the reader's: right, then without the rows of −inf
    const std::string right = temp_file("softmax_right.cpp", R"(#include <cmath>
#include "exercises/your_functions.h"
namespace exercise {
Matrix softmax_rows(const Matrix& x) {
    Matrix y(x.rows, x.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        double largest = -INFINITY, sum = 0;
        for (std::size_t c = 0; c < x.cols; ++c) largest = std::fmax(largest, x(r, c));
        if (largest == -INFINITY) continue;
        for (std::size_t c = 0; c < x.cols; ++c) sum += y(r, c) = std::exp(x(r, c) - largest);
        for (std::size_t c = 0; c < x.cols; ++c) y(r, c) /= sum;
    }
    return y;
}
}  // namespace exercise
)");
    std::string wrong = read_file(right);
    wrong.replace(wrong.find("if (largest == -INFINITY) continue;"), 35, "");
    const std::string wrong_file = temp_file("softmax_wrong.cpp", wrong);
    const auto plug = [](const std::string& file, const std::string& dir) {
        return run_command("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL EXERCISE_FILE=" + file + " PLUG_DIR=" + dir +
                           " PLUG_CHAPTERS='ch02_self_attention ch03_masked_attention' make --no-print-directory -s plug N=2");
    };
    const Run good = plug(right, temp_directory("plug_right"));
    CHECK(good.exit_code == 0);
    CHECK(has(good.out, "ch03_masked_attention --check: 230 passed, 0 failed"));
    CHECK(has(good.out, "in place of src/core/matrix.cpp's: 2 chapters passed, 0 chapters failed"));
    const Run bad = plug(wrong_file, temp_directory("plug_wrong"));
    CHECK(bad.exit_code != 0);
    CHECK(has(bad.err, "weights_left_padded_causal is not finite"));
    CHECK(has(bad.err, "your softmax_rows, plugged in"));  // the NaN is the function's, not the inputs'
    // the shipped stub, not written yet: one line, not every chapter stopped by its exception
    const Run stub = plug("tests/exercises/start/02_softmax_rows.cpp", temp_directory("plug_stub"));
    CHECK(stub.exit_code == 2);
    CHECK(has(stub.err, "not written yet (it still calls not_written_yet)"));
    CHECK_FALSE(has(stub.err, "terminate"));
    CHECK(has(bad.out, "1 chapter passed, 1 chapter failed"));
    refused(run_command("bash tests/exercises/plug.sh build 3 g++ '' '' '' ch02_self_attention"), "make plug N=3: this exercise has no project function of its signature to replace; these do: 2,4,5,8,9,12,14,17,19,22,24");
}
