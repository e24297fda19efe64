// progress.cpp — the training progress bar.
#include "report/progress.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "io/platform.h"
#include "text/numbers.h"
#include "text/translate.h"

ProgressBar::ProgressBar() : out_(stderr_is_terminal() ? &std::cerr : nullptr) {}
ProgressBar::ProgressBar(std::ostream* out) : out_(out) {}

static std::string format(const char* spec, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, x);
    return buf;
}

void ProgressBar::update(const StepStats& s) {
    if (!out_ || s.step == 0) return;
    const double done = static_cast<double>(s.step) / static_cast<double>(s.max_steps);
    const int filled = static_cast<int>(20 * std::min(1.0, done));
    const double per_step = s.elapsed_seconds / static_cast<double>(s.step);
    const double left = static_cast<double>(s.max_steps - s.step) * per_step;
    drawn_ = true;
    *out_ << "\r[" << std::string(filled, '#') << std::string(20 - filled, '.') << "] "
          << tr("step {}  loss {}  lr {}  {} tokens/s  ETA {} s", s.step, format("%.4f", s.loss),
                format("%.1e", s.learning_rate), format("%.0f", s.tokens_per_second),
                format("%.0f", std::max(0.0, left)))
          << "   " << std::flush;
}

std::string steps_from_seconds_note(double seconds, std::size_t steps) {
    return tr("--seconds {}: {} steps fit in that time on this machine (timed on a few steps "
              "before the run), so the numbers below are this machine's, not the chapter's; "
              "--steps {} repeats them anywhere.",
              general(seconds, 6), steps, steps);
}

void ProgressBar::status(const std::string& text) {
    if (!out_) return;
    drawn_ = true;
    *out_ << "\r" << text << "\033[K" << std::flush;  // \033[K clears the rest of the line
}

void ProgressBar::done() {
    if (out_ && drawn_) *out_ << "\n";
    drawn_ = false;
}
