// terminal.cpp — terminal output: display widths, number formats, matrices and tables.
#include "report/terminal.h"

#include <cmath>
#include <cstdio>
#include <sstream>

// True for code points that terminals draw two columns wide (East Asian Wide and Fullwidth:
// Hangul Jamo, CJK punctuation and ideographs, Hangul syllables, fullwidth forms, …).
static bool is_wide(unsigned long cp) {
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

std::size_t display_width(const std::string& s) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char b = static_cast<unsigned char>(s[i]);
        // the lead byte says how many bytes the character has
        std::size_t len = b < 0x80           ? 1
                          : (b >> 5) == 0x6  ? 2
                          : (b >> 4) == 0xE  ? 3
                          : (b >> 3) == 0x1E ? 4
                                             : 1;
        unsigned long cp = len == 1 ? b : b & (0xFF >> (len + 1));
        for (std::size_t k = 1; k < len && i + k < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        const bool combining =
            cp >= 0x0300 && cp <= 0x036F;  // accents drawn over the previous letter
        width += combining ? 0 : is_wide(cp) ? 2 : 1;
        i += len;
    }
    return width;
}

std::string pad_left(const std::string& s, std::size_t width) {
    const std::size_t w = display_width(s);
    return w >= width ? s : std::string(width - w, ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
    const std::size_t w = display_width(s);
    return w >= width ? s : s + std::string(width - w, ' ');
}

// The UTF-8 characters of s, one string each.
static std::vector<std::string> characters(const std::string& s) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char b = static_cast<unsigned char>(s[i]);
        const std::size_t len = b < 0x80           ? 1
                                : (b >> 5) == 0x6  ? 2
                                : (b >> 4) == 0xE  ? 3
                                : (b >> 3) == 0x1E ? 4
                                                   : 1;
        out.push_back(s.substr(i, len));
        i += len;
    }
    return out;
}

// Chinese punctuation that may not start a line (it stays with the character before it), and
// punctuation that may not end one (it goes with the character after it).
static bool one_of(const std::string& ch, std::initializer_list<const char*> set) {
    for (const char* c : set)
        if (ch == c) return true;
    return false;
}
static bool closing(const std::string& ch) {
    return one_of(
        ch, {"，", "。", "；", "：", "！", "？", "、", "）", "》", "」", "』", "”", "’", "…"});
}
static bool opening(const std::string& ch) {
    return one_of(ch, {"（", "《", "「", "『", "“", "‘"});
}

namespace {

struct Piece {
    std::string text;
    bool space_before;  // a space separated it from the piece before, in the text
};

// The text cut into pieces that a line may not break inside: words, and every CJK character on
// its own, a closing mark kept with what it closes and an opening one with what it opens.
std::vector<Piece> pieces_of(const std::string& text) {
    std::vector<Piece> pieces;
    bool space = false;
    for (const std::string& ch : characters(text)) {
        if (ch == " " || ch == "\n") {
            space = true;
        } else if (!space && !pieces.empty() &&
                   (closing(ch) || opening(characters(pieces.back().text).back()))) {
            pieces.back().text += ch;  // never a line that starts with "，" or ends with "（"
        } else if (display_width(ch) == 2 || pieces.empty() || space ||
                   display_width(pieces.back().text) == 0 ||
                   display_width(characters(pieces.back().text).back()) == 2) {
            pieces.push_back({ch, space});  // a new piece: after a space, or a CJK character
            space = false;
        } else {
            pieces.back().text += ch;
        }
    }
    return pieces;
}

// An operator keeps its two sides on one line: "d_model = 4", "log P / lp" never break at the
// sign.
std::vector<Piece> glued_at_operators(const std::vector<Piece>& pieces) {
    static const char* const operators[] = {"=", "≈", "<", ">", "≤", "≥", "/", "·",
                                            "×", "+", "−", "∝", "→", "≠", "|"};
    const auto is_operator = [](const std::string& t) {
        for (const char* op : operators)
            if (t == op) return true;
        return false;
    };
    std::vector<Piece> glued;
    bool glue_next = false;
    for (const Piece& p : pieces) {
        const bool op = is_operator(p.text);
        if (!glued.empty() && (op || glue_next)) {
            glued.back().text += (p.space_before ? " " : "") + p.text;
            glue_next = op;
        } else {
            glued.push_back(p);
            glue_next = false;
        }
    }
    return glued;
}

// Whether a piece ends with a comma or pause mark.
bool ends_in_pause(const Piece& p) {
    for (const char* mark : {"，", "、", "；", "：", "。", "）", "」", "”"})
        if (p.text.size() >= 3 && p.text.compare(p.text.size() - 3, 3, mark) == 0) return true;
    return false;
}

// The columns pieces from … end take on a line.
std::size_t width_of(const std::vector<Piece>& ps, std::size_t from) {
    std::size_t w = 0;
    for (std::size_t i = from; i < ps.size(); ++i)
        w += display_width(ps[i].text) + (i > from && ps[i].space_before ? 1 : 0);
    return w;
}

// Where a full line of pieces breaks before `next`. Chinese may break between any two
// characters, but a break inside a word ("每一|章") reads badly: a line of Chinese breaks after
// the last comma or pause mark (or space) of its final 10 columns when there is one.
std::size_t break_before(const std::vector<Piece>& line, const Piece& next) {
    const bool chinese = display_width(next.text) == 2 * characters(next.text).size() &&
                         display_width(line.back().text) == 2;
    for (std::size_t k = line.size(); chinese && k-- > 1;) {
        if (width_of(line, k) > 10) break;
        if (ends_in_pause(line[k - 1]) || line[k].space_before) return k;
    }
    return line.size();
}

}  // namespace

