// heatmap.h — a matrix as a picture: an SVG heatmap (one coloured square per entry, row and
// column labels, a title and a colour scale with its legend), and its terminal cousin.
//
// Two colour scales:
//   sequential  white → blue from the smallest to the largest value (attention weights)
//   diverging   blue → white → red, white at zero, symmetric (encodings, signed values)
// A −inf entry (a masked score) is drawn dark grey and named in the legend.
#pragma once
#include <ostream>
#include <string>

#include "core/matrix.h"
#include "report/terminal.h"

struct Heatmap {
    std::string title;
    Matrix values;
    Labels row_labels = {};  // tokens, or empty for indices
    Labels col_labels = {};
    bool diverging = false;
};

std::string heatmap_svg(const Heatmap& h);

// A compact shaded heatmap for the terminal, one character per entry: " ░▒▓█" from the
// smallest to the largest value.
void print_shaded(std::ostream& out, const std::string& title, const Matrix& m);
