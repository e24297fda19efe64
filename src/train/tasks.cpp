// tasks.cpp — the two tasks of chapter 7 behind one interface.
#include "train/tasks.h"

#include "train/numerals_task.h"
#include "train/reverse_task.h"

Task reverse_task(std::size_t min_length, std::size_t max_length) {
    const auto draw = [=](Random& rng, std::size_t count) {
        return random_reversals(rng, count, min_length, max_length);
    };
    return {"reverse", reverse_vocabulary(), reverse_vocabulary(), max_length, draw, draw};
}

Task numerals_task(std::size_t max_digits) {
    return {
        "numerals",
        numeral_source_vocabulary(),
        numeral_target_vocabulary(),
        max_digits,
        [=](Random& rng, std::size_t count) { return random_numerals(rng, count, max_digits); },
        [=](Random& rng, std::size_t count) { return heldout_numerals(rng, count, max_digits); }};
}
