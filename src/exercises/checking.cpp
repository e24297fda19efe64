// checking.cpp — one exercise judged; the first difference shown and, where the numbers show
// it, the mistake named.
#include "exercises/checking.h"

#include <cmath>
#include <exception>
#include <sstream>

#include "exercises/mistakes.h"
#include "report/simple_factor.h"
#include "report/terminal.h"
#include "text/numbers.h"
#include "text/translate.h"

namespace {

std::string number_text(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "inf" : "−inf";
    return general(x, 8);
}

bool close(double got, double expected, double tol) {
    if (std::isinf(expected) || std::isnan(expected)) return got == expected;
    return std::isfinite(got) && std::fabs(got - expected) <= tol * std::max(1.0, std::fabs(expected));
}

// same shape, every entry within tol (NaN equal to NaN: a mistake's NaN is recognised too)
bool same_numbers(const Matrix& a, const Matrix& b, double tol) {
    if (a.rows != b.rows || a.cols != b.cols) return false;
    for (std::size_t i = 0; i < a.data.size(); ++i)
        if (!(std::isnan(a.data[i]) && std::isnan(b.data[i])) && !close(a.data[i], b.data[i], tol)) return false;
    return true;
}

void show(std::ostringstream& out, const std::string& title, const Matrix& m) {
    out << "  " << (m.empty() ? title + " " + shape_of(m) : tr("{} {}:", title, shape_of(m))) << "\n";
    const std::size_t rows = std::min<std::size_t>(m.rows, 8), cols = std::min<std::size_t>(m.cols, 10);
    for (std::size_t r = 0; r < rows; ++r) {
        out << "   ";
        for (std::size_t c = 0; c < cols; ++c) {
            const std::string x = number_text(m(r, c));
            out << std::string(display_width(x) < 13 ? 13 - display_width(x) : 1, ' ') << x;
        }
        out << (m.cols > cols ? "  …" : "") << "\n";
    }
    if (m.rows > rows) out << "   …\n";
}

// The differing entries (at most five), and their ratio when it is one simple number
void show_differences(std::ostringstream& out, const Matrix& got, const Matrix& expected, double tol) {
    if (got.rows != expected.rows || got.cols != expected.cols) {
        out << "  " << tr("the shapes differ: expected {}, got {}", shape_of(expected), shape_of(got)) << "\n";
        return;
    }
    out << "  " << tr("first differences (index, expected, got):") << "\n";
    std::size_t shown = 0, differing = 0;
    double ratio = 0;
    bool constant = true;
    for (std::size_t i = 0; i < got.data.size(); ++i) {
        if (close(got.data[i], expected.data[i], tol)) continue;
        ++differing;
        const double r = got.data[i] / expected.data[i];
        if (!std::isfinite(r) || r == 0 || (differing > 1 && std::fabs(r - ratio) > 1e-9 * std::fabs(ratio))) constant = false;
        ratio = r;
        if (shown++ < 5)
            out << "    [" << i / got.cols << "," << i % got.cols << "]  " << number_text(expected.data[i]) << "  "
                << number_text(got.data[i]) << "\n";
    }
    if (differing > shown) out << "    " << tr("… {} entries differ in all", differing) << "\n";
    const std::string factor = constant ? simple_factor(ratio) : "";
    if (constant && differing > 1)
        out << "  " << tr("got ÷ expected is {} at every entry that differs", factor.empty() ? number_text(ratio) : factor) << "\n";
}

std::vector<Case> cases_of(const Exercise& e, const std::string& data_dir) {
    std::vector<Case> all = e.golden ? e.golden(data_dir) : std::vector<Case>();
    const Answers project = project_answers();
    Random rng(2026);
    for (std::size_t i = 0; i < random_cases; ++i) {
        Inputs in = e.random(rng, static_cast<int>(i));
        Matrix expected = e.run(project, in);
        all.push_back({tr("random case {}", i + 1), std::move(in), std::move(expected), nullptr});
    }
    return all;
}

// The mistake whose numbers equal got on this case (and differ from the expected), or −1
int recognise(const Exercise& e, const Case& c, const Matrix& got) {
    const std::vector<Mistake>& mistakes = mistakes_of(e.name);
    for (std::size_t m = 0; m < mistakes.size(); ++m) {
        Answers wrong = project_answers();
        mistakes[m].put(wrong);
        try {
            const Matrix theirs = (c.run ? c.run : e.run)(wrong, c.inputs);
            if (same_numbers(theirs, got, 1e-9) && !same_numbers(theirs, c.expected, e.tol)) return static_cast<int>(m);
        } catch (const std::exception&) {
        }
    }
    return -1;
}

}  // namespace

Outcome check_exercise(std::size_t index, const Answers& answers, const std::string& data_dir) {
    const Exercise& e = exercises()[index];
    const std::string head = tr("exercise {}, {}", index + 1, e.name);
    const std::vector<Case> all = cases_of(e, data_dir);
    std::size_t golden = 0;
    for (const Case& c : all) golden += c.run || c.source.find(".json") != std::string::npos;
    for (std::size_t k = 0; k < all.size(); ++k) {
        const Case& c = all[k];
        Matrix got;
        std::string stopped;
        try {
            got = (c.run ? c.run : e.run)(answers, c.inputs);
        } catch (const exercise::NotWrittenYet& n) {
            Outcome o{Verdict::NotWritten, -1, ""};
            o.report = tr("{}: not written yet ({} says so): write it in chapters/exercises/{}", head, n.function,
                          exercise_file(index)) + "\n";
            return o;
        } catch (const std::exception& x) {
            stopped = x.what();
        }
        if (stopped.empty() && same_numbers(got, c.expected, e.tol)) continue;
        std::ostringstream out;
        out << head << " — " << tr(e.title) << "\n";
        const bool random = k >= golden;  // the data file's cases come first
        const std::string before = count_of(k, N_("{} case"), N_("{} cases"));
        out << "  "
            << (k == 0 ? (random ? tr("failed on random case {}, the first case", k - golden + 1)
                                 : tr("failed on {}, the first case", c.source))
                : random ? tr("failed on random case {} (the {} before it passed)", k - golden + 1, before)
                         : tr("failed on {} (the {} before it passed)", c.source, before))
            << "\n";
        for (const Shown& s : c.inputs) show(out, tr("input {}", s.name), s.value);
        show(out, tr("expected"), c.expected);
        Outcome o{Verdict::Failed, -1, ""};
        if (!stopped.empty()) {
            out << "  " << tr("your function stopped: {}", stopped) << "\n";
        } else {
            show(out, tr("got"), got);
            show_differences(out, got, c.expected, e.tol);
            o.mistake = recognise(e, c, got);
        }
        out << "  " << tr("hint: {}", o.mistake >= 0 ? told(mistakes_of(e.name)[o.mistake]) : tr(e.hint)) << "\n";
        if (o.mistake < 0) out << "  " << tr("(more: build/exercises hint {})", index + 1) << "\n";
        o.report = out.str();
        return o;
    }
    Outcome o{Verdict::Passed, -1, ""};
    const std::string randoms = count_of(all.size() - golden, N_("{} random case"), N_("{} random cases"));
    o.report = (golden ? tr("{}: passed — {} of the chapters' data files and {} against the project's function", head,
                            count_of(golden, N_("{} case"), N_("{} cases")), randoms)
                       : tr("{}: passed — {} against the project's function (the data files hold no case of it)", head,
                            randoms)) +
               "\n  " + tr("the answer to compare yours with: {}", e.answer) + "\n";
    return o;
}
