// numerals_task.h — the translation task of chapter 7: an Arabic numeral into its Chinese
// reading, one character per token.
//
//   source: the digits, most significant first, then <eos>     2 0 2 6 <eos>
//   target: the reading, then <eos>                            两 千 零 二 十 六 <eos>
//
// How a number from 0 to 99,999,999 is read (chinese_reading):
//   - it splits into the 万 group (n / 10000, read followed by 万) and the group below it; a
//     group reads each non-zero digit with its unit 千, 百, 十 or none;
//   - zeros between non-zero digits are read as one 零 (305 三百零五, 1005 一千零五), and so
//     are zeros at the start of the lower group after a non-zero 万 group (10010 一万零一十);
//   - zeros at the end of a group are not read (1500 一千五百, 1001000 一百万一千);
//   - a reading that would start with 一十 starts with 十 (15 十五, 150000 十五万); inside a
//     number the 一 stays (110 一百一十, 2015 两千零一十五);
//   - 2 is read as speech reads it: 两 before 千 (2000 两千, 12000 一万两千, 2222 两千二百二十二)
//     and when it stands alone before 万 (20000 两万, 20000000 两千万); 二 before 十 (二十) and
//     on its own (十二, 十二万 — not 十两万). Before 百 both are heard; this book says 二百, the
//     reading standard Mandarin teaches and dictionaries give (两百 is colloquial, mostly
//     northern), so that one place keeps one name;
//   - 0 is 零.
// data/oracle/numerals.py reads numbers by the same rules, written another way, and holds the table
// of hand-checked cases that tests/test_numerals.cpp checks both against.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids
#include "train/example.h"

constexpr std::uint64_t largest_numeral = 99999999;

// The reading of n as UTF-8; throws std::out_of_range above largest_numeral.
std::string chinese_reading(std::uint64_t n);

// The source tokens: <pad> <bos> <eos> 0 … 9 (as the reversal task's). The target tokens:
// <pad> <bos> <eos> 零 一 二 三 四 五 六 七 八 九 十 百 千 万 两.
Vocabulary numeral_source_vocabulary();
Vocabulary numeral_target_vocabulary();

// n as a source and its reading as a target, both ending with <eos>.
Example numeral_example(std::uint64_t n);

// Where each target token of a numeral example comes from: for a digit character (一 … 九, 两), the
// source position of the digit it names (they name the non-zero digits in order, but a leading
// 1 read as 十 has no character); −1 for units, 零 and <eos>.
std::vector<int> digit_sources(const Example& e);

// The held-out numbers: from 100 up, one in ten, picked by a hash of the number (SplitMix64
// seeded with n). Training never draws them; the held-out score is measured on them alone.
// (The 100 numbers below 100 are all training numbers.)
bool is_heldout_number(std::uint64_t n);

// A number of 1 to max_digits digits (the count uniform), the first digit uniform over 1–9 (0–9
// for one digit), every later digit 0 with probability 1/3 and otherwise uniform over 1–9 — so
// that runs of zeros, where the rules are subtle, are common. Training numbers only.
std::uint64_t random_training_number(Random& rng, std::size_t max_digits);

// Held-out numbers, drawn the same way with 3 to max_digits digits.
std::uint64_t random_heldout_number(Random& rng, std::size_t max_digits);

std::vector<Example> random_numerals(Random& rng, std::size_t count, std::size_t max_digits);
std::vector<Example> heldout_numerals(Random& rng, std::size_t count, std::size_t max_digits);
