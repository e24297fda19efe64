// svg.cpp — escaping, colours and the frame of an SVG document.
#include "report/svg.h"

#include <cmath>
#include <cstdio>
#include <sstream>

std::string xml_escape(const std::string& s) {
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

std::string svg_begin(double width, double height) {
    std::ostringstream s;
    s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      // a Latin font first, so that ·, √ and digits keep their own shapes; Chinese falls back
      << "\" font-family=\"'DejaVu Sans', 'Noto Sans', Arial, 'Noto Sans CJK SC', 'Noto Sans SC', "
         "'Microsoft YaHei', sans-serif\""
      << " font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    return s.str();
}

std::string svg_end() { return "</svg>\n"; }
