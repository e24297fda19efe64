// heatmap.h — a matrix as a picture a reader can read numbers from: an SVG heatmap (one
// coloured cell per entry, the value written in it when the matrix is small, row and column
// labels that never overlap, axis titles, a legend), and its terminal cousin.
//
// The colour scale says what the numbers are:
//   Weights  attention weights: white 0 … blue 1, fixed, so that two pictures compare (a row
//            of weights all ≈ 0.33 is pale, not "sharply peaked")
//   Signed   blue −max … white 0 … red +max, symmetric (encodings, scores)
//   Range    white at 0 … blue at the largest (anything else; white at the smallest value when
//            that is negative)
//   Mask     a mask: 0 (visible) white; −inf (hidden) hatched grey
// Hidden cells — masked keys, padding — are hatched grey in every scale, never drawn as a
// small weight: an entry −inf, or one flagged in `hidden`.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "report/terminal.h"

enum class Scale { Weights, Signed, Range, Mask };

struct Heatmap {
    std::string title;
    Matrix values;
    Labels row_labels = {};  // tokens, or empty for indices
    Labels col_labels = {};
    Scale scale = Scale::Range;
    Matrix hidden = Matrix();  // optional, the shape of values: 1 where the entry is masked
    std::string row_title = "query", col_title = "key";  // drawn "query ↓", "key →", translated
};

std::string heatmap_svg(const Heatmap& h);

// Several heatmaps side by side on one colour scale, with one legend: all heads of a layer.
std::string heatmaps_svg(const std::string& title, const std::vector<Heatmap>& panels);

// Text cells for a picture: how wide a label is drawn, in pixels, by the same estimate the
// terminal uses (display_width: a CJK character is two columns). Used by the layout and by the
// tests that check that no two labels overlap.
double label_width(const std::string& text);

// A compact shaded heatmap for the terminal, one character per entry: " ░▒▓█" from the
// smallest to the largest value.
// legend: what the shades mean, instead of the scale's ends ("" for those).
void print_shaded(std::ostream& out, const std::string& title, const Matrix& m,
                  const std::string& legend = "");
