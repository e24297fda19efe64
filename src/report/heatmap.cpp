// heatmap.cpp — heatmaps as SVG text, and shaded in the terminal.
#include "report/heatmap.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "text/translate.h"
#include "report/chart.h"
#include "report/svg.h"

namespace {

// The axis titles a heatmap has unless its maker names others (Heatmap's defaults), marked for
// the catalog.
[[maybe_unused]] const char* const default_titles[] = {N_("query"), N_("key")};

}  // namespace

namespace {

constexpr double char_px = 7.0;  // the width of one terminal column of 12px text, generously
constexpr double font_px = 12.0;

// The colour scale of a figure: its kind and the values at its two ends.
struct Colours {
    Scale scale;
    double lo = 0.0, hi = 1.0;
    bool constant = false;  // every visible entry the same: nothing to show a legend bar for
};

bool is_hidden(const Heatmap& h, std::size_t r, std::size_t c) {
    return !std::isfinite(h.values(r, c)) || (!h.hidden.empty() && h.hidden(r, c) != 0.0);
}

Colours colours_of(const std::vector<Heatmap>& panels) {
    Colours k{panels.front().scale};
    if (k.scale == Scale::Weights || k.scale == Scale::Mask) return k;  // fixed: 0 … 1
    bool first = true;
    for (const Heatmap& h : panels)
        for (std::size_t r = 0; r < h.values.rows; ++r)
            for (std::size_t c = 0; c < h.values.cols; ++c) {
                if (is_hidden(h, r, c)) continue;
                const double x = h.values(r, c);
                k.lo = first ? x : std::min(k.lo, x);
                k.hi = first ? x : std::max(k.hi, x);
                first = false;
            }
    if (k.scale == Scale::Signed) {
        const double m = std::max(std::fabs(k.lo), std::fabs(k.hi));
        k.lo = -m;
        k.hi = m;
    }
    if (k.scale == Scale::Range && !first) {  // white is 0 when every value has one sign
        k.lo = std::min(k.lo, 0.0);
        k.hi = std::max(k.hi, 0.0);
    }
    k.constant = first || k.hi == k.lo;
    return k;
}

// Where a value sits on the scale, in [0, 1] (Signed: 0.5 is zero).
double position(double x, const Colours& k) {
    if (k.constant) return k.scale == Scale::Signed ? 0.5 : 0.0;
    return std::min(1.0, std::max(0.0, (x - k.lo) / (k.hi - k.lo)));
}

std::string fill(double t, Scale scale) {  // t from position()
    const double blue[3] = {0.13, 0.40, 0.67}, red[3] = {0.70, 0.09, 0.17};
    const bool two_sided = scale == Scale::Signed;
    const double a = two_sided ? std::fabs(2 * t - 1) : t;
    const double* end = two_sided && t > 0.5 ? red : blue;
    return rgb(1 + a * (end[0] - 1), 1 + a * (end[1] - 1), 1 + a * (end[2] - 1));
}

bool dark(double t, Scale scale) {
    return (scale == Scale::Signed ? std::fabs(2 * t - 1) : t) > 0.55;
}

std::string value_text(double x, Scale scale) {
    if (scale == Scale::Weights) return fixed(x, 2);
    return std::fabs(x) >= 1e4 || (std::fabs(x) < 1e-3 && x != 0) ? general(x, 2) : general(x, 3);
}

std::string label(const Labels& labels, std::size_t i) {
    return i < labels.size() ? labels[i] : std::to_string(i);
}

// The geometry of one panel: cells of cell_w x cell_h, the grid's top-left corner at (gx, gy).
struct Layout {
    double x0, y0, gx, gy, cell_w, cell_h, width, height;
    bool upright_cols;               // some column label is wider than its slot: drawn upright
    double col_band;                 // the height the column labels take above the grid
    bool values;                     // each cell's value written in it
    std::size_t row_step, col_step;  // every k-th label, for large matrices
};

double slot(const Layout& L) { return L.cell_w * static_cast<double>(L.col_step); }

double widest(const Labels& labels, std::size_t count, std::size_t step) {
    double w = 0;
    for (std::size_t i = 0; i < count; i += step) w = std::max(w, label_width(label(labels, i)));
    return w;
}

Layout layout_of(const Heatmap& h, double x0, double y0, bool subtitle) {
    const std::size_t rows = h.values.rows, cols = h.values.cols;
    const bool large = rows > 40 || cols > 40;
    Layout L{x0,    y0, 0, 0, large ? 8.0 : 36.0, large ? 8.0 : 36.0, 0, 0, false, 18,
             rows <= 12 && cols <= 12, 1, 1};
    L.row_step = large ? (rows + 15) / 16 : 1;
    L.col_step = large ? (cols + 15) / 16 : 1;
    const double col_w = widest(h.col_labels, cols, L.col_step);
    if (cols <= 12) L.cell_w = std::max(L.cell_w, col_w + 8);  // small: widen cells to fit labels
    L.upright_cols = col_w + 4 > slot(L);
    if (L.upright_cols) L.col_band = col_w + 8;
    const double row_w =
        std::max(widest(h.row_labels, rows, L.row_step), label_width(tr(h.row_title) + " ↓"));
    L.gx = x0 + row_w + 16;
    L.gy = y0 + 40 + (subtitle ? 20 : 0) + 18 + L.col_band;
    L.width = L.gx - x0 + L.cell_w * static_cast<double>(cols) + 24;
    L.height = L.gy - y0 + L.cell_h * static_cast<double>(rows) + 16;
    return L;
}

void draw_labels(std::ostringstream& s, const Heatmap& h, const Layout& L) {
    // the key axis's title above the column labels, never over them
    s << "<text class=\"axis-title\" x=\"" << L.gx << "\" y=\"" << L.gy - L.col_band - 8
      << "\" font-style=\"italic\">"
      << xml_escape(tr(h.col_title) + " →") << "</text>\n"
      << "<text class=\"axis-title\" x=\"" << L.gx - 8 << "\" y=\"" << L.gy - 6
      << "\" text-anchor=\"end\" font-style=\"italic\">" << xml_escape(tr(h.row_title) + " ↓")
      << "</text>\n";
    for (std::size_t c = 0; c < h.values.cols; c += L.col_step) {
        const double x = L.gx + L.cell_w * (static_cast<double>(c) + 0.5);
        const std::string& text = label(h.col_labels, c);
        if (label_width(text) + 4 > slot(L))  // turned, only when it is wider than its slot
            s << "<text class=\"col-label upright\" transform=\"translate(" << x + font_px / 3
              << "," << L.gy - 6 << ") rotate(-90)\">" << xml_escape(text)
              << "</text>\n";
        else
            s << "<text class=\"col-label\" x=\"" << x << "\" y=\"" << L.gy - 8
              << "\" text-anchor=\"middle\">" << xml_escape(text) << "</text>\n";
    }
    for (std::size_t r = 0; r < h.values.rows; r += L.row_step)
        s << "<text class=\"row-label\" x=\"" << L.gx - 6 << "\" y=\""
          << L.gy + L.cell_h * (static_cast<double>(r) + 0.5) + font_px / 3
          << "\" text-anchor=\"end\">" << xml_escape(label(h.row_labels, r)) << "</text>\n";
}

void draw_cells(std::ostringstream& s, const Heatmap& h, const Layout& L, const Colours& k) {
    const Matrix& m = h.values;
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double x = L.gx + L.cell_w * static_cast<double>(c),
                         y = L.gy + L.cell_h * static_cast<double>(r);
            const bool hidden = is_hidden(h, r, c);
            const double t = hidden ? 0 : position(m(r, c), k);
            s << "<rect class=\"cell" << (hidden ? " hidden" : "") << "\" x=\"" << x << "\" y=\""
              << y << "\" width=\"" << L.cell_w << "\" height=\"" << L.cell_h << "\" fill=\""
              << (hidden ? "url(#hidden)" : fill(t, k.scale)) << "\""
              << (k.scale == Scale::Mask ? " stroke=\"#ccc\""
                                         : "");  // white cells on white need an edge
            if (m.data.size() <=
                2000)  // a tooltip with the exact value, where the file stays small
                s << "><title>"
                  << xml_escape(label(h.row_labels, r) + ", " + label(h.col_labels, c) + ": " +
                                (hidden ? tr("hidden") : general(m(r, c), 6)))
                  << "</title></rect>\n";
            else
                s << "/>\n";
            if (L.values && !hidden)
                s << "<text class=\"value\" x=\"" << x + L.cell_w / 2 << "\" y=\""
                  << y + L.cell_h / 2 + 4 << "\" text-anchor=\"middle\" font-size=\"11\" fill=\""
                  << (dark(t, k.scale) ? "white" : "#222") << "\">"
                  << xml_escape(value_text(m(r, c), k.scale)) << "</text>\n";
        }
}

