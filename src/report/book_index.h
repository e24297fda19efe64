// book_index.h — the book's index page (make book's dir/index.html) and the links a page makes
// to the tutorial's articles: the chapter map in reading order, each chapter with its number,
// its title, whether its page is live and the articles it follows, linked to the list of the
// tutorial's five articles at the index's end.
#pragma once
#include <string>

#include "report/html_page.h"

// An entry for each chapter whose page is in dir (each page leaves its entry in dir/index.d/),
// in reading order, in the language of the pages. Rewritten after every page, so that it is
// whole once the last chapter has run.
void write_book_index(const std::string& dir, const HtmlPage::Frame& page_written);

// "Chapter 2" (or 第 2 章): a chapter's place in reading order; its name where it has none.
std::string chapter_number(const std::string& name);

// Text already escaped for HTML with each article number the tutorial's sections are named by
// (01 … 05, as in "03 §2.1.5") made a link to that article in the index (index.html#tutorial-03).
std::string articles_linked(const std::string& escaped);
