// checking.h — judging one exercise: your function on the chapter's data-file cases, then on
// random cases against the project's function; at the first case that differs, what it was
// given, what was expected, what came back, where they differ first, and the mistake your
// numbers show, if they show one the checker knows.
#pragma once
#include <cstddef>
#include <string>

#include "exercises/answers.h"
#include "exercises/exercise_list.h"

enum class Verdict { Passed, Failed, NotWritten };

struct Outcome {
    Verdict verdict = Verdict::Passed;
    int mistake = -1;    // which of mistakes_of(name) your numbers equal, −1 for none
    std::string report;  // what the reader reads, in their language
};

constexpr std::size_t random_cases = 40;  // each exercise's random cases

// index: the exercise's place in exercises(); data_dir: where data/ is ("" or "…/")
Outcome check_exercise(std::size_t index, const Answers& answers, const std::string& data_dir);
