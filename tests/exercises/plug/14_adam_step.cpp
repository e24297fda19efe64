// plugs into: src/train/adam.cpp
// make plug N=14: every chapter's --check with your adam_step
// (chapters/exercises/14_adam_step.cpp) in place of the project's: src/train/adam.cpp is compiled
// again with its function made weak, and this function, the project's signature calling
// yours, takes its place.
#include <algorithm>

#include "train/adam.h"
#include "exercises/your_functions.h"

// the project's step on count numbers, as matrices of one row for yours
void adam_update(double* p, const double* g, double* m, double* v, std::size_t count, double lr,
                 std::size_t t, double beta1, double beta2, double eps) {
    const auto row = [count](const double* x) {
        Matrix r(1, count);
        std::copy(x, x + count, r.data.begin());
        return r;
    };
    Matrix param = row(p), moment = row(m), second = row(v);
    exercise::adam_step(param, row(g), moment, second, static_cast<int>(t), lr, beta1, beta2, eps);
    std::copy(param.data.begin(), param.data.end(), p);
    std::copy(moment.data.begin(), moment.data.end(), m);
    std::copy(second.data.begin(), second.data.end(), v);
}
