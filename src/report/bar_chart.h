// bar_chart.h — shares side by side as SVG: a row of bars for each group (a source of poems),
// one bar per measure (its colour in the legend), each labelled with its percentage.
#pragma once
#include <string>
#include <vector>

#include "core/matrix.h"

struct BarChart {
    std::string title;
    std::vector<std::string> groups;    // a row each, named on the left
    std::vector<std::string> measures;  // a bar each within a row
    Matrix shares;                      // groups x measures, each in [0, 1]
};

std::string bar_chart_svg(const BarChart& chart);
