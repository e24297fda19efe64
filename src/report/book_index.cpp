// book_index.cpp — the book's index page, and the tutorial's articles it lists.
#include "report/book_index.h"

#include <fstream>
#include <iterator>
#include <vector>

#include "io/atomic_file.h"
#include "io/platform.h"
#include "report/chapter_list.h"
#include "report/html_text.h"
#include "text/translate.h"

namespace {

// The tutorial's five articles (../shared/tutorial/README.md numbers them): each one's title as
// it gives it, what it holds, and the address it is published at where the article names one.
struct Article {
    const char* number;
    const char* title;
    const char* holds;  // translated where it is shown
    const char* address;
};

const Article articles[] = {
    {"01", "机器学习 -- Attention is all you need",
     N_("the shop-search analogy for queries, keys and values, the formula, and the "
        "self-attention example on 笔/记/本 worked by hand"),
     ""},
    {"02", "transformer补充细节",
     N_("the six steps of self-attention, why the scores are divided by √d_k, what several heads "
        "bring, the encoder-decoder's data flow in training and in inference, masks and "
        "positional encodings"),
     ""},
    {"03", "happy-llm 2.1 注意力机制",
     N_("the textbook section on attention in Datawhale's happy-llm: attention as a dictionary "
        "lookup, self-attention, the upper-triangular mask, multi-head attention"),
     "https://github.com/datawhalechina/happy-llm"},
    {"04", "Attention Is All You Need阅读笔记",
     N_("reading notes on the paper: its architecture, its sizes, multi-head shapes, the "
        "sinusoidal encoding and the table of cost per layer"),
     ""},
    {"05", "立委科普：自注意力机制解说",
     N_("an essay on self-attention for the general reader: the input read into the output, "
        "the roles of query, key and value, several heads"),
     "https://m.sciencenet.cn/blog-362400-1337559.html"},
};

std::string tutorial_list() {
    std::string out = "<h2 id=\"tutorial\">" + html_escaped(tr("The tutorial")) + "</h2>\n<p>" +
                      html_escaped(tr("The five Chinese articles the chapters follow, numbered as "
                                      "each chapter names them (“03 §2.1.5” is section 2.1.5 of "
                                      "article 03).")) +
                      "</p>\n<dl>\n";
    for (const Article& a : articles) {
        out += "<dt id=\"tutorial-" + std::string(a.number) + "\">" + a.number + " 《" +
               html_escaped(a.title) + "》</dt><dd>" + html_escaped(tr(a.holds)) + "<br/>";
        out += *a.address ? html_escaped(tr("published at")) + " <a href=\"" + a.address + "\">" +
                                a.address + "</a>"
                          : html_escaped(tr("the copy this project reads names no address of "
                                            "its own"));
        out += "</dd>\n";
    }
    return out + "</dl>\n";
}

}  // namespace

std::string chapter_number(const std::string& name) {
    const std::vector<std::string>& book = chapter_names();
    for (std::size_t i = 0; i < book.size(); ++i)
        if (book[i] == name) return tr("Chapter {}", i + 1);
    return name;
}

std::string articles_linked(const std::string& escaped) {
    const auto word = [](char c) {  // a letter or a digit: part of a longer word or number
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    };
    std::string out;
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        const bool article = escaped[i] == '0' && i + 1 < escaped.size() && escaped[i + 1] >= '1' &&
                             escaped[i + 1] <= '5' && (i == 0 || !word(escaped[i - 1])) &&
                             (i + 2 == escaped.size() || !word(escaped[i + 2]));
        if (!article) {
            out += escaped[i];
            continue;
        }
        const std::string number = escaped.substr(i, 2);
        out += "<a href=\"index.html#tutorial-" + number + "\">" + number + "</a>";
        ++i;
    }
    return out;
}

void write_book_index(const std::string& dir, const HtmlPage::Frame& f) {
    make_directory(dir + "/index.d");
    write_file_atomically(
        dir + "/index.d", f.name + ".html",
        "<dt><a href=\"" + f.name + ".html\">" + html_escaped(chapter_number(f.name)) + " · " +
            html_escaped(f.title) + "</a> <code>" + html_escaped(f.name) + "</code>" +
            (f.live ? " <span class=\"live-mark\">" + html_escaped(tr("live")) + "</span>" : "") +
            "</dt><dd><span class=\"follows\">" +
            articles_linked(html_escaped(tr("Follows the tutorial: {}", f.follows))) +
            "</span></dd>\n");
    std::string entries;
    for (const std::string& name : chapter_names()) {
        std::ifstream in = open_for_reading(dir + "/index.d/" + name + ".html");
        entries += std::string(std::istreambuf_iterator<char>(in), {});
    }
    const std::string other =
        f.other_book.empty()
            ? ""
            : "<nav><a href=\"../index.html\">" + html_escaped(tr("the site's front page")) +
                  "</a><a href=\"../" + f.other_book + "/index.html\" hreflang=\"" +
                  f.other_book + "\">" + (f.other_book == "zh" ? "中文" : "English") +
                  "</a></nav>\n";
    write_file_atomically(
        dir, "index.html",
        "<!DOCTYPE html>\n<html lang=\"" + f.language +
            "\">\n<head>\n<meta charset=\"utf-8\"/>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
            "<link rel=\"icon\" href=\"data:,\"/>\n"  // no icon: nothing asked of the server
            "<title>transformer-by-hand</title>\n<style>" +
            book_style() +
            "dt { margin-top: 1rem; font-weight: bold; } dd { margin-left: 1rem; }\n"
            "dt code { font-weight: normal; color: #555; font-size: 0.85rem; }\n"
            ".live-mark { font-weight: normal; font-size: 0.8rem; background: #eef6ee; "
            "border: 1px solid #9c9; padding: 0 0.3rem; border-radius: 0.2rem; white-space: nowrap; }</style>\n"
            "</head>\n<body>\n" +
            other + "<h1>transformer-by-hand</h1>\n<p>" +
            html_escaped(tr("A Transformer written from scratch, to be read beside the Chinese "
                            "tutorial on attention: every chapter's walkthrough as a page, in "
                            "reading order, its numbers recomputed and checked.")) +
            "</p>\n<p>" +
            html_escaped(tr("A chapter marked “live” runs in the browser: change its inputs "
                            "above its walkthrough and recompute them there.")) +
            "</p>\n<dl>\n" + entries + "</dl>\n" + tutorial_list() + "</body>\n</html>\n");
}
