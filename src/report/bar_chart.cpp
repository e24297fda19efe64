// bar_chart.cpp — rows of horizontal bars on one scale, a legend above.
#include "report/bar_chart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#include "report/svg.h"
#include "report/terminal.h"

namespace {

const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

std::string value_text(const BarChart& c, double v) {
    char buf[48];
    if (c.shares)
        std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
    else
        std::snprintf(buf, sizeof buf, "%.*f", c.decimals, v);
    return buf;
}

// The scale's ends: 0–1 for shares; otherwise from the smallest value (or 0) to the largest (or 0).
std::pair<double, double> scale_of(const BarChart& c) {
    if (c.shares) return {0.0, 1.0};
    double lo = 0, hi = 0;
    for (const double v : c.values.data) lo = std::min(lo, v), hi = std::max(hi, v);
    if (hi == lo) hi = lo + 1;
    return {lo, hi};
}

}  // namespace

std::string bar_chart_svg(const BarChart& c) {
    // the names' column as wide as the widest name (a CJK character two columns, 7 px each)
    std::size_t name_columns = 0;
    for (const std::string& g : c.groups) name_columns = std::max(name_columns, display_width(g));
    const double bar = 14, gap = 12, left = 16 + 7.0 * double(name_columns), plot = 420;
    const double legend = 24, top = 44 + legend;
    const double row = bar * double(c.measures.size()) + gap;
    const double width = left + plot + 70, height = top + row * double(c.groups.size()) + 30;
    const double below = c.unit.empty() ? 0 : 16;  // the unit's line under the scale
    std::ostringstream s;
    s << svg_begin(width, height + below);
    s << "<text x=\"16\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(c.title)
      << "</text>\n";
    double x = left;  // the legend: a swatch and a name per measure
    for (std::size_t m = 0; m < c.measures.size(); ++m) {
        s << "<rect x=\"" << x << "\" y=\"36\" width=\"12\" height=\"12\" fill=\""
          << colours[m % 6] << "\"/><text x=\"" << x + 16 << "\" y=\"46\" font-size=\"12\">"
          << xml_escape(c.measures[m]) << "</text>\n";
        x += 30 + 7.0 * double(display_width(c.measures[m]));
    }
    const std::pair<double, double> scale = scale_of(c);
    const double lo = scale.first, hi = scale.second;  // (named, not bound: clang 14 cannot
                                                       // capture a structured binding)
    const auto at = [&](double v) { return left + (std::clamp(v, lo, hi) - lo) / (hi - lo) * plot; };
    for (int k = 0; k <= 4; ++k) {  // the scale, its grid lines
        const double tick = lo + (hi - lo) * k / 4, px = at(tick);
        s << "<line x1=\"" << px << "\" y1=\"" << top - 6 << "\" x2=\"" << px << "\" y2=\""
          << height - 26 << "\" stroke=\"#ddd\"/><text x=\"" << px << "\" y=\"" << height - 10
          << "\" font-size=\"11\" text-anchor=\"middle\">" << value_text(c, tick) << "</text>\n";
    }
    if (!c.unit.empty())
        s << "<text x=\"" << left + plot / 2 << "\" y=\"" << height + 6
          << "\" font-size=\"11\" text-anchor=\"middle\">" << xml_escape(c.unit) << "</text>\n";
    for (std::size_t g = 0; g < c.groups.size(); ++g) {
        const double y = top + row * double(g);
        s << "<text x=\"" << left - 8 << "\" y=\"" << y + row / 2 - 2
          << "\" font-size=\"12\" text-anchor=\"end\">" << xml_escape(c.groups[g]) << "</text>\n";
        for (std::size_t m = 0; m < c.measures.size(); ++m) {
            const double v = c.values(g, m), from = std::min(at(0), at(v)), to = std::max(at(0), at(v));
            const double by = y + bar * double(m);
            // the label after the bar's right end (a negative bar's is the zero line)
            s << "<rect x=\"" << from << "\" y=\"" << by << "\" width=\"" << to - from
              << "\" height=\"" << bar - 2 << "\" fill=\"" << colours[m % 6] << "\"/><text x=\""
              << to + 4 << "\" y=\"" << by + bar - 4 << "\" font-size=\"10\">" << value_text(c, v)
              << "</text>\n";
        }
    }
    s << svg_end();
    return s.str();
}
