// heatmap.cpp — heatmaps as SVG text, and shaded in the terminal.
#include "report/heatmap.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/svg.h"

namespace {

// t in [0, 1] for sequential, [−1, 1] for diverging
std::string colour(double t, bool diverging) {
    const double blue[3] = {0.13, 0.40, 0.67}, red[3] = {0.70, 0.09, 0.17};
    const double* end = diverging && t > 0 ? red : blue;
    const double a = std::min(1.0, std::fabs(t));
    return rgb(1 + a * (end[0] - 1), 1 + a * (end[1] - 1), 1 + a * (end[2] - 1));
}

struct Range {
    double lo, hi;
    bool has_masked;
};

Range finite_range(const Matrix& m) {
    Range r{0, 0, false};
    bool first = true;
    for (double x : m.data) {
        if (!std::isfinite(x)) {
            r.has_masked = true;
            continue;
        }
        r.lo = first ? x : std::min(r.lo, x);
        r.hi = first ? x : std::max(r.hi, x);
        first = false;
    }
    return r;
}

// Every label when they fit, else every k-th, so that large matrices stay readable.
std::size_t label_step(std::size_t count) { return count <= 40 ? 1 : (count + 31) / 32; }

std::string label(const Labels& labels, std::size_t i) {
    return i < labels.size() ? labels[i] : std::to_string(i);
}

// Where things go: cells of `cell` pixels, the grid's top-left corner at (left, top).
struct Layout {
    double cell, left, top, width, height;
};

Layout layout_of(const Heatmap& h) {
    const Matrix& m = h.values;
    Layout L{m.rows > 40 || m.cols > 40 ? 8.0 : 36.0, 0, 70, 0, 0};
    std::size_t label_chars = 1;
    for (std::size_t r = 0; r < m.rows; ++r)
        label_chars = std::max(label_chars, display_width(label(h.row_labels, r)));
    L.left = 16 + 7.5 * static_cast<double>(label_chars);
    const double title_width =
        L.left + 9.0 * static_cast<double>(display_width(h.title) + 8);  // bold 15px text
    L.width = std::max(L.left + L.cell * static_cast<double>(m.cols) + 150, title_width);
    L.height = std::max(L.top + L.cell * static_cast<double>(m.rows) + 30, 260.0);
    return L;
}

void cells(std::ostringstream& s, const Heatmap& h, const Layout& L, const Range& range,
           double scale) {
    const Matrix& m = h.values;
    for (std::size_t c = 0; c < m.cols; c += label_step(m.cols))
        s << "<text class=\"col-label\" x=\"" << L.left + L.cell * (static_cast<double>(c) + 0.5)
          << "\" y=\"" << L.top - 8 << "\" text-anchor=\"middle\">"
          << xml_escape(label(h.col_labels, c)) << "</text>\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        const double y = L.top + L.cell * static_cast<double>(r);
        if (r % label_step(m.rows) == 0)
            s << "<text class=\"row-label\" x=\"" << L.left - 6 << "\" y=\"" << y + L.cell / 2 + 4
              << "\" text-anchor=\"end\">" << xml_escape(label(h.row_labels, r)) << "</text>\n";
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double x = m(r, c);
            const double t = !std::isfinite(x) || scale == 0 ? 0
                             : h.diverging                   ? x / scale
                                                             : (x - range.lo) / scale;
            s << "<rect class=\"cell\" x=\"" << L.left + L.cell * static_cast<double>(c)
              << "\" y=\"" << y << "\" width=\"" << L.cell << "\" height=\"" << L.cell
              << "\" fill=\"" << (std::isfinite(x) ? colour(t, h.diverging) : "#404040") << "\"";
            if (m.data.size() <=
                2000)  // a tooltip with the exact value, where the file stays small
                s << "><title>"
                  << xml_escape(label(h.row_labels, r) + ", " + label(h.col_labels, c) + ": " +
                                general(x, 6))
                  << "</title></rect>\n";
            else
                s << "/>\n";
        }
    }
}

// A bar of 20 steps from the top value down to the bottom one, and the masked swatch.
void legend(std::ostringstream& s, const Heatmap& h, const Layout& L, const Range& range,
            double scale) {
    const double lx = L.left + L.cell * static_cast<double>(h.values.cols) + 30, ly = L.top,
                 steps = 20, step_h = 8;
    const double lo = h.diverging ? -scale : range.lo, hi = h.diverging ? scale : range.hi;
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - i / (steps - 1);  // 1 at the top
        s << "<rect class=\"legend\" x=\"" << lx << "\" y=\"" << ly + i * step_h
          << "\" width=\"16\" height=\"" << step_h << "\" fill=\""
          << colour(h.diverging ? 2 * t - 1 : t, h.diverging) << "\"/>\n";
    }
    s << "<text x=\"" << lx + 22 << "\" y=\"" << ly + 9 << "\">max " << xml_escape(general(hi, 4))
      << "</text>\n"
      << "<text x=\"" << lx + 22 << "\" y=\"" << ly + steps * step_h << "\">min "
      << xml_escape(general(lo, 4)) << "</text>\n";
    if (h.diverging)
        s << "<text x=\"" << lx + 22 << "\" y=\"" << ly + steps * step_h / 2 + 4 << "\">0</text>\n";
    if (range.has_masked)
        s << "<rect x=\"" << lx << "\" y=\"" << ly + steps * step_h + 14
          << "\" width=\"16\" height=\"12\" fill=\"#404040\"/>\n<text x=\"" << lx + 22 << "\" y=\""
          << ly + steps * step_h + 24 << "\">−∞ (hidden)</text>\n";
}

}  // namespace

std::string heatmap_svg(const Heatmap& h) {
    const Range range = finite_range(h.values);
    const double scale =
        h.diverging ? std::max(std::fabs(range.lo), std::fabs(range.hi)) : range.hi - range.lo;
    const Layout L = layout_of(h);
    std::ostringstream s;
    s << svg_begin(L.width, L.height) << "<text x=\"" << L.left
      << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(h.title) << "  "
      << shape_of(h.values) << "</text>\n";
    cells(s, h, L, range, scale);
    legend(s, h, L, range, scale);
    s << svg_end();
    return s.str();
}

void print_shaded(std::ostream& out, const std::string& title, const Matrix& m) {
    static const char* const shades[] = {" ", "░", "▒", "▓", "█"};
    const Range range = finite_range(m);
    out << title << "  " << shape_of(m) << ", shaded from " << general(range.lo, 3)
        << " (blank) to " << general(range.hi, 3) << " (█)\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        out << "  " << pad_left(std::to_string(r), 3) << " ";
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double t = range.hi > range.lo ? (m(r, c) - range.lo) / (range.hi - range.lo) : 0;
            out << shades[std::min<long>(4, std::lround(t * 4))];
        }
        out << "\n";
    }
}
