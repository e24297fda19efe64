// svg.cpp — heatmaps as SVG text, and their terminal cousin.
#include "svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace {

std::string escape(const std::string& s) {  // text inside XML
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

std::string rgb(double r, double g, double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(255 * r)),
                  static_cast<int>(std::lround(255 * g)), static_cast<int>(std::lround(255 * b)));
    return buf;
}

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
        if (!std::isfinite(x)) { r.has_masked = true; continue; }
        r.lo = first ? x : std::min(r.lo, x);
        r.hi = first ? x : std::max(r.hi, x);
        first = false;
    }
    return r;
}

// Every label when they fit, else every k-th, so that large matrices stay readable.
std::size_t label_step(std::size_t count) { return count <= 40 ? 1 : (count + 31) / 32; }

std::string label(const Labels& labels, std::size_t i) { return i < labels.size() ? labels[i] : std::to_string(i); }

}  // namespace

std::string heatmap_svg(const Heatmap& h) {
    const Matrix& m = h.values;
    const Range range = finite_range(m);
    const double scale = h.diverging ? std::max(std::fabs(range.lo), std::fabs(range.hi)) : range.hi - range.lo;
    const double cell = m.rows > 40 || m.cols > 40 ? 8 : 36;
    std::size_t label_chars = 1;
    for (std::size_t r = 0; r < m.rows; ++r) label_chars = std::max(label_chars, display_width(label(h.row_labels, r)));
    const double left = 16 + 7.5 * static_cast<double>(label_chars), top = 70;
    const double title_width = left + 9.0 * static_cast<double>(display_width(h.title) + 8);  // bold 15px text
    const double width = std::max(left + cell * static_cast<double>(m.cols) + 150, title_width), height = top + cell * static_cast<double>(m.rows) + 30;
    std::ostringstream s;
    s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << std::max(height, 260.0)
      << "\" font-family=\"'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << escape(h.title) << "  "
      << shape_of(m) << "</text>\n";
    // column labels, then each row: its label and one rect per entry
    for (std::size_t c = 0; c < m.cols; c += label_step(m.cols))
        s << "<text class=\"col-label\" x=\"" << left + cell * (static_cast<double>(c) + 0.5) << "\" y=\"" << top - 8
          << "\" text-anchor=\"middle\">" << escape(label(h.col_labels, c)) << "</text>\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        const double y = top + cell * static_cast<double>(r);
        if (r % label_step(m.rows) == 0)
            s << "<text class=\"row-label\" x=\"" << left - 6 << "\" y=\"" << y + cell / 2 + 4 << "\" text-anchor=\"end\">"
              << escape(label(h.row_labels, r)) << "</text>\n";
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double x = m(r, c);
            const double t = !std::isfinite(x) || scale == 0 ? 0 : h.diverging ? x / scale : (x - range.lo) / scale;
            s << "<rect class=\"cell\" x=\"" << left + cell * static_cast<double>(c) << "\" y=\"" << y << "\" width=\""
              << cell << "\" height=\"" << cell << "\" fill=\"" << (std::isfinite(x) ? colour(t, h.diverging) : "#404040") << "\"";
            if (m.data.size() <= 2000)  // a tooltip with the exact value, where the file stays small
                s << "><title>" << escape(label(h.row_labels, r) + ", " + label(h.col_labels, c) + ": " + general(x, 6))
                  << "</title></rect>\n";
            else
                s << "/>\n";
        }
    }
    // the legend: a bar of 20 steps from the top value down to the bottom one
    const double lx = left + cell * static_cast<double>(m.cols) + 30, ly = top, steps = 20, step_h = 8;
    const double lo = h.diverging ? -scale : range.lo, hi = h.diverging ? scale : range.hi;
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - i / (steps - 1);  // 1 at the top
        s << "<rect class=\"legend\" x=\"" << lx << "\" y=\"" << ly + i * step_h << "\" width=\"16\" height=\"" << step_h
          << "\" fill=\"" << colour(h.diverging ? 2 * t - 1 : t, h.diverging) << "\"/>\n";
    }
    s << "<text x=\"" << lx + 22 << "\" y=\"" << ly + 9 << "\">max " << escape(general(hi, 4)) << "</text>\n"
      << "<text x=\"" << lx + 22 << "\" y=\"" << ly + steps * step_h << "\">min " << escape(general(lo, 4)) << "</text>\n";
    if (h.diverging) s << "<text x=\"" << lx + 22 << "\" y=\"" << ly + steps * step_h / 2 + 4 << "\">0</text>\n";
    if (range.has_masked)
        s << "<rect x=\"" << lx << "\" y=\"" << ly + steps * step_h + 14 << "\" width=\"16\" height=\"12\" fill=\"#404040\"/>\n"
          << "<text x=\"" << lx + 22 << "\" y=\"" << ly + steps * step_h + 24 << "\">−∞ (hidden)</text>\n";
    s << "</svg>\n";
    return s.str();
}

void write_file_atomically(const std::string& dir, const std::string& name, const std::string& text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path target = fs::path(dir) / name, temp = fs::path(dir) / ("." + name + ".tmp");
    {
        std::ofstream f(temp, std::ios::binary);
        if (!f || !(f << text) || !(f.flush()))
            throw std::runtime_error(target.string() + ": cannot write (is the directory writable?)");
    }
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw std::runtime_error(target.string() + ": cannot write");
    }
}

void print_shaded(std::ostream& out, const std::string& title, const Matrix& m) {
    static const char* const shades[] = {" ", "░", "▒", "▓", "█"};
    const Range range = finite_range(m);
    out << title << "  " << shape_of(m) << ", shaded from " << general(range.lo, 3) << " (blank) to "
        << general(range.hi, 3) << " (█)\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        out << "  " << pad_left(std::to_string(r), 3) << " ";
        for (std::size_t c = 0; c < m.cols; ++c) {
            const double t = range.hi > range.lo ? (m(r, c) - range.lo) / (range.hi - range.lo) : 0;
            out << shades[std::min<long>(4, std::lround(t * 4))];
        }
        out << "\n";
    }
}
