// step_stats.h — what the training loop (trainer.h) reports after every step.
#pragma once
#include <cstddef>

// What the loop reports after every step (chapter 7 draws its progress bar from it).
struct StepStats {
    std::size_t step = 0, max_steps = 0;
    double loss = 0.0, learning_rate = 0.0, tokens_per_second = 0.0;
    double elapsed_seconds = 0.0;
};
