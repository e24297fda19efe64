// narration.h — where a chapter's walkthrough goes: the terminal, nowhere (--json and --check
// print only their own output), or, later, a page. A walkthrough narrates through these calls
// alone, so every form of a chapter shows the same text from the same calls.
#pragma once
#include <ostream>
#include <string>

#include "core/matrix.h"
#include "report/terminal.h"

class Narration {
public:
    virtual ~Narration() = default;
    virtual void step(const std::string& title) = 0;  // a heading: one step of the walkthrough
    // Prose, broken into lines of the page's width; the first line starts with `first`, the
    // others with `indent` (a numbered item: "2. ", "   ").
    virtual void paragraph(const std::string& text, const std::string& first,
                           const std::string& indent) = 0;
    virtual void line(const std::string& text) = 0;  // one line as it is: a formula, a worked sum
    virtual void matrix(const std::string& title, const Matrix& m, const Labels& rows,
                        const Labels& cols, int decimals) = 0;
    virtual void table(const Table& table) = 0;
    // one character per entry; legend (when not empty) says what the shades mean instead of the
    // scale's ends (a mask: "█ hidden, blank seen")
    virtual void shaded(const std::string& title, const Matrix& m, const std::string& legend) = 0;
    virtual void picture(const std::string& file_name, const std::string& svg) = 0;
    // What the tutorial gets wrong: a claim (where: "03 §2.1.5"), or a printed number that is not
    // a correct rounding (where: "softmax_XXt[0,1]").
    virtual void correction(const std::string& where, const std::string& what) = 0;
    virtual void wrong_number(const std::string& where, const std::string& printed,
                              const std::string& correct, const std::string& exact) = 0;
};

constexpr std::size_t narration_width = 96;  // terminal columns of a paragraph of narration

// The walkthrough as text on a terminal (pictures are written by --svg, not printed).
class TerminalNarration : public Narration {
public:
    explicit TerminalNarration(std::ostream& out) : out_(out) {}
    void step(const std::string& title) override;
    void paragraph(const std::string& text, const std::string& first,
                   const std::string& indent) override;
    void line(const std::string& text) override;
    void matrix(const std::string& title, const Matrix& m, const Labels& rows, const Labels& cols,
                int decimals) override;
    void table(const Table& table) override;
    void shaded(const std::string& title, const Matrix& m, const std::string& legend) override;
    void picture(const std::string&, const std::string&) override {}
    void correction(const std::string& where, const std::string& what) override;
    void wrong_number(const std::string& where, const std::string& printed,
                      const std::string& correct, const std::string& exact) override;

private:
    std::ostream& out_;
};

// No walkthrough at all: what --json and --check narrate to.
class SilentNarration : public Narration {
public:
    void step(const std::string&) override {}
    void paragraph(const std::string&, const std::string&, const std::string&) override {}
    void line(const std::string&) override {}
    void matrix(const std::string&, const Matrix&, const Labels&, const Labels&, int) override {}
    void table(const Table&) override {}
    void shaded(const std::string&, const Matrix&, const std::string&) override {}
    void picture(const std::string&, const std::string&) override {}
    void correction(const std::string&, const std::string&) override {}
    void wrong_number(const std::string&, const std::string&, const std::string&,
                      const std::string&) override {}
};
