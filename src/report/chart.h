// chart.h — line charts as SVG: a loss curve, or times against sizes on log-log axes.
#pragma once
#include <string>
#include <vector>

struct Series {
    std::string name;
    std::vector<double> xs, ys;
};

struct LineChart {
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;  // log axes need positive values
    std::vector<Series> series;
};

std::string line_chart_svg(const LineChart& chart);
