// html_page.cpp — the page, element by element.
#include "report/html_page.h"

#include <cstdio>
#include <sstream>

#include "report/book_index.h"
#include "report/heatmap.h"
#include "report/input_names.h"
#include "text/numbers.h"
#include "text/translate.h"

namespace {
std::string svg_title(const std::string& svg);  // a figure's title (below)
}  // namespace

void HtmlPage::close_lines() {
    if (in_lines_) body_ += "</pre>\n";
    in_lines_ = false;
}

void HtmlPage::step(const std::string& title) {
    close_lines();
    ++steps_;
    body_ += "<h2 id=\"step-" + std::to_string(steps_) + "\">" + html_escaped(title) + "</h2>\n";
}

void HtmlPage::paragraph(const std::string& text, const std::string& first, const std::string&) {
    close_lines();
    body_ += first.empty()
                 ? "<p>"
                 : "<p class=\"item\"><span class=\"mark\">" + html_escaped(first) + "</span>";
    body_ += html_escaped(text) + "</p>\n";
}

void HtmlPage::line(const std::string& text) {
    if (!in_lines_) body_ += "<pre class=\"lines\">";
    in_lines_ = true;
    body_ += html_escaped(text) + "\n";
}

void HtmlPage::matrix(const std::string& title, const Matrix& m, const Labels& rows,
                      const Labels& cols, int decimals) {
    close_lines();
    decimals = matrix_decimals(m, decimals);
    const auto label = [](const Labels& l, std::size_t i) {
        return html_escaped(i < l.size() ? l[i] : std::to_string(i));
    };
    body_ += "<figure class=\"matrix\"><figcaption>" + html_escaped(title) +
             " <span class=\"shape\">" + shape_of(m) +
             "</span></figcaption>\n<div class=\"scroll\"><table>\n<tr><th></th>";
    for (std::size_t c = 0; c < m.cols; ++c) body_ += "<th>" + label(cols, c) + "</th>";
    body_ += "</tr>\n";
    for (std::size_t r = 0; r < m.rows; ++r) {
        body_ += "<tr><th class=\"row\">" + label(rows, r) + "</th>";
        for (std::size_t c = 0; c < m.cols; ++c)
            body_ += "<td>" + fixed(m(r, c), decimals) + "</td>";
        body_ += "</tr>\n";
    }
    body_ += "</table></div></figure>\n";
}

void HtmlPage::table(const Table& t) {
    close_lines();
    body_ += "<div class=\"scroll\"><table class=\"text\">\n<tr>";
    for (const std::string& h : t.header()) body_ += "<th>" + html_escaped(h) + "</th>";
    body_ += "</tr>\n";
    for (const auto& row : t.rows()) {
        body_ += "<tr>";
        for (std::size_t c = 0; c < row.size(); ++c)
            body_ += (c == 0 ? "<th class=\"row\">" : "<td>") + html_escaped(row[c]) +
                     (c == 0 ? "</th>" : "</td>");
        body_ += "</tr>\n";
    }
    body_ += "</table></div>\n";
}

void HtmlPage::shaded(const std::string& title, const Matrix& m, const std::string& legend) {
    close_lines();
    std::ostringstream out;
    print_shaded(out, title, m, legend);
    body_ += "<pre class=\"shaded\">" + html_escaped(out.str()) + "</pre>\n";
}

void HtmlPage::picture(const std::string& file_name, const std::string& svg) {
    close_lines();
    // the SVG as the programs write it, without its XML declaration, scaled to the page
    std::string inline_svg = svg;
    if (inline_svg.compare(0, 5, "<?xml") == 0) inline_svg.erase(0, inline_svg.find("?>") + 2);
    inline_svg.erase(0, inline_svg.find('<'));
    // a viewBox from its width and height, so that the page can scale it down on a narrow screen
    const std::size_t open_end = inline_svg.find('>');
    const std::string open = inline_svg.substr(0, open_end);
    const auto attribute = [&](const std::string& name) {
        const std::size_t at = open.find(" " + name + "=\"");
        if (at == std::string::npos) return std::string();
        const std::size_t from = at + name.size() + 3;
        return open.substr(from, open.find('"', from) - from);
    };
    const std::string w = attribute("width"), h = attribute("height");
    if (open.find("viewBox") == std::string::npos && !w.empty() && !h.empty())
        inline_svg.insert(4, " viewBox=\"0 0 " + w + " " + h + "\"");
    // the caption says what the picture shows: its own title (every figure of ours has one, as
    // its first text), then the file --svg writes it to
    const std::string title = svg_title(svg);
    body_ += "<figure class=\"picture\" id=\"" + html_escaped(file_name) + "\">" + inline_svg +
             "<figcaption>" + (title.empty() ? "" : html_escaped(title) + " ") +
             "<span class=\"shape\">(" + html_escaped(file_name) + ")</span></figcaption></figure>\n";
}

