// mistakes.h — the mistakes students make in each exercise, each written as a student would
// write it. The checker runs them on the input your answer failed and names the one whose
// numbers yours equal (its hint); the tests put each in place of the answer and expect the
// checker to name it.
#pragma once
#include <string>
#include <vector>

#include "exercises/answers.h"

struct Mistake {
    const char* hint;         // English; the catalog has its translation
    void (*put)(Answers& a);  // puts the mistaken function in place of the answer
};

// The mistakes of the exercise named so (an exercise's name: "softmax_rows", …).
const std::vector<Mistake>& mistakes_of(const std::string& exercise);
