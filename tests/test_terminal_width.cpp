// test_terminal_width.cpp — every chapter's walkthrough and --help fit a terminal of 100
// columns (CJK characters counted as two), in English and in Chinese.
#include <doctest/doctest.h>

#include <sstream>

#include "helpers.h"
#include "report/chapter_list.h"
#include "report/terminal.h"

// In the test suite "native" (make test, not again under the sanitizers: the layout does not
// depend on the build, and the walkthroughs' code runs under them at the smallest shapes,
// test_small_inputs.cpp — here it took six of their minutes).
TEST_CASE("no chapter prints a line wider than 100 columns, in either language" *
          doctest::test_suite("native")) {
    for (const std::string& chapter : chapter_names())
        for (const char* lang : {"en", "zh"})
            for (const std::string& flags : {quick_flags(chapter), std::string(" --help")}) {
                CAPTURE(chapter);
                CAPTURE(lang);
                CAPTURE(flags);
                const Run r = run_program(chapter, std::string("--lang ") + lang + flags);
                REQUIRE(r.exit_code == 0);
                std::istringstream out(r.out);
                std::size_t widest = 0, lines = 0;
                std::string where;
                for (std::string line; std::getline(out, line); ++lines)
                    if (display_width(line) > widest) widest = display_width(line), where = line;
                CAPTURE(where);
                CHECK(widest <= terminal_width);
                CHECK(lines > 5);
            }
}
