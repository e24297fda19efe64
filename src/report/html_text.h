// html_text.h — what every page of the book is written with: text escaped for HTML, and the
// style sheet the pages and the index share.
#pragma once
#include <string>

// Text with &, <, > and " escaped for HTML.
std::string html_escaped(const std::string& text);

// The style sheet every page of the book shares (the index's too: report/book_index.h).
std::string book_style();
