// chart.h — line charts as SVG: a loss curve, or times against sizes on log-log axes. Ticks fall
// on round numbers (1, 2, 5 times a power of ten; 1,000 written with its comma), a log axis
// says so in its title, and every measured point has its marker.
#pragma once
#include <string>
#include <vector>

struct Series {
    std::string name;
    std::vector<double> xs, ys;
    bool markers = true;    // a dot at each measured point
    bool dashed = false;    // a reference line (∝ n², a floor), not a measurement
    std::string note = {};  // written at the line's end, e.g. "slope 1.97"
    bool joined = true;     // false: points alone, no line (separate things, not a trend)
    std::vector<std::string> labels = {};  // written beside each point, when given
};

struct LineChart {
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;  // log axes need positive values
    std::vector<Series> series;
    std::vector<double> x_ticks = {};  // the x values to label; none: round numbers
};

std::string line_chart_svg(const LineChart& chart);

// The tick values of an axis over [lo, hi]: round numbers, at most about eight of them.
std::vector<double> axis_ticks(double lo, double hi, bool log);

// "1,000", "0.005", "2.5": a tick's value as a reader writes it.
std::string tick_text(double value);