void HtmlPage::correction(const std::string& where, const std::string& what) {
    close_lines();
    body_ += "<div class=\"erratum\"><span class=\"where\">" + html_escaped(where) + "</span> " +
             html_escaped(what) + "</div>\n";
}

void HtmlPage::wrong_number(const std::string& where, const std::string& printed,
                            const std::string& correct, const std::string& exact) {
    close_lines();
    body_ += "<div class=\"erratum number\"><span class=\"where\">" + html_escaped(where) +
             "</span> <span class=\"printed\">" + html_escaped(tr("printed {}", printed)) +
             "</span> <span class=\"correct\">" +
             html_escaped(tr("correctly rounded {}", correct)) + "</span> <span class=\"exact\">" +
             html_escaped(tr("exactly {}", exact)) + "</span></div>\n";
}

namespace {

// The text of an SVG's first <text> element, its entities undone: a figure's title.
std::string svg_title(const std::string& svg) {
    const std::size_t open = svg.find("<text");
    if (open == std::string::npos) return "";
    const std::size_t from = svg.find('>', open) + 1, to = svg.find("</text>", from);
    if (from == 0 || to == std::string::npos) return "";
    std::string text = svg.substr(from, to - from), out;
    const std::pair<const char*, char> entities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (std::size_t i = 0; i < text.size();) {
        bool replaced = false;
        for (const auto& [name, c] : entities)
            if (text.compare(i, std::string(name).size(), name) == 0) {
                out += c, i += std::string(name).size(), replaced = true;
                break;
            }
        if (!replaced) out += text[i++];
    }
    return out;
}

// text as a JSON string inside <script>: quotes, backslashes and control characters escaped,
// and "<" written \u003c so that no "</script>" can end the element early.
std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += std::string("\\") + c;
        else if (c == '<') out += "\\u003c";
        else if (static_cast<unsigned char>(c) < 0x20) {
            char code[8];
            std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(c));
            out += code;
        } else out += c;
    }
    return out + "\"";
}

// A JSON text inside <script>: "<" can stand only inside its strings, where \u003c means it too.
std::string json_in_script(const std::string& json) {
    std::string out;
    for (const char c : json) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out;
}

using Words = std::vector<std::pair<const char*, std::string>>;

// The words of the live book's panel (live_page.js), in the page's language: the catalog
// translates them here, as every other sentence of the page.
Words panel_words(const std::string& chapter) {
    return {
        {"heading", tr("Change the inputs and recompute")},
        {"intro", tr("This page runs {}'s own program in your browser, compiled to WebAssembly: "
                     "change a number, a switch or the data file below, then Recompute. The "
                     "walkthrough below is replaced by the new run, and every part of it that "
                     "differs from the run on the shipped inputs is marked.",
                     chapter)},
        {"shorter", tr("In the browser this chapter runs on one thread with its multiply-adds "
                       "done in software, many times slower than natively, so these "
                       "measurements start shorter here: {}. build/{} runs them in full.")},
        {"data_file", tr("the whole data file (JSON)")},
        {"recompute", tr("Recompute")},
        {"reset", tr("Back to the shipped inputs")},
        {"language", tr("language of the walkthrough")},
        {"computing", tr("computing…")},
        {"moved", tr("recomputed in {} ms: {} of {} parts of the walkthrough differ from the run "
                     "on the shipped inputs (marked)")},
        {"same", tr("recomputed in {} ms: the walkthrough is the same as the run on the shipped "
                    "inputs")},
        {"not_json", tr("the data file is not valid JSON ({}): fix it, or go back to the shipped "
                        "inputs")},
        {"stopped", tr("the program stopped (exit code {}), the walkthrough below is the last "
                       "one computed:")},
        {"refused", tr("the program did not accept these inputs; the walkthrough below is the "
                       "last one computed:")},
        {"panel_file", tr("the panel's data file")},
        {"stop", tr("Stop")},
        {"stopped_run", tr("stopped: the walkthrough below is the last one computed")},
        {"computing_for", tr("computing… {} s")},
        {"long_run", tr("this run may take about {} s: raising {} makes it about {} times the "
                        "run on the shipped inputs ({} ms here). Stop ends it.")},
        // (after the status sentence: its own space, where the language puts one)
        {"waited", tr(" (the click waited {} ms in all: the page first finishes the run on the "
                      "shipped inputs it compares with)")},
        {"no_module", tr("the live book's module could not be loaded ({}): make book builds it "
                         "where Emscripten's em++ is installed")},
        {"not_live", tr("{} is not in the live book's module: it runs natively (make, then "
                        "build/{})",
                        chapter, chapter)},
        {"fault", tr("the module failed: {}")},
    };
}

