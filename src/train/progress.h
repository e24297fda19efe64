// progress.h — a one-line progress bar for a long training run, redrawn in place on stderr:
//   [#######.............] step 1100  loss 0.6512  lr 1.2e-03  41230 tokens/s  ETA 18 s
// Shown only when stderr is a terminal (a log file or a pipe gets nothing).
#pragma once
#include <cstddef>
#include <ostream>

struct StepStats {
    std::size_t step = 0, max_steps = 0;
    double loss = 0.0, learning_rate = 0.0, tokens_per_second = 0.0;
    double elapsed_seconds = 0.0, budget_seconds = 0.0;
};

class ProgressBar {
public:
    ProgressBar();                       // on stderr, if it is a terminal
    explicit ProgressBar(std::ostream* out);  // on out (nullptr: nothing), for tests
    void update(const StepStats& s);
    void done();  // ends the line
private:
    std::ostream* out_;
};
