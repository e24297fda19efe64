// text_chart.cpp — a line chart in characters.
#include "report/text_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "text/translate.h"

namespace {

std::string label(double y) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", y);
    return buf;
}

}  // namespace

std::vector<std::string> text_chart(const LineChart& chart, std::size_t width,
                                    std::size_t height) {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Series& s : chart.series)
        for (std::size_t i = 0; i < s.xs.size() && i < s.ys.size(); ++i) {
            if (!std::isfinite(s.xs[i]) || !std::isfinite(s.ys[i])) continue;
            x0 = std::min(x0, s.xs[i]), x1 = std::max(x1, s.xs[i]);
            y0 = std::min(y0, s.ys[i]), y1 = std::max(y1, s.ys[i]);
        }
    if (!(x0 <= x1) || width < 2 || height < 2) return {};
    const double x_span = x1 > x0 ? x1 - x0 : 1, y_span = y1 > y0 ? y1 - y0 : 1;
    std::vector<std::string> grid(height, std::string(width, ' '));
    const char markers[] = {'o', 'x', '+', '#'};
    for (std::size_t k = 0; k < chart.series.size(); ++k) {
        const Series& s = chart.series[k];
        for (std::size_t i = 0; i < s.xs.size() && i < s.ys.size(); ++i) {
            if (!std::isfinite(s.xs[i]) || !std::isfinite(s.ys[i])) continue;
            const auto col = static_cast<std::size_t>(
                std::lround((s.xs[i] - x0) / x_span * static_cast<double>(width - 1)));
            const auto row = static_cast<std::size_t>(
                std::lround((y1 - s.ys[i]) / y_span * static_cast<double>(height - 1)));
            char& cell = grid[row][col];
            cell = cell == ' ' || cell == markers[k % 4] ? markers[k % 4] : '*';
        }
    }
    const std::string top = label(y1), middle = label((y0 + y1) / 2), bottom = label(y0);
    const std::size_t pad = std::max({top.size(), middle.size(), bottom.size()});
    std::vector<std::string> out = {chart.title};
    for (std::size_t r = 0; r < height; ++r) {
        const std::string y = r == 0 ? top : r == height - 1 ? bottom
                                         : r == (height - 1) / 2 ? middle : "";
        out.push_back(std::string(pad - y.size(), ' ') + y + " |" + grid[r]);
    }
    out.push_back(std::string(pad + 1, ' ') + "+" + std::string(width, '-'));
    const std::string left = tick_text(x0), right = tick_text(x1);
    const std::size_t gap = width > left.size() + right.size() ? width - left.size() - right.size() : 1;
    out.push_back(std::string(pad + 2, ' ') + left + std::string(gap, ' ') + right + "  " +
                  chart.x_label);
    std::string legend = std::string(pad + 2, ' ');
    for (std::size_t k = 0; k < chart.series.size(); ++k)
        legend += std::string(1, markers[k % 4]) + " " + chart.series[k].name + "   ";
    if (chart.series.size() > 1) legend += "* " + tr("on the same cell");
    out.push_back(legend);
    return out;
}
