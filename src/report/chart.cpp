// chart.cpp — axes, ticks, one polyline per series, and a legend.
#include "report/chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "report/svg.h"
#include "report/terminal.h"

namespace {

const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

struct Axis {
    double lo, hi;
    bool log;
    double map(double v, double from, double to) const {  // value -> pixel
        const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi,
                     x = log ? std::log10(v) : v;
        return b > a ? from + (x - a) / (b - a) * (to - from) : (from + to) / 2;
    }
};

Axis axis_of(const LineChart& c, bool x) {
    double lo = INFINITY, hi = -INFINITY;
    for (const Series& s : c.series)
        for (double v : x ? s.xs : s.ys)
            if (std::isfinite(v) && (!(x ? c.log_x : c.log_y) || v > 0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (!std::isfinite(lo)) { lo = 1; hi = 10; }
    return {lo, hi, x ? c.log_x : c.log_y};
}

}  // namespace

std::string line_chart_svg(const LineChart& c) {
    const double W = 640, H = 400, left = 70, right = 170, top = 40, bottom = 50;
    const Axis ax = axis_of(c, true), ay = axis_of(c, false);
    std::ostringstream s;
    s << svg_begin(W, H) << "<text x=\"" << left
      << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(c.title) << "</text>\n"
      << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << W - left - right
      << "\" height=\"" << H - top - bottom << "\" fill=\"none\" stroke=\"#888\"/>\n";
    // five ticks per axis, at the ends and between (geometric on a log axis)
    for (int i = 0; i <= 4; ++i) {
        const double f = i / 4.0;
        const double xv = ax.log ? ax.lo * std::pow(ax.hi / ax.lo, f) : ax.lo + f * (ax.hi - ax.lo);
        const double yv = ay.log ? ay.lo * std::pow(ay.hi / ay.lo, f) : ay.lo + f * (ay.hi - ay.lo);
        const double px = ax.map(xv, left, W - right), py = ay.map(yv, H - bottom, top);
        s << "<text x=\"" << px << "\" y=\"" << H - bottom + 16 << "\" text-anchor=\"middle\">"
          << general(xv, 3) << "</text>\n"
          << "<text x=\"" << left - 6 << "\" y=\"" << py + 4 << "\" text-anchor=\"end\">"
          << general(yv, 3) << "</text>\n";
    }
    s << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 12
      << "\" text-anchor=\"middle\">" << xml_escape(c.x_label) << "</text>\n"
      << "<text x=\"16\" y=\"" << (top + H - bottom) / 2
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << (top + H - bottom) / 2 << ")\">"
      << xml_escape(c.y_label) << "</text>\n";
    for (std::size_t k = 0; k < c.series.size(); ++k) {
        const Series& sr = c.series[k];
        const char* colour = colours[k % 6];
        s << "<polyline class=\"series\" fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"2\" points=\"";
        for (std::size_t i = 0; i < sr.xs.size() && i < sr.ys.size(); ++i)
            if (std::isfinite(sr.ys[i]) && (!ax.log || sr.xs[i] > 0) && (!ay.log || sr.ys[i] > 0))
                s << ax.map(sr.xs[i], left, W - right) << "," << ay.map(sr.ys[i], H - bottom, top)
                  << " ";
        s << "\"/>\n<text x=\"" << W - right + 12 << "\" y=\""
          << top + 16 + 18 * static_cast<double>(k) << "\" fill=\"" << colour << "\">"
          << xml_escape(sr.name) << "</text>\n";
    }
    s << svg_end();
    return s.str();
}
