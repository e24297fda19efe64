// test_printed.cpp — judging the tutorial's printed numbers at their printed precision.
#include <doctest/doctest.h>

#include "report/tutorial_numbers.h"

TEST_CASE("a printed number's precision is half a unit of its last digit") {
    CHECK(parse_printed("0.468").half_unit == doctest::Approx(0.0005).epsilon(1e-12));
    CHECK(parse_printed("11").half_unit == 0.5);
    CHECK(parse_printed("9.05E-04").value == doctest::Approx(0.000905).epsilon(1e-15));
    CHECK(parse_printed("9.05E-04").half_unit == doctest::Approx(0.0000005).epsilon(1e-12));
    CHECK(parse_printed("1.5e2").half_unit == doctest::Approx(5.0).epsilon(1e-12));
    CHECK_THROWS_AS(parse_printed("0.4x"), std::invalid_argument);
    CHECK_THROWS_AS(parse_printed(""), std::invalid_argument);
}

TEST_CASE("the correct value is written the way the tutorial wrote the wrong one") {
    CHECK(round_like(0.0633789, parse_printed("0.064")) == "0.063");
    CHECK(round_like(0.00090496, parse_printed("9.05E-04")) == "9.05E-04");
    CHECK(round_like(1.9991, parse_printed("2")) == "2");
}

TEST_CASE("a printed number is an erratum only when it is not a correct rounding") {
    Results results;
    results.add("w", Matrix{{0.0633789, 0.4683105, 0.00066}});
    const DataFile data = DataFile::parse(
        "t.json", R"({"tutorial": {"printed": {"w": [["0.064", "0.468", "6.6E-04"]]},
                                   "errata": [{"name": "w", "row": 0, "col": 0}]}})");
    const auto checks = compare_printed(results, data);
    REQUIRE(checks.size() == 3);
    CHECK(checks[0].erratum);
    CHECK_FALSE(checks[1].erratum);
    CHECK_FALSE(checks[2].erratum);
    const CheckReport agree = check_errata(checks, data);
    CHECK(agree.passed == 3);
    CHECK(agree.failed == 0);
    // if the oracle listed a different erratum, the check must fail
    const DataFile other = DataFile::parse(
        "t.json", R"({"tutorial": {"printed": {"w": [["0.064", "0.468", "6.6E-04"]]},
                                     "errata": [{"name": "w", "row": 0, "col": 1}]}})");
    const CheckReport disagree = check_errata(checks, other);
    CHECK(disagree.failed == 2);
}
