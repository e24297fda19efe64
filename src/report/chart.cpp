// chart.cpp — axes with round ticks, one polyline (and markers) per series, and a legend.
#include "report/chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "text/translate.h"
#include "report/svg.h"
#include "report/terminal.h"

namespace {

const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

// An axis: the data range widened to round tick values, and the map from a value to pixels.
struct Axis {
    double lo, hi;
    bool log;
    std::vector<double> ticks;
    double to_pixel(double v, double from, double to) const {
        const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi,
                     x = log ? std::log10(v) : v;
        return b > a ? from + (x - a) / (b - a) * (to - from) : (from + to) / 2;
    }
};

Axis axis_of(const LineChart& c, bool x_axis) {
    const bool log = x_axis ? c.log_x : c.log_y;
    double lo = INFINITY, hi = -INFINITY;
    for (const Series& s : c.series)
        for (double v : x_axis ? s.xs : s.ys)
            if (std::isfinite(v) && (!log || v > 0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (!std::isfinite(lo)) lo = 1, hi = 10;
    if (log && !x_axis) lo /= 1.15;  // the lowest value (a loss at its floor) above the axis line
    Axis a{lo, hi, log, x_axis && !c.x_ticks.empty() ? c.x_ticks : axis_ticks(lo, hi, log)};
    a.lo = std::min(lo, a.ticks.front());  // the axis spans its first and last tick
    a.hi = std::max(hi, a.ticks.back());
    // and a little more where a point would sit on the frame: 4% of the span on each side
    const double span = log ? std::log10(a.hi / a.lo) : a.hi - a.lo;
    const double pad = span > 0 ? 0.04 * span : (log ? 0.1 : 1.0);
    if (lo <= a.lo) a.lo = log ? a.lo / std::pow(10.0, pad) : a.lo - pad;
    if (hi >= a.hi) a.hi = log ? a.hi * std::pow(10.0, pad) : a.hi + pad;
    return a;
}

void draw_axes(std::ostringstream& s, const LineChart& c, const Axis& ax, const Axis& ay,
               double left, double right, double top, double bottom) {
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\""
      << bottom - top << "\" fill=\"none\" stroke=\"#888\"/>\n";
    double label_end = -1e9;  // where the last x label written ends: none may overlap it
    for (double t : ax.ticks) {
        const double px = ax.to_pixel(t, left, right);
        const double half = 3.6 * static_cast<double>(tick_text(t).size());  // ~7 px a digit
        s << "<line x1=\"" << px << "\" y1=\"" << bottom << "\" x2=\"" << px << "\" y2=\""
          << bottom + 4 << "\" stroke=\"#888\"/>";
        if (px - half > label_end + 6) {
            s << "<text class=\"x-tick\" x=\"" << px << "\" y=\"" << bottom + 17
              << "\" text-anchor=\"middle\">" << tick_text(t) << "</text>";
            label_end = px + half;
        }
        s << "\n";
    }
    for (double t : ay.ticks) {
        const double py = ay.to_pixel(t, bottom, top);
        s << "<line x1=\"" << left - 4 << "\" y1=\"" << py << "\" x2=\"" << right << "\" y2=\""
          << py << "\" stroke=\"#eee\"/><text class=\"y-tick\" x=\"" << left - 7 << "\" y=\""
          << py + 4 << "\" text-anchor=\"end\">" << tick_text(t) << "</text>\n";
    }
    const std::string xl = ax.log ? tr("{} (log scale)", c.x_label) : c.x_label,
                      yl = ay.log ? tr("{} (log scale)", c.y_label) : c.y_label;
    const double mid_y = (top + bottom) / 2;
    s << "<text class=\"axis-title\" x=\"" << (left + right) / 2 << "\" y=\"" << bottom + 38
      << "\" text-anchor=\"middle\">" << xml_escape(xl)
      << "</text>\n<text class=\"axis-title\" x=\"16\" y=\"" << mid_y
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << mid_y << ")\">" << xml_escape(yl)
      << "</text>\n";
}

// A note written at the end of a line ("slope 1.97"), placed after all lines are drawn.
struct Note {
    double x, y;
    std::string text, colour;
};

void draw_series(std::ostringstream& s, const Series& sr, const char* colour, const Axis& ax,
                 const Axis& ay, double left, double right, double top, double bottom,
                 std::vector<Note>& notes) {
    std::ostringstream points, marks;
    double last_x = left, last_y = top;
    for (std::size_t i = 0; i < sr.xs.size() && i < sr.ys.size(); ++i) {
        if (!std::isfinite(sr.ys[i]) || (ax.log && sr.xs[i] <= 0) || (ay.log && sr.ys[i] <= 0))
            continue;
        last_x = ax.to_pixel(sr.xs[i], left, right);
        last_y = ay.to_pixel(sr.ys[i], bottom, top);
        points << last_x << "," << last_y << " ";
        if (sr.markers || !sr.joined)
            marks << "<circle class=\"marker\" cx=\"" << last_x << "\" cy=\"" << last_y
                  << "\" r=\"" << (sr.joined ? 3 : 4) << "\" fill=\"" << colour << "\"/>\n";
        if (i < sr.labels.size())
            notes.push_back({last_x + 7, last_y + 4, sr.labels[i], colour});
    }
    if (sr.joined)
        s << "<polyline class=\"series\" fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"2\"" << (sr.dashed ? " stroke-dasharray=\"6,4\"" : "")
          << " points=\"" << points.str() << "\"/>\n";
    s << marks.str();
    if (!sr.note.empty()) notes.push_back({last_x + 6, last_y + 4, sr.note, colour});
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, bool log) {
    std::vector<double> ticks;
    if (log) {  // the coarsest of 1 / 1, 2, 5 / 1..9 in every decade that gives three ticks or more
        const double first = std::floor(std::log10(lo)), last = std::ceil(std::log10(hi));
        for (const std::vector<double>& mantissas :
             {std::vector<double>{1}, std::vector<double>{1, 2, 5},
              std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
            ticks.clear();
            for (double e = first; e <= last; ++e)
                for (double m : mantissas) {
                    const double t = m * std::pow(10.0, e);
                    if (t >= lo / 1.0001 && t <= hi * 1.0001) ticks.push_back(t);
                }
            if (ticks.size() >= 3) return ticks;
        }
        if (ticks.size() < 2) ticks = {std::pow(10.0, first), std::pow(10.0, last)};
        return ticks;
    }
    if (!(hi > lo)) return {lo};
    const double raw = (hi - lo) / 5, unit = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = unit * (raw / unit <= 1   ? 1
                                : raw / unit <= 2 ? 2
                                : raw / unit <= 5 ? 5
                                                  : 10);
    for (double t = std::floor(lo / step) * step; t <= hi + step / 2; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::string tick_text(double v) {
    if (std::fabs(v) >= 1 && v == std::floor(v) &&
        std::fabs(v) < 1e15) {  // whole: with thousands commas
        std::string digits = std::to_string(static_cast<long long>(std::fabs(v))), out;
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i && (digits.size() - i) % 3 == 0) out += ',';
            out += digits[i];
        }
        return (v < 0 ? "-" : "") + out;
    }
    return general(v, 6);
}

std::string line_chart_svg(const LineChart& c) {
    const double W = 700, H = 440, left = 78, right = W - 130, top = 40, bottom = H - 90;
    const Axis ax = axis_of(c, true), ay = axis_of(c, false);
    std::ostringstream s;
    s << svg_begin(W, H) << "<text x=\"" << left
      << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(c.title) << "</text>\n";
    draw_axes(s, c, ax, ay, left, right, top, bottom);
    double legend_x = left;  // the legend: one row under the axis title
    std::vector<Note> notes;
    for (std::size_t k = 0; k < c.series.size(); ++k) {
        const char* colour = c.series[k].dashed ? "#777" : colours[k % 6];
        draw_series(s, c.series[k], colour, ax, ay, left, right, top, bottom, notes);
        const double y = H - 20;
        s << "<line x1=\"" << legend_x << "\" y1=\"" << y - 4 << "\" x2=\"" << legend_x + 18
          << "\" y2=\"" << y - 4 << "\" stroke=\"" << colour << "\" stroke-width=\"2\""
          << (c.series[k].dashed ? " stroke-dasharray=\"4,3\"" : "")
          << "/><text class=\"legend\" x=\"" << legend_x + 22 << "\" y=\"" << y << "\" fill=\""
          << colour << "\">" << xml_escape(c.series[k].name) << "</text>\n";
        legend_x += 40 + 7.0 * static_cast<double>(display_width(c.series[k].name));
    }
    // notes that would overlap (near each other across) are pushed apart, top to bottom, 13 px
    // (one line of text) at least
    std::sort(notes.begin(), notes.end(), [](const Note& a, const Note& b) { return a.y < b.y; });
    for (std::size_t i = 1; i < notes.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (std::fabs(notes[i].x - notes[j].x) < 60)
                notes[i].y = std::max(notes[i].y, notes[j].y + 13);
    for (const Note& n : notes)
        s << "<text class=\"note\" x=\"" << n.x << "\" y=\"" << n.y << "\" fill=\"" << n.colour
          << "\">" << xml_escape(n.text) << "</text>\n";
    s << svg_end();
    return s.str();
}