// A swatch and its text, in the legend column.
void swatch(std::ostringstream& s, double x, double y, const std::string& fill_with,
            const std::string& text) {
    s << "<rect class=\"legend\" x=\"" << x << "\" y=\"" << y
      << "\" width=\"16\" height=\"12\" fill=\"" << fill_with << "\" stroke=\"#999\"/>\n<text x=\""
      << x + 22 << "\" y=\"" << y + 10 << "\">" << xml_escape(text) << "</text>\n";
}

// The legend column at (x, y): a colour bar as tall as the grids (within 100..160px), its ends and
// middle labelled, and a hatched swatch when some cells are hidden. Returns where the legend ends.
double draw_legend(std::ostringstream& s, const Colours& k, double x, double y, double bar_h,
                   bool any_hidden) {
    if (k.scale == Scale::Mask) {
        swatch(s, x, y, "white", tr("0: visible"));
        swatch(s, x, y + 20, "url(#hidden)", tr("−∞: hidden"));
        return y + 40;
    }
    double end = y + 20;
    if (k.constant) {
        s << "<text class=\"legend-note\" x=\"" << x << "\" y=\"" << y + 10 << "\">"
          << xml_escape(tr("every entry: {}", general(k.lo, 4))) << "</text>\n";
    } else {
        const int steps = 20;
        const double step_h = std::clamp(bar_h, 100.0, 160.0) / steps;
        for (int i = 0; i < steps; ++i)  // the bar, from the top end down
            s << "<rect class=\"legend\" x=\"" << x << "\" y=\"" << y + step_h * i
              << "\" width=\"16\" height=\"" << step_h << "\" fill=\""
              << fill(1.0 - i / (steps - 1.0), k.scale) << "\"/>\n";
        for (const double v : axis_ticks(k.lo, k.hi, false)) {  // round values along the bar
            if (v < k.lo - 1e-12 || v > k.hi + 1e-12) continue;
            const double t = (v - k.lo) / (k.hi - k.lo);
            s << "<text class=\"legend-tick\" x=\"" << x + 22 << "\" y=\""
              << y + (1 - t) * step_h * (steps - 1) + 4 << "\">" << xml_escape(tick_text(v))
              << "</text>\n";
        }
        end = y + step_h * steps + 10;
    }
    if (any_hidden) swatch(s, x, end + 10, "url(#hidden)", tr("hidden (masked)"));
    return any_hidden ? end + 30 : end;
}