// The words of the poet's pages (chapters 12 and 14).
Words poet_words() {
    return {
        {"poet_heading", tr("The poet in your browser")},
        {"poet_ch12", tr("Chapter 12's poet writes here from your prompt: this chapter's own "
                         "program (--write) compiled to WebAssembly, with the model make book "
                         "shipped beside this page (live/poet.js, every weight rounded to "
                         "bfloat16; the answer's first paragraph says which run trained it). "
                         "Training stays native: make run trains it (build/ch12_gpt, a few "
                         "minutes on 2 cores).")},
        {"poet_ch14", tr("Type a poem, and chapter 12's poet reads it here: where each of its "
                         "heads looks, and every head's weights as heatmaps — this chapter's own "
                         "program (--poem) compiled to WebAssembly, with the model make book "
                         "shipped beside this page (live/poet.js, every weight rounded to "
                         "bfloat16). The measurements on the held-out poems below run natively.")},
        {"prompt", tr("beginning (a title, or a verse)")},
        {"rhyme", tr("keep the rhyme")},
        {"tones", tr("keep the tones")},
        {"runs", tr("no character twice in a row")},
        {"seed", tr("seed")},
        {"shape", tr("the poem's form")},
        {"shape_any", tr("any (the poet's)")},
        {"shape_5_quatrain", tr("five characters, four verses (五绝)")},
        {"shape_7_quatrain", tr("seven characters, four verses (七绝)")},
        {"shape_5_regulated", tr("five characters, eight verses (五律)")},
        {"shape_7_regulated", tr("seven characters, eight verses (七律)")},
        {"temperature", tr("temperature")},
        {"temperature_own", tr("the model's")},
        {"block_shown", tr("the heads of block")},
        {"block_n", tr("block {}")},
        {"write", tr("Write")},
        {"another", tr("Another poem")},
        {"poem", tr("your poem (its title, then a couplet a line)")},
        {"read_heads", tr("Read it")},
        {"written", tr("written in {} ms")},
        {"read", tr("read in {} ms")},
        {"no_poet", tr("the poet could not be loaded ({}): make run saves it, then make book "
                       "ships it as live/poet.js")},
    };
}

// Both, as one JSON object the page reads.
std::string live_words(const std::string& chapter) {
    Words words = panel_words(chapter);
    for (auto& w : poet_words()) words.push_back(std::move(w));
    std::string out = "{";
    for (const auto& [key, text] : words)
        out += std::string(out.size() > 1 ? ",\n" : "\n") + json_string(key) + ": " + json_string(text);
    for (const auto& [key, name] : input_names())  // the inputs' names, for the panel's labels
        out += ",\n" + json_string("name:" + key) + ": " + json_string(name);
    return out + "\n}";
}

}  // namespace

std::string HtmlPage::page(const Frame& f) const {
    std::string out = "<!DOCTYPE html>\n<html lang=\"" + f.language +
                      "\">\n<head>\n"
                      "<meta charset=\"utf-8\"/>\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
            "<link rel=\"icon\" href=\"data:,\"/>\n"  // no icon: nothing asked of the server
                      "<title>" +
                      html_escaped(f.name + " — " + f.title) + "</title>\n<style>" + book_style() +
                      "</style>\n</head>\n" +
                      (f.live ? "<body data-chapter=\"" + html_escaped(f.name) + "\" data-lang=\"" +
                                    html_escaped(f.language) + "\">\n"
                              : "<body>\n");
    std::string nav = "<nav><a href=\"index.html\">" + html_escaped(tr("all chapters")) + "</a>";
    // the chapters before and after, by number (their names in the link's title)
    nav += f.previous.empty() ? "<span></span>"
                              : "<a href=\"" + f.previous + ".html\" title=\"" + f.previous +
                                    "\">← " + html_escaped(chapter_number(f.previous)) + "</a>";
    if (!f.other_book.empty())  // the same page in the other book, and the site's front page
        nav += "<a href=\"../" + f.other_book + "/" + f.name + ".html\" hreflang=\"" +
               f.other_book + "\">" + (f.other_book == "zh" ? "中文" : "English") +
               "</a><a href=\"../index.html\">" + html_escaped(tr("the site's front page")) +
               "</a>";
    nav += f.next.empty() ? "<span></span>"
                          : "<a href=\"" + f.next + ".html\" title=\"" + f.next + "\">" +
                                html_escaped(chapter_number(f.next)) + " →</a>";
    nav += "</nav>\n";
    out += nav + "<h1>" + html_escaped(f.name) + ": " + html_escaped(f.title) + "</h1>\n";
    out += "<p class=\"follows\">" +
           articles_linked(html_escaped(tr("Follows the tutorial: {}", f.follows))) + "</p>\n";
    if (f.live) out += "<main id=\"walkthrough\">\n";
    out += body_;
    if (in_lines_) out += "</pre>\n";
    out += "<p class=\"check\">" + html_escaped(f.check_summary) + "</p>\n";
    if (f.live) out += "</main>\n";
    out += nav;
    if (f.live)
        out += "<script type=\"application/json\" id=\"live-words\">" + live_words(f.name) +
               "</script>\n<script type=\"application/json\" id=\"live-data\">" +
               json_in_script(f.live_data) +
               "</script>\n<script src=\"../live/live_page.js\"></script>\n";
    return out + "</body>\n</html>\n";
}

