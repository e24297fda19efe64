// test_book.cpp — make book's pages (report/html_page.h): each chapter's page holds what its
// terminal walkthrough shows — every step title, every matrix shown under its title and shape,
// every picture inline — is well-formed, ends with the --check summary, and links only to pages
// of the book.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "report/html_page.h"
#include "helpers.h"
#include "report/chapter_list.h"
#include "xml_check.h"

namespace {

// What the terminal shows: step titles ("== title ===="), and matrices ("title  (3x3)").
struct Shown {
    std::vector<std::string> steps, matrices;
};

Shown shown_in(const std::string& terminal) {
    Shown s;
    std::istringstream in(terminal);
    const std::regex step("^== (.*?) =+$"), matrix("^(\\S.*?)  (\\(\\d+x\\d+\\))(,.*)?$");
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
        if (std::regex_match(line, m, step))
            s.steps.push_back(m[1]);
        else if (std::regex_match(line, m, matrix) && line.find("shaded") == std::string::npos &&
                 line.find("深浅") == std::string::npos)
            s.matrices.push_back(html_escaped(m[1]) + " <span class=\"shape\">" + m[2].str());
    }
    return s;
}

}  // namespace

TEST_CASE("make book: every chapter's page holds its walkthrough, well-formed, links resolve" * doctest::test_suite("native")) {
    // written as make book writes it, into a book's en/ folder: each page links to its twin in
    // zh/ and to the site's front page
    const std::string book = temp_directory("book") + "/en", svg = temp_directory("book_svg");
    const std::vector<std::string>& chapters = chapter_names();
    const std::set<std::string> pages(chapters.begin(), chapters.end());
    for (const std::string& chapter : chapters) {
        CAPTURE(chapter);
        const std::string quick = quick_flags(chapter);
        const bool pictures =
            chapter != "ch01_dictionary_lookup" && chapter != "ch06_encoder_decoder";
        const Run terminal = run_program(chapter, (pictures ? "--svg " + svg : "") + quick);
        const Run html = run_program(chapter, "--html " + book + quick);
        REQUIRE(terminal.exit_code == 0);
        REQUIRE(html.exit_code == 0);
        const std::string page = read_file(book + "/" + chapter + ".html");
        REQUIRE(!page.empty());
        const std::string doctype = "<!DOCTYPE html>\n";
        REQUIRE(page.rfind(doctype, 0) == 0);
        CHECK(xml_problem(page.substr(doctype.size())) == "");
        const Shown s = shown_in(terminal.out);
        CHECK(!s.steps.empty());
        for (const std::string& title : s.steps) {
            if (title == "Pictures") continue;  // --svg's list of files: the page has them inline
            CAPTURE(title);
            CHECK(page.find(">" + html_escaped(title) + "</h2>") != std::string::npos);
        }
        for (const std::string& m : s.matrices) {
            CAPTURE(m);
            CHECK(page.find(m) != std::string::npos);
        }
        // every picture the chapter draws, inline, under its file name
        const std::regex wrote("wrote \\S+/(\\S+\\.svg)");
        for (std::sregex_iterator it(terminal.out.begin(), terminal.out.end(), wrote), end;
             it != end; ++it)
            CHECK(page.find("id=\"" + (*it)[1].str() + "\"><svg") != std::string::npos);
        CHECK(page.find(chapter + " --check: ") != std::string::npos);
        CHECK(page.find(" 0 failed") != std::string::npos);
        const std::regex link("href=\"([^\"]*)\"");
        for (std::sregex_iterator it(page.begin(), page.end(), link), end; it != end; ++it) {
            const std::string target = (*it)[1];
            CAPTURE(target);
            const std::string tutorial = "index.html#tutorial-0";
            CHECK((target == "index.html" || target == "data:," ||  // data:, the page's empty icon
                   target == "../index.html" || target == "../zh/" + chapter + ".html" ||
                   (target.rfind(tutorial, 0) == 0 && target.size() == tutorial.size() + 1 &&
                    target.back() >= '1' && target.back() <= '5') ||
                   (target.size() > 5 && pages.count(target.substr(0, target.size() - 5)))));
        }
        // the twin in the other book and the articles the chapter follows, linked
        CHECK(page.find("<a href=\"../zh/" + chapter + ".html\" hreflang=\"zh\">中文</a>") !=
              std::string::npos);
        CHECK(page.find("<a href=\"index.html#tutorial-0") != std::string::npos);
        // every picture captioned with what it shows, not only its file's name
        CHECK(page.find("<figcaption><span class=\"shape\">") == std::string::npos);
    }
    // the index: every chapter, linked, with its title, in reading order
    const std::string index = read_file(book + "/index.html");
    REQUIRE(index.rfind("<!DOCTYPE html>\n", 0) == 0);
    CHECK(xml_problem(index.substr(16)) == "");
    std::size_t last = 0;
    for (const std::string& chapter : chapters) {
        CAPTURE(chapter);
        const std::size_t at = index.find("<a href=\"" + chapter + ".html\">");
        REQUIRE(at != std::string::npos);
        // its number in reading order before its title, its program's name beside them
        const std::size_t number = &chapter - chapters.data() + 1;
        CHECK(index.find("\">Chapter " + std::to_string(number) + " · ", at) == at + chapter.size() + 14);
        CHECK(index.find("<code>" + chapter + "</code>", at) != std::string::npos);
        CHECK(at > last);
        last = at;
        const std::string help = run_program(chapter, "--help").out;
        const std::string title = help.substr(chapter.size() + 5, 20);  // after "name — "
        CHECK(index.find(html_escaped(title).substr(0, 10), at) != std::string::npos);
    }
    // the five articles listed, each one an anchor the chapters' "follows" links land on, and
    // the index links to the other book and the front page; no page here was live, none marked
    for (int a = 1; a <= 5; ++a)
        CHECK(index.find("<dt id=\"tutorial-0" + std::to_string(a) + "\">") != std::string::npos);
    CHECK(index.find("<a href=\"../zh/index.html\" hreflang=\"zh\">中文</a>") != std::string::npos);
    CHECK(index.find("<a href=\"../index.html\">") != std::string::npos);
    CHECK(index.find("class=\"live-mark\"") == std::string::npos);
    // a live page is marked so in its index; a book outside make book's en/ and zh/ links no twin
    const std::string live = temp_directory("book_live");
    REQUIRE(run_program("ch01_dictionary_lookup", "--html " + live + " --live").exit_code == 0);
    const std::string live_index = read_file(live + "/index.html");
    CHECK(live_index.find("<code>ch01_dictionary_lookup</code> <span class=\"live-mark\">live</span>") !=
          std::string::npos);
    CHECK(live_index.find("../index.html") == std::string::npos);
    CHECK(read_file(live + "/ch01_dictionary_lookup.html").find("hreflang") == std::string::npos);
}

TEST_CASE("the book's order names every chapter program, once") {
    std::set<std::string> programs;
    for (const auto& entry : std::filesystem::directory_iterator("chapters"))
        if (entry.path().extension() == ".cpp") programs.insert(entry.path().stem().string());
    const std::vector<std::string>& book = chapter_names();
    CHECK(std::set<std::string>(book.begin(), book.end()) == programs);
    CHECK(book.size() == programs.size());
}

TEST_CASE("--html: not with --json or --check; a page is written whole, its folder made") {
    CHECK(run_program("ch01_dictionary_lookup", "--html x --json").exit_code == 2);
    CHECK(run_program("ch01_dictionary_lookup", "--html x --check").exit_code == 2);
    const std::string dir = temp_directory("book_new") + "/deeper";
    CHECK(run_program("ch01_dictionary_lookup", "--html " + dir).exit_code == 0);
    CHECK(read_file(dir + "/ch01_dictionary_lookup.html").find("</html>") != std::string::npos);
    CHECK(html_escaped("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;");
}
