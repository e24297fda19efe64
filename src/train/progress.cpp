// progress.cpp — the training progress bar.
#include "train/progress.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

ProgressBar::ProgressBar() : out_(isatty(2) ? &std::cerr : nullptr) {}
ProgressBar::ProgressBar(std::ostream* out) : out_(out) {}

static std::string format(const char* spec, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, x);
    return buf;
}

void ProgressBar::update(const StepStats& s) {
    if (!out_ || s.step == 0) return;
    const double done = std::max(s.elapsed_seconds / s.budget_seconds,
                                 static_cast<double>(s.step) / static_cast<double>(s.max_steps));
    const int filled = static_cast<int>(20 * std::min(1.0, done));
    const double per_step = s.elapsed_seconds / static_cast<double>(s.step);
    const double left = std::min(s.budget_seconds - s.elapsed_seconds,
                                 static_cast<double>(s.max_steps - s.step) * per_step);
    *out_ << "\r[" << std::string(filled, '#') << std::string(20 - filled, '.') << "] step "
          << s.step << "  loss " << format("%.4f", s.loss) << "  lr "
          << format("%.1e", s.learning_rate) << "  " << format("%.0f", s.tokens_per_second)
          << " tokens/s  ETA " << format("%.0f", std::max(0.0, left)) << " s   " << std::flush;
}

void ProgressBar::done() {
    if (out_) *out_ << "\n";
}
