// test_numerals.cpp — the numerals task: the Chinese reading of numbers against the oracle's
// table of hand-checked cases (data/ch07_training.json, inputs.numerals.hand_checked) and the
// oracle's reading of every number below 1100 and 600 more (expected.numeral_reading_ids);
// tokens, alignment, and held-out numbers never drawn for training.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

#include "io/data_file.h"
#include "report/token_text.h"
#include "train/numerals_task.h"

namespace {
const DataFile& data() {
    static const DataFile d = DataFile::load("data/ch07_training.json");
    return d;
}
}  // namespace

TEST_CASE("numerals: every hand-checked reading of the oracle's table") {
    const std::string table = "inputs.numerals.hand_checked";
    REQUIRE(data().length(table) >= 40);
    for (std::size_t i = 0; i < data().length(table); ++i) {
        const std::string row = table + "[" + std::to_string(i) + "]";
        const auto n = static_cast<std::uint64_t>(data().integer(row + "[0]", 0, 99999999));
        CAPTURE(n);
        CHECK(chinese_reading(n) == data().text(row + "[1]"));
    }
}

TEST_CASE("numerals: the oracle's readings, another method, as target ids") {
    const std::vector<std::int64_t> numbers = data().integers("inputs.numerals.check_numbers", 0, 99999999);
    const Matrix ids = data().matrix("expected.numeral_reading_ids");
    REQUIRE(ids.rows == numbers.size());
    for (std::size_t r = 0; r < ids.rows; ++r) {
        const Tokens target = numeral_example(static_cast<std::uint64_t>(numbers[r])).target;
        Tokens want;
        for (std::size_t c = 0; c < ids.cols && ids(r, c) != 0; ++c)
            want.push_back(static_cast<int>(ids(r, c)));
        CAPTURE(numbers[r]);
        CHECK(target == want);
    }
}

TEST_CASE("numerals: the rules one by one, and the limits") {
    CHECK(chinese_reading(10) == "十");            // 一十 at the start becomes 十
    CHECK(chinese_reading(110) == "一百一十");     // … but not inside
    CHECK(chinese_reading(305) == "三百零五");     // one 零 for a zero between digits
    CHECK(chinese_reading(100005) == "十万零五");  // one 零 for a run of them
    CHECK(chinese_reading(1500) == "一千五百");    // none for zeros that end a group
        CHECK(chinese_reading(20000) == "两万");             // 两 alone before 万
    CHECK(chinese_reading(120000) == "十二万");          // … but 二 after 十
    CHECK(chinese_reading(2000) == "两千");              // 两 before 千
    CHECK(chinese_reading(200) == "二百");               // 二 before 百 (the standard reading)
    CHECK(chinese_reading(22) == "二十二");              // 二 before 十 and on its own
    CHECK(chinese_reading(20020000) == "两千零二万");    // a 2 before 万 after others is 二
    CHECK(chinese_reading(largest_numeral) == "九千九百九十九万九千九百九十九");
    CHECK_THROWS_AS(chinese_reading(largest_numeral + 1), std::out_of_range);
}

TEST_CASE("numerals: tokens, and where each digit character comes from") {
    const Vocabulary target = numeral_target_vocabulary();
    CHECK(target.size() == 18);
    CHECK(numeral_source_vocabulary().size() == 13);
    const Example e = numeral_example(2026);
    CHECK(e.source == Tokens{5, 3, 5, 9, 2});  // 2 0 2 6 <eos>
    CHECK(text_of(target, e.target) == "两 千 零 二 十 六 <eos>");
    CHECK(digit_sources(e) == std::vector<int>{0, -1, -1, 2, -1, 3, -1});
    // 15: the 1 is not read, so 五 is the first digit character and comes from position 1
    CHECK(digit_sources(numeral_example(15)) == std::vector<int>{-1, 1, -1});
    CHECK(digit_sources(numeral_example(110)) == std::vector<int>{0, -1, 1, -1, -1});
}

TEST_CASE("numerals: training never draws a held-out number; held-out draws nothing else") {
    Random train(1), held(2);
    std::set<std::size_t> digits_seen;
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t n = random_training_number(train, 8);
        CHECK_FALSE(is_heldout_number(n));
        digits_seen.insert(std::to_string(n).size());
        CHECK(is_heldout_number(random_heldout_number(held, 8)));
    }
    CHECK(digits_seen.size() == 8);  // every length from 1 to 8 digits
    std::size_t heldout = 0;
    for (std::uint64_t n = 100; n < 100100; ++n) heldout += is_heldout_number(n);
    CHECK(heldout > 9000);  // about one in ten
    CHECK(heldout < 11000);
    for (std::uint64_t n = 0; n < 100; ++n) CHECK_FALSE(is_heldout_number(n));
}
