// ch10_modern_attention/longer_inputs.h — which positions read inputs longer than training had.
#pragma once
#include <string>
#include <vector>

#include "ch10_modern_attention/inputs.h"
#include "ch10_modern_attention/trained_runs.h"

struct Finding {  // what the experiment showed, for the closing corrections
    bool any_beyond = false;
    double best = 0.0, worst = 0.0;
    std::vector<std::string> best_names, worst_names;
};

// Every position scheme trained with every seed on lengths up to the plan's, then read at every
// test length: the table, what it says within and beyond the training lengths.
Finding length_step(Chapter& ch, const Inputs& in, Trained& trained_runs);