const char* const hatch =
    "<defs><pattern id=\"hidden\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e0e0e0\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888\" "
    "stroke-width=\"2\"/></pattern></defs>\n";

}  // namespace

double label_width(const std::string& text) {
    return char_px * static_cast<double>(display_width(text));
}

std::string heatmap_svg(const Heatmap& h) {
    return heatmaps_svg(h.title + "  " + shape_of(h.values), {h});
}

// Panels go left to right, starting a new row when a row would grow wider than about 1300px.
std::string heatmaps_svg(const std::string& title, const std::vector<Heatmap>& panels) {
    const Colours k = colours_of(panels);
    const bool several = panels.size() > 1;
    std::vector<Layout> layouts;
    double x = 10, y = 0, row_h = 0, widest_row = 0;
    bool any_hidden = false;
    for (const Heatmap& h : panels) {
        Layout L = layout_of(h, x, y, several);
        // a new row of panels past a book page's width, so that its labels are not shrunk
        if (x > 10 && x + L.width > 1000) {
            x = 10, y += row_h - 30, row_h = 0;
            L = layout_of(h, x, y, several);
        }
        layouts.push_back(L);
        x += L.width, row_h = std::max(row_h, L.height), widest_row = std::max(widest_row, x);
        for (std::size_t i = 0; i < h.values.data.size(); ++i)
            any_hidden = any_hidden || is_hidden(h, i / h.values.cols, i % h.values.cols);
    }
    const double grid_h = layouts.front().cell_h * static_cast<double>(panels.front().values.rows);
    std::ostringstream body;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        if (several)
            body << "<text class=\"panel-title\" x=\"" << layouts[i].gx << "\" y=\""
                 << layouts[i].y0 + 48 << "\" font-weight=\"bold\">"
                 << xml_escape(panels[i].title + "  " + shape_of(panels[i].values)) << "</text>\n";
        draw_labels(body, panels[i], layouts[i]);
        draw_cells(body, panels[i], layouts[i], k);
    }
    const double legend_end = draw_legend(body, k, widest_row + 10, layouts.front().gy, grid_h,
                                          any_hidden && k.scale != Scale::Mask);
    const double width =
        std::max(widest_row + 150, 20 + 9.0 * static_cast<double>(display_width(title)));
    const double height = std::max(y + row_h, legend_end + 10);
    return svg_begin(width, height) + hatch +
           "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" + xml_escape(title) +
           "</text>\n" + body.str() + svg_end();
}

void print_shaded(std::ostream& out, const std::string& title, const Matrix& m,
                  const std::string& legend) {
    static const char* const shades[] = {" ", "░", "▒", "▓", "█"};
    const Colours k = colours_of({Heatmap{title, m}});
    out << title << "  " << shape_of(m)
        << (legend.empty()
                ? tr(", shaded from {} (blank) to {} (█)", general(k.lo, 3), general(k.hi, 3))
                : tr(", shaded: {}", legend))
        << "\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        out << "  " << pad_left(std::to_string(r), 3) << " ";
        for (std::size_t c = 0; c < m.cols; ++c)
            out << shades[std::lround(position(m(r, c), k) * 4)];
        out << "\n";
    }
}
