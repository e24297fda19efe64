// svg.h — a matrix as an SVG heatmap: one coloured square per entry, row and column labels,
// a title and a colour scale with its legend. No dependency: SVG is text, and any browser
// opens it.
//
// Two colour scales:
//   sequential  white → blue from the smallest to the largest value (attention weights)
//   diverging   blue → white → red, white at zero, symmetric (encodings, signed values)
// A −inf entry (a masked score) is drawn dark grey and named in the legend.
#pragma once
#include <string>

#include "matrix.h"
#include "print.h"

struct Heatmap {
    std::string title;
    Matrix values;
    Labels row_labels = {};  // tokens, or empty for indices
    Labels col_labels = {};
    bool diverging = false;
};

std::string heatmap_svg(const Heatmap& h);

// Writes text to DIR/name atomically (a temporary file, then rename), creating DIR if needed.
// Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& dir, const std::string& name, const std::string& text);

// A compact shaded heatmap for the terminal, one character per entry: " ░▒▓█" from the
// smallest to the largest value.
void print_shaded(std::ostream& out, const std::string& title, const Matrix& m);
