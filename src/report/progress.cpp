// progress.cpp — the training progress bar.
#include "report/progress.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

#include "text/translate.h"

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
    drawn_ = true;
    *out_ << "\r[" << std::string(filled, '#') << std::string(20 - filled, '.') << "] "
          << tr("step {}  loss {}  lr {}  {} tokens/s  ETA {} s", s.step, format("%.4f", s.loss),
                format("%.1e", s.learning_rate), format("%.0f", s.tokens_per_second),
                format("%.0f", std::max(0.0, left)))
          << "   " << std::flush;
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
