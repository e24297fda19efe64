// test_reader_trips_4.cpp — what a reader still tripped over (issue 41), each reproduced as it
// was reported: chapter 13's data files accepted with nothing to compute or computed past
// float16's range, and rejected with a message about float64 or an allocation failure; a bad
// --weights file reported only after a section of narration.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <string>
#include <utility>

#include "helpers.h"
#include "json.h"

namespace {

Json smallest(const std::string& chapter) {
    std::ifstream in("tests/data/" + chapter + ".smallest.json");
    return Json::parse(in);
}

// chapter 13's smallest data file with one change: its one error line, and exit code 2.
std::string ch13_error(const std::string& name, const std::function<void(Json&)>& change) {
    Json doc = smallest("ch13_precision");
    change(doc["inputs"]);
    const Run r = run_program("ch13_precision", "--check --data " + temp_file(name, doc.dump()));
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find('\n') == r.err.size() - 1);  // one line
    return r.err;
}

}  // namespace

TEST_CASE("ch13: empty lists and unknown readings are named, not computed over") {
    CHECK(ch13_error("values.json", [](Json& i) { i["rounding"]["values"] = Json::array(); })
              .find("inputs.rounding.values: expected at least one number") != std::string::npos);
    CHECK(ch13_error("scores.json", [](Json& i) { i["breaking"]["scores"] = Json::array(); })
              .find("inputs.breaking.scores: expected at least one number") != std::string::npos);
    CHECK(ch13_error("readings.json", [](Json& i) { i["readings"] = Json::array({"bogus"}); })
              .find("inputs.readings: expected the readings this chapter computes") !=
          std::string::npos);
}

TEST_CASE("ch13: inputs past float16's range are said to be past float16's, before any work") {
    CHECK(ch13_error("x.json", [](Json& i) { i["tutorial"]["X"] = Json::array({Json::array({300})}); })
              .find("past float16's largest number, 65,504") != std::string::npos);
    CHECK(ch13_error("score.json", [](Json& i) { i["breaking"]["scores"] = Json::array({70000.0}); })
              .find("expected numbers float16 holds") != std::string::npos);
    const std::string offset = ch13_error("offset.json", [](Json& i) {
        i["breaking"]["norm_offset"] = 60000.0;
        i["breaking"]["norm_spread"] = Json::array({-1.5, 0.5});
    });
    CHECK(offset.find("inputs.breaking.norm_offset") != std::string::npos);
    CHECK(offset.find("float16") != std::string::npos);
    CHECK(offset.find("float64") == std::string::npos);
}

TEST_CASE("ch13: a huge X and a list of ten million lengths are refused at once") {
    CHECK(ch13_error("tall.json",
                     [](Json& i) {
                         i["tutorial"]["X"] = Json::array();
                         i["tutorial"]["tokens"] = Json::array();
                         for (int r = 0; r < 5000; ++r) {
                             i["tutorial"]["X"].push_back(Json::array({1.0}));
                             i["tutorial"]["tokens"].push_back("x");
                         }
                     })
              .find("expected at most 4,096 rows") != std::string::npos);
    CHECK(ch13_error("lengths.json",
                     [](Json& i) { i["breaking"]["dot_lengths"] = Json(std::vector<int>(100000, 1)); })
              .find("expected from 1 to 64 lengths") != std::string::npos);
}

TEST_CASE("ch13 and ch14: a bad --weights file is the one line printed, before any narration") {
    const std::string broken = temp_file("broken_poet.json", "{\"x\": 1}");
    for (const char* chapter : {"ch13_precision", "ch14_inside_the_poet"}) {
        CAPTURE(chapter);
        for (const auto& [weights, names] :
             {std::pair<std::string, std::string>{"/nonexistent.json", "cannot open"},
              std::pair<std::string, std::string>{broken, "config.d_model: missing"}}) {
            const Run r = run_program(chapter, "--weights " + weights);
            CHECK(r.exit_code == 2);
            CHECK(r.out.empty());  // was: the oracle's section, then the error
            CHECK(r.err.find('\n') == r.err.size() - 1);
            CHECK(r.err.find(names) != std::string::npos);
        }
    }
}
