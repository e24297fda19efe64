// bar_chart.cpp — rows of horizontal bars on one 0–100% scale, a legend above.
#include "report/bar_chart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "report/svg.h"
#include "report/terminal.h"

namespace {

const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

std::string percent_text(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100 * share);
    return buf;
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
    std::ostringstream s;
    s << svg_begin(width, height);
    s << "<text x=\"16\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(c.title)
      << "</text>\n";
    double x = left;  // the legend: a swatch and a name per measure
    for (std::size_t m = 0; m < c.measures.size(); ++m) {
        s << "<rect x=\"" << x << "\" y=\"36\" width=\"12\" height=\"12\" fill=\""
          << colours[m % 6] << "\"/><text x=\"" << x + 16 << "\" y=\"46\" font-size=\"12\">"
          << xml_escape(c.measures[m]) << "</text>\n";
        x += 30 + 7.0 * double(display_width(c.measures[m]));
    }
    for (const double tick : {0.0, 0.25, 0.5, 0.75, 1.0}) {  // the scale, its grid lines
        const double px = left + tick * plot;
        s << "<line x1=\"" << px << "\" y1=\"" << top - 6 << "\" x2=\"" << px << "\" y2=\""
          << height - 26 << "\" stroke=\"#ddd\"/><text x=\"" << px << "\" y=\"" << height - 10
          << "\" font-size=\"11\" text-anchor=\"middle\">" << percent_text(tick) << "</text>\n";
    }
    for (std::size_t g = 0; g < c.groups.size(); ++g) {
        const double y = top + row * double(g);
        s << "<text x=\"" << left - 8 << "\" y=\"" << y + row / 2 - 2
          << "\" font-size=\"12\" text-anchor=\"end\">" << xml_escape(c.groups[g]) << "</text>\n";
        for (std::size_t m = 0; m < c.measures.size(); ++m) {
            const double share = std::clamp(c.shares(g, m), 0.0, 1.0);
            const double by = y + bar * double(m);
            s << "<rect x=\"" << left << "\" y=\"" << by << "\" width=\"" << share * plot
              << "\" height=\"" << bar - 2 << "\" fill=\"" << colours[m % 6] << "\"/><text x=\""
              << left + share * plot + 4 << "\" y=\"" << by + bar - 4
              << "\" font-size=\"10\">" << percent_text(c.shares(g, m)) << "</text>\n";
        }
    }
    s << svg_end();
    return s.str();
}
