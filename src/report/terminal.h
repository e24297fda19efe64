// terminal.h — printing for a terminal: labelled matrices and tables, aligned even when the
// labels are Chinese.
//
// A CJK character such as 笔 takes two terminal columns but is three bytes of UTF-8, so
// widths are counted in columns (display_width), never in bytes.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "core/matrix.h"
#include "text/numbers.h"

using Labels = std::vector<std::string>;  // one label per row or column; empty: use indices

// No line the programs print is wider than this many terminal columns: tables break their
// headers into lines and go in groups of columns, matrices too, paragraphs wrap.
constexpr std::size_t terminal_width = 100;

std::size_t display_width(const std::string& utf8);              // terminal columns

// An error message as the one line it must be: a newline, a tab or another control character
// that came in with the reader's text written as an escape (\n, \x1b).
std::string one_line(const std::string& text);
std::string pad_left(const std::string& s, std::size_t width);   // right-aligned
std::string pad_right(const std::string& s, std::size_t width);  // left-aligned

// A heading for one step of the walkthrough.
void print_step(std::ostream& out, const std::string& title);

// text broken into lines of at most `width` terminal columns, each after `indent` (the first
// after `first`): at spaces, or between two CJK characters, which need none.
std::string wrap(const std::string& text, std::size_t width, const std::string& first = "",
                 const std::string& indent = "");

// A matrix under its title and shape, rows and columns labelled:
//            笔       记       本
//   笔   0.4683   0.0634   0.4683
// decimals < 0 picks: none when every entry is a whole number, else 4.
void print_matrix(std::ostream& out, const std::string& title, const Matrix& m,
                  const Labels& row_labels = {}, const Labels& col_labels = {}, int decimals = -1);

// The decimals a matrix is printed with: the ones asked for, or (decimals < 0) none when every
// entry is a whole number, else 4 — in the terminal and on a page alike.
int matrix_decimals(const Matrix& m, int decimals);

// A plain table of text cells, columns as wide as their widest cell.
class Table {
public:
    explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void print(std::ostream& out) const;
    const std::vector<std::string>& header() const { return header_; }
    const std::vector<std::vector<std::string>>& rows() const { return rows_; }

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};
