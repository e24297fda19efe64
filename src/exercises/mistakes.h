// mistakes.h — the mistakes students make in each exercise, each written as a student would
// write it. The checker runs them on the input your answer failed and names the one whose
// numbers yours equal (its hint); the tests put each in place of the answer and expect the
// checker to name it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "exercises/answers.h"

struct Mistake {
    const char* mistake;      // what the student did, named ("K·Qᵀ in place of Q·Kᵀ") …
    const char* hint;         // … and the rule it breaks (English; the catalog has both)
    void (*put)(Answers& a);  // puts the mistaken function in place of the answer
};

// The mistakes of the exercise named so (an exercise's name: "softmax_rows", …), in the order
// the checker tries them.
const std::vector<Mistake>& mistakes_of(const std::string& exercise);
// The mistake named, then the rule: "a usual mistake, K·Qᵀ in place of Q·Kᵀ — rows are …"
std::string told(const Mistake& m);

// The parts: each exercise's mistakes by its name (attention_, layer_, later_mistakes.cpp)
using MistakeTable = std::map<std::string, std::vector<Mistake>>;
MistakeTable attention_mistakes();  // 1-8
MistakeTable layer_mistakes();      // 9-14
MistakeTable later_mistakes();      // 15-26
