// svg.h — what every picture shares: SVG is text, any browser opens it, so pictures need no
// library. Text is escaped once, here, for every picture.
#pragma once
#include <string>

// Text made safe inside an XML element or attribute: & < > " become entities.
std::string xml_escape(const std::string& text);

// "#1f77b4" from red, green, blue in [0, 1].
std::string rgb(double r, double g, double b);

// The opening of a picture of the given size (white background, fonts that have CJK glyphs),
// and its end.
std::string svg_begin(double width, double height);
std::string svg_end();
