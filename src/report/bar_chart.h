// bar_chart.h — numbers side by side as SVG: a row of bars for each group (a source of poems,
// a head of a model), one bar per measure (its colour in the legend), each labelled with its
// value. Shares (in [0, 1]) are drawn on a 0–100% scale; other values on a scale from the
// smallest (or 0) to the largest (or 0), a bar running from 0 to its value, left for a negative.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"

struct BarChart {
    std::string title;
    std::vector<std::string> groups;    // a row each, named on the left
    std::vector<std::string> measures;  // a bar each within a row
    Matrix values;                      // groups x measures
    bool shares = true;                 // values in [0, 1], written as percentages
    int decimals = 3;                   // otherwise written with this many decimals
    std::string unit = "";              // and the scale's unit, written below it ("nats")
};

std::string bar_chart_svg(const BarChart& chart);
