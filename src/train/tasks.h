// tasks.h — what chapter 7 trains on, behind one interface: reversing digits (reverse_task.h)
// and reading numbers in Chinese (numerals_task.h).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/random.h"
#include "model/transformer/tokens.h"  // exports: token ids
#include "train/example.h"

struct Task {
    std::string name;  // "reverse" or "numerals"
    Vocabulary source_vocabulary, target_vocabulary;
    std::size_t max_source_length = 0;  // the longest source drawn, in tokens before <eos>
    std::function<std::vector<Example>(Random&rng, std::size_t count)> training, heldout;
};

// Sequences of min_length to max_length digits, reversed. Held-out examples are drawn from
// the same distribution with another seed.
Task reverse_task(std::size_t min_length, std::size_t max_length);

// Numbers of 1 to max_digits digits (at most 8) and their readings; held-out numbers are never
// drawn for training (numerals_task.h).
Task numerals_task(std::size_t max_digits);
