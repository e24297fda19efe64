// progress.h — a one-line progress bar for a long run, redrawn in place on stderr:
//   [#######.............] step 1100  loss 0.6512  lr 1.2e-03  … tokens/s  ETA … s
// Shown only when stderr is a terminal (a log file or a pipe gets nothing).
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

#include "train/step_stats.h"

// What a run planned by the clock says before its results (chapters 7 and 12, --seconds): how
// many steps fit in the seconds here, and that the numbers are this machine's, not the
// chapter's.
std::string steps_from_seconds_note(double seconds, std::size_t steps);

class ProgressBar {
public:
    ProgressBar();                            // on stderr, if it is a terminal
    explicit ProgressBar(std::ostream* out);  // on out (nullptr: nothing), for tests
        void update(const StepStats& s);       // the bar of a training run
    void status(const std::string& text);  // any other long step: one line, redrawn in place
    void done();                           // ends the line, if one was drawn

private:
    std::ostream* out_;
    bool drawn_ = false;
};
