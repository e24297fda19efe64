// plugs into: src/model/attention/online_softmax.cpp
// make plug N=22: every chapter's --check with your online_softmax_update
// (chapters/exercises/22_online_softmax_update.cpp) in place of the project's: src/model/attention/online_softmax.cpp is compiled
// again with its function made weak, and this function, the project's signature calling
// yours, takes its place.
#include "model/attention/online_softmax.h"
#include "exercises/your_functions.h"

void RunningSum::add(double score) {
    const exercise::RunningSum s = exercise::online_softmax_update({max, sum}, score);
    max = s.max;
    sum = s.sum;
}
