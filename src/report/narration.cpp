// narration.cpp — the walkthrough on a terminal.
#include "report/narration.h"

#include "report/heatmap.h"
#include "text/translate.h"

void TerminalNarration::step(const std::string& title) { print_step(out_, title); }

void TerminalNarration::paragraph(const std::string& text, const std::string& first,
                                  const std::string& indent) {
    out_ << wrap(text, narration_width, first, indent);
}

void TerminalNarration::line(const std::string& text) { out_ << text << "\n"; }

void TerminalNarration::matrix(const std::string& title, const Matrix& m, const Labels& rows,
                               const Labels& cols, int decimals) {
    print_matrix(out_, title, m, rows, cols, decimals);
}

void TerminalNarration::table(const Table& table) { table.print(out_); }

void TerminalNarration::shaded(const std::string& title, const Matrix& m,
                               const std::string& legend) {
    print_shaded(out_, title, m, legend);
}

void TerminalNarration::correction(const std::string& where, const std::string& what) {
    out_ << wrap(what, narration_width, tr("• {}: ", where), "  ");
}

void TerminalNarration::wrong_number(const std::string& where, const std::string& printed,
                                     const std::string& correct, const std::string& exact) {
    out_ << wrap(
        tr("{}: printed {}, correctly rounded {} (exactly {})", where, printed, correct, exact),
        narration_width, tr("  erratum: "), "    ");
}