std::string wrap(const std::string& text, std::size_t width, const std::string& first,
                 const std::string& indent) {
    const std::vector<Piece> pieces = glued_at_operators(pieces_of(text));
    std::string out;
    std::vector<Piece> line;  // the pieces of the line being laid out
    std::string lead = first;
    const auto emit = [&](std::size_t count) {
        std::string text = lead;
        for (std::size_t i = 0; i < count; ++i)
            text += (i > 0 && line[i].space_before ? " " : "") + line[i].text;
        out += text + "\n";
        line.erase(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(count));
        lead = indent;
    };
    for (const Piece& p : pieces) {
        const std::size_t used = display_width(lead) + width_of(line, 0);
        const std::size_t sep = p.space_before && !line.empty() ? 1 : 0;
        if (!line.empty() && used + sep + display_width(p.text) > width) emit(break_before(line, p));
        line.push_back(p);
    }
    emit(line.size());
    return out;
}

void print_step(std::ostream& out, const std::string& title) {
    const std::size_t w = display_width(title);
    out << "\n== " << title << " " << std::string(w < 68 ? 68 - w : 2, '=') << "\n";
}

static bool all_whole(const Matrix& m) {
    for (double x : m.data)
        if (!std::isinf(x) && (x != std::floor(x) || std::fabs(x) > 1e15))
            return false;  // −inf masks count as whole
    return true;
}

int matrix_decimals(const Matrix& m, int decimals) {
    return decimals >= 0 ? decimals : all_whole(m) ? 0 : 4;
}

namespace {

// Column groups that fit the terminal: each a run of columns after the first (the labels, shown
// in every group), as many as fit beside it in terminal_width. widths: every column's, the
// separator included.
std::vector<std::pair<std::size_t, std::size_t>> column_groups(
    const std::vector<std::size_t>& widths) {
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    const std::size_t first = widths.empty() ? 0 : widths[0];
    std::size_t begin = 1, used = first;
    for (std::size_t c = 1; c < widths.size(); ++c) {
        if (used + widths[c] > terminal_width && c > begin) {
            groups.push_back({begin, c});
            begin = c, used = first;
        }
        used += widths[c];
    }
    groups.push_back({begin, widths.size()});
    return groups;
}

// The longest word of a header (where wrap may break it: spaces, between CJK characters).
std::size_t longest_word(const std::string& text) {
    std::size_t longest = 0;
    std::istringstream lines(wrap(text, 1));
    for (std::string line; std::getline(lines, line);)
        longest = std::max(longest, display_width(line));
    return longest;
}

}  // namespace

