// text_chart.h — a line chart drawn in characters, for the terminal: each series a marker
// (o, x, +, …; * where two fall on one cell), the y axis labelled at its top, middle and
// bottom, the x axis at its ends, the legend below. The same LineChart as the SVG's (chart.h).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "report/chart.h"

// The chart's lines, at most `width` columns of plot beside the y labels (ASCII only).
std::vector<std::string> text_chart(const LineChart& chart, std::size_t width = 60,
                                    std::size_t height = 12);
