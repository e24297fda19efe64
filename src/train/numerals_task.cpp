// numerals_task.cpp — reading numbers in Chinese, and drawing examples of it.
#include "train/numerals_task.h"

#include <stdexcept>

namespace {

const char* const digit_names[] = {"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
const char* const unit_names[] = {"千", "百", "十", ""};  // of a group's digits, highest first

// The name of digit d at place i of a group (0 = 千 … 3 = ones): 两 for a 2 before 千, as speech
// has it (两千); 二 before 十 and 百 and on its own (二十, 二百, 十二).
std::string digit_name(std::uint64_t d, int i) { return d == 2 && i == 0 ? "两" : digit_names[d]; }

// A group of four digits, 1 … 9999: each non-zero digit with its unit; a run of zeros between
// non-zero digits as one 零; leading and trailing zeros not at all.
std::string read_group(std::uint64_t group) {
    std::string out;
    bool zeros = false;  // zeros were skipped since the last digit read
    std::uint64_t place = 1000;
    for (int i = 0; i < 4; ++i, place /= 10) {
        const std::uint64_t d = group / place % 10;
        if (d == 0) {
            zeros = zeros || !out.empty();
            continue;
        }
        if (zeros) out += "零";
        zeros = false;
        out += digit_name(d, i) + unit_names[i];
    }
    return out;
}

// The first digit of a number of 1 to max_digits digits, and the rest: see numerals_task.h.
std::uint64_t random_number(Random& rng, std::size_t min_digits, std::size_t max_digits) {
    const std::size_t digits = min_digits + rng.next() % (max_digits - min_digits + 1);
    std::uint64_t n = digits == 1 ? rng.next() % 10 : 1 + rng.next() % 9;
    for (std::size_t i = 1; i < digits; ++i)
        n = n * 10 + (rng.next() % 3 == 0 ? 0 : 1 + rng.next() % 9);
    return n;
}

}  // namespace

std::string chinese_reading(std::uint64_t n) {
    if (n > largest_numeral)
        throw std::out_of_range(std::to_string(n) + " is above " + std::to_string(largest_numeral));
    if (n == 0) return "零";
    const std::uint64_t high = n / 10000, low = n % 10000;
    std::string out;
    if (high > 0) out = (high == 2 ? "两" : read_group(high)) + "万";  // 两万, but 十二万
    if (low > 0) out += (high > 0 && low < 1000 ? "零" : "") + read_group(low);
    const std::string one = "一", ten = "十";
    if (out.compare(0, one.size() + ten.size(), one + ten) == 0) out.erase(0, one.size());
    return out;
}

Vocabulary numeral_source_vocabulary() {
    Vocabulary v = {"<pad>", "<bos>", "<eos>"};
    for (int d = 0; d < 10; ++d) v.push_back(std::to_string(d));
    return v;
}

Vocabulary numeral_target_vocabulary() {
    Vocabulary v = {"<pad>", "<bos>", "<eos>"};
    for (const char* d : digit_names) v.push_back(d);
    for (const char* u : {"十", "百", "千", "万", "两"}) v.push_back(u);
    return v;
}

Example numeral_example(std::uint64_t n) {
    static const Vocabulary target_names = numeral_target_vocabulary();
    Example e;
    for (const char c : std::to_string(n)) e.source.push_back(3 + (c - '0'));
    const std::string reading = chinese_reading(n);
    for (std::size_t at = 0; at < reading.size();) {  // one token per character (3 bytes each)
        std::size_t id = 3;
        while (id < target_names.size() &&
               reading.compare(at, target_names[id].size(), target_names[id]) != 0)
            ++id;
        if (id == target_names.size()) throw std::logic_error("a reading outside the vocabulary");
        e.target.push_back(static_cast<int>(id));
        at += target_names[id].size();
    }
    e.source.push_back(2);  // <eos>
    e.target.push_back(2);
    return e;
}

std::vector<int> digit_sources(const Example& e) {
    constexpr int zero_digit = 3, ten = 13, liang = 17;  // source id of 0; target ids of 十, 两
    std::vector<int> nonzero;                            // source positions of the non-zero digits
    for (std::size_t i = 0; i + 1 < e.source.size(); ++i)
        if (e.source[i] != zero_digit) nonzero.push_back(static_cast<int>(i));
    std::size_t next = !e.target.empty() && e.target[0] == ten ? 1 : 0;  // 十… : the 1 is unread
    std::vector<int> from;
    for (const int id : e.target) {
        const bool digit = ((id >= 4 && id <= 12) || id == liang) && next < nonzero.size();
        from.push_back(digit ? nonzero[next++] : -1);
    }
    return from;
}

bool is_heldout_number(std::uint64_t n) { return n >= 100 && Random(n).next() % 10 == 0; }

std::uint64_t random_training_number(Random& rng, std::size_t max_digits) {
    for (;;) {
        const std::uint64_t n = random_number(rng, 1, max_digits);
        if (!is_heldout_number(n)) return n;
    }
}

std::uint64_t random_heldout_number(Random& rng, std::size_t max_digits) {
    for (;;) {
        const std::uint64_t n = random_number(rng, 3, max_digits);
        if (is_heldout_number(n)) return n;
    }
}

std::vector<Example> random_numerals(Random& rng, std::size_t count, std::size_t max_digits) {
    std::vector<Example> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(numeral_example(random_training_number(rng, max_digits)));
    return out;
}

std::vector<Example> heldout_numerals(Random& rng, std::size_t count, std::size_t max_digits) {
    std::vector<Example> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(numeral_example(random_heldout_number(rng, max_digits)));
    return out;
}
