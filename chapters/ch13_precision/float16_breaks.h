// ch13_precision/float16_breaks.h — where attention breaks in float16.
#pragma once
#include "ch13_precision/inputs.h"

class Chapter;

struct ScaleFinding {
    double largest = 0;      // the largest unscaled score
    std::size_t over = 0;    // unscaled scores past log(65,520)
};

// Each case computed in float16, every result rounded as it is made, beside float64; returns
// what the unscaled scores did (chapter 13's last step reads the tutorial again with it).
ScaleFinding breaking_step(Chapter& ch, const Inputs& in);
