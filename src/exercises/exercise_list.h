// exercise_list.h — the exercises, in the order of the tutorial and the chapters: what each
// asks, where it comes from, which project function answers it, and how it is judged — on the
// chapter's own data file (the oracle's expected values; the tutorial's hand calculation where
// there is one) and on random inputs against the project's function.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "core/random.h"
#include "exercises/answers.h"

struct Shown {  // one input, as the checker shows it
    std::string name;
    Matrix value;  // a number is (1x1); a list of flags a row of 0 and 1
};
using Inputs = std::vector<Shown>;
// Your function called on the inputs, its result as one matrix to compare.
using Call = std::function<Matrix(const Answers& a, const Inputs& in)>;

struct Case {
    std::string source;  // "data/ch02_self_attention.json, expected.XXt" or "random case 3"
    Inputs inputs;
    Matrix expected;
    Call run;  // how this case calls the function, when not as the exercise's other cases do
};

struct Exercise {
    std::string name;  // the function you write: "softmax_rows"
    int chapter;       // the chapter that teaches it
    const char* title;  // N_("a numerically stable softmax")
    const char* from;   // where the formula comes from: the tutorial's section, the chapter
    const char* answer;  // the project's function: "src/core/matrix.cpp, softmax_rows"
    Call run;
    // the cases of the chapter's data file: inputs and the oracle's expected values (data_dir:
    // where data/ is)
    std::function<std::vector<Case>(const std::string& data_dir)> golden;
    std::function<Inputs(Random& rng, int i)> random;  // random case i's inputs
    double tol;
    const char* hint;  // the first hint, before any mistake is in sight
};

const std::vector<Exercise>& exercises();
// Its file under chapters/exercises/: "02_softmax_rows.cpp"
std::string exercise_file(std::size_t index);
