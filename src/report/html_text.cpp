// html_text.cpp — text escaped for HTML, and the book's style sheet.
#include "report/html_text.h"

std::string html_escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

namespace {

const char* const style_sheet = R"(
body { font-family: "Noto Sans CJK SC", "Noto Sans", sans-serif; max-width: 56rem; margin: 0 auto;
       padding: 1rem; line-height: 1.6; color: #1a1a1a; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
nav { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.3rem 1rem;
      font-size: 0.9rem; } nav a { overflow-wrap: anywhere; }
.follows { color: #555; }
pre { font-family: "Noto Sans Mono CJK SC", "DejaVu Sans Mono", monospace; background: #f6f6f6;
      padding: 0.5rem; overflow-x: auto; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.5rem 0; }
th, td { padding: 0.15rem 0.6rem; border-bottom: 1px solid #e3e3e3; white-space: nowrap; }
td { text-align: right; } th.row { text-align: left; } table.text th.row { font-weight: normal; }
tr:first-child th { font-weight: bold; border-bottom: 2px solid #999; }
figure { margin: 1rem 0; } figcaption { font-size: 0.9rem; color: #444; }
figure.picture svg { max-width: 100%; height: auto; }
.shape { color: #777; }
.erratum { border-left: 4px solid #c0392b; background: #fdf1ef; padding: 0.4rem 0.6rem; margin: 0.5rem 0; }
.erratum .where { font-weight: bold; } .printed { text-decoration: line-through; color: #a00; }
.correct { color: #070; font-weight: bold; } .exact { color: #555; }
.check { margin-top: 2rem; padding: 0.5rem; background: #eef6ee; border: 1px solid #9c9; }
@media (max-width: 40rem) {  /* a phone: headings and row names wrap, numbers never do; a
                                picture keeps its size (legible labels) and scrolls sideways */
  body { padding: 0.5rem; }
  th, td { padding: 0.1rem 0.3rem; font-size: 0.85rem; } th { white-space: normal; }
  figure.picture { overflow-x: auto; } figure.picture svg { max-width: none; }
}
)";

}  // namespace

std::string book_style() { return style_sheet; }
