// html_page.h — a chapter's walkthrough as a web page (make book): the same narration calls as
// the terminal's, written as HTML — headings, paragraphs, matrices and tables as real tables
// labelled with their tokens, the pictures inline where the step draws them, the tutorial's
// errata side by side. Plain HTML and CSS, nothing fetched from the network; a page of the live
// book (--live) loads one script of its own, from the book's live/ folder.
#pragma once
#include <string>
#include <vector>

#include "report/html_text.h"  // exports: html_escaped
#include "report/narration.h"

class HtmlPage : public Narration {
public:
    void step(const std::string& title) override;
    void paragraph(const std::string& text, const std::string& first,
                   const std::string& indent) override;
    void line(const std::string& text) override;
    void matrix(const std::string& title, const Matrix& m, const Labels& rows, const Labels& cols,
                int decimals) override;
    void table(const Table& table) override;
    void shaded(const std::string& title, const Matrix& m, const std::string& legend) override;
    void picture(const std::string& file_name, const std::string& svg) override;
    void correction(const std::string& where, const std::string& what) override;
    void wrong_number(const std::string& where, const std::string& printed,
                      const std::string& correct, const std::string& exact) override;

    // The whole page: the chapter's name, title and the tutorial it follows at the top, the
    // --check summary at the bottom, links to the index and the chapters before and after.
    // live: the page of the live book (--live): the walkthrough inside <main>, the chapter's
    // name and language on <body>, and ../live/live_page.js, which adds the panel to edit the
    // inputs and recompute them in the browser.
    // other_book: "zh" or "en" where the page is written into make book's en/ or zh/ folder:
    // the page links to itself in the other book and to the site's front page (../index.html).
    struct Frame {
        std::string name, title, follows, language, check_summary, previous, next;
        bool live = false;
        std::string other_book = "";
        std::string live_data = "";  // the live page's data file, as the program read it
    };
    std::string page(const Frame& frame) const;

private:
    void close_lines();  // ends a run of line() calls, kept together in one block
    std::string body_;
    bool in_lines_ = false;
    std::size_t steps_ = 0;
};