void print_matrix(std::ostream& out, const std::string& title, const Matrix& m,
                  const Labels& row_labels, const Labels& col_labels, int decimals) {
    decimals = matrix_decimals(m, decimals);
    out << title << "  " << shape_of(m) << "\n";
    auto row_label = [&](std::size_t r) {
        return r < row_labels.size() ? row_labels[r] : std::to_string(r);
    };
    auto col_label = [&](std::size_t c) {
        return c < col_labels.size() ? col_labels[c] : std::to_string(c);
    };
    std::size_t label_w = 0;
    for (std::size_t r = 0; r < m.rows; ++r)
        label_w = std::max(label_w, display_width(row_label(r)));
    // each column as wide as its label or its widest number (a long label widens only its own)
    std::vector<std::size_t> cell_w(m.cols, 0);
    for (std::size_t c = 0; c < m.cols; ++c) {
        cell_w[c] = display_width(col_label(c));
        for (std::size_t r = 0; r < m.rows; ++r)
            cell_w[c] = std::max(cell_w[c], fixed(m(r, c), decimals).size());
    }
    // wider than the terminal: the columns in groups, one below the other, each labelled
    std::vector<std::size_t> widths = {2 + label_w};
    for (std::size_t c = 0; c < m.cols; ++c) widths.push_back(2 + cell_w[c]);
    for (const auto& [begin, end] : column_groups(widths)) {
        out << "  " << std::string(label_w, ' ');
        for (std::size_t c = begin - 1; c < end - 1; ++c)
            out << "  " << pad_left(col_label(c), cell_w[c]);
        out << "\n";
        for (std::size_t r = 0; r < m.rows; ++r) {
            out << "  " << pad_right(row_label(r), label_w);
            for (std::size_t c = begin - 1; c < end - 1; ++c)
                out << "  " << pad_left(fixed(m(r, c), decimals), cell_w[c]);
            out << "\n";
        }
    }
}

void Table::print(std::ostream& out) const {
    const std::size_t n = header_.size();
    std::vector<std::size_t> data(n, 0), w(n, 0);
    for (const auto& row : rows_)
        for (std::size_t c = 0; c < row.size() && c < n; ++c)
            data[c] = std::max(data[c], display_width(row[c]));
    std::size_t total = 1;
    for (std::size_t c = 0; c < n; ++c)
        total += 2 + (w[c] = std::max(data[c], display_width(header_[c])));
    // too wide: headers break into lines (never a word), then the columns go in groups
    if (total > terminal_width)
        for (std::size_t c = 0; c < n; ++c) w[c] = std::max(data[c], longest_word(header_[c]));
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < n; ++c) widths.push_back(w[c] + 2 + (c == 0 ? 1 : 0));
    const auto groups = column_groups(widths);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<std::size_t> columns = {0};
        for (std::size_t c = groups[g].first; c < groups[g].second; ++c) columns.push_back(c);
        if (g > 0) out << "\n";
        // the header, each cell wrapped to its column and the lines side by side
        std::vector<std::vector<std::string>> head;
        std::size_t head_lines = 1;
        for (std::size_t c : columns) {
            std::vector<std::string> lines;
            std::istringstream text(wrap(header_[c], w[c]));
            for (std::string line; std::getline(text, line);) lines.push_back(line);
            head_lines = std::max(head_lines, lines.size());
            head.push_back(lines);
        }
        const auto line = [&](const std::vector<std::string>& cells) {
            out << " ";
            for (std::size_t k = 0; k < columns.size(); ++k) {  // the first column is text
                const std::size_t c = columns[k];
                out << "  " << (k == 0 ? pad_right(cells[k], w[c]) : pad_left(cells[k], w[c]));
            }
            out << "\n";
        };
        for (std::size_t l = 0; l < head_lines; ++l) {  // bottom-aligned, as a table's header
            std::vector<std::string> cells;
            for (const auto& lines : head) {
                const std::size_t skip = head_lines - lines.size();
                cells.push_back(l < skip ? "" : lines[l - skip]);
            }
            line(cells);
        }
        std::size_t width = 0;
        for (std::size_t c : columns) width += w[c] + 2;
        out << "   " << std::string(width - 2, '-') << "\n";
        for (const auto& row : rows_) {
            std::vector<std::string> cells;
            for (std::size_t c : columns) cells.push_back(c < row.size() ? row[c] : "");
            line(cells);
        }
    }
}

// An error message as the one line it must be: a newline, a tab or another control character
// that came in with the reader's text (a flag's value, a file's name) written as an escape.
std::string one_line(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (u < 0x20 || u == 0x7f) {
            static const char hex[] = "0123456789abcdef";
            out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}
