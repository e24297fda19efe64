// test_svg.cpp — every picture checked for what it promises: weights on a fixed 0–1 scale,
// values written in small matrices, hidden cells hatched and never mistaken for small weights,
// axis titles, labels that do not overlap, one scale for all heads, no legend bar for a
// constant matrix; line charts with round ticks, markers, log axes said to be log. And files
// written whole.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "helpers.h"
#include "io/atomic_file.h"
#include "model/attention/masks.h"
#include "report/chart.h"
#include "report/heatmap.h"
#include "text/translate.h"
#include "xml_check.h"

namespace {

// The text of every <text class="CLASS" …>…</text>, and its x (or its translate(x, …)).
struct Text {
    double x;
    std::string text;
    double y = 0;          // its y, or the y of its translate(…, y)
    bool upright = false;  // turned a quarter (class "… upright")
};
std::vector<Text> texts(const std::string& svg, const std::string& cls) {
    std::vector<Text> out;
    for (const Element& e : elements(svg, "text")) {
        const std::string c = e["class"], x = e["x"], transform = e["transform"];
        if (c != cls && c.rfind(cls + " ", 0) != 0) continue;
        const std::size_t t = transform.find("translate("), comma = transform.find(',', t);
        out.push_back({std::stod(!x.empty() ? x : transform.substr(t + 10)), e.text,
                       std::stod(!x.empty() ? e["y"] : transform.substr(comma + 1)),
                       c.find("upright") != std::string::npos});
    }
    return out;
}

// The fill of every element of class CLASS (exactly).
std::vector<std::string> fills(const std::string& svg, const std::string& cls) {
    std::vector<std::string> out;
    for (const std::string tag : {"rect", "circle", "text"})
        for (const Element& e : elements(svg, tag))
            if (e["class"] == cls) out.push_back(e["fill"]);
    return out;
}

// No two column labels overlap, by the width estimate the layout uses (an upright one takes a
// line's height, 12, across).
void check_no_overlap(const std::string& svg) {
    const std::vector<Text> labels = texts(svg, "col-label");
    const auto across = [](const Text& t) { return t.upright ? 12.0 : label_width(t.text); };
    for (std::size_t i = 1; i < labels.size(); ++i) {
        const double gap = labels[i].x - labels[i - 1].x;
        const double need = (across(labels[i]) + across(labels[i - 1])) / 2;
        CHECK_MESSAGE(gap >= need, labels[i - 1].text << " and " << labels[i].text << " overlap");
    }
}

}  // namespace

TEST_CASE("the XML check itself rejects what it should") {
    CHECK(xml_problem("<svg><rect/></svg>").empty());
    CHECK_FALSE(xml_problem("<svg><rect></svg>").empty());
    CHECK_FALSE(xml_problem("<svg>a & b</svg>").empty());
    CHECK_FALSE(xml_problem("<svg x=\"1></svg>").empty());
}

TEST_CASE(
    "attention weights are drawn on a fixed 0–1 scale: uniform weights look pale, not peaked") {
    const std::string svg = heatmap_svg({"weights <&>",
                                         Matrix(3, 3, 1.0 / 3),
                                         {"笔", "记", "本"},
                                         {"笔", "记", "本"},
                                         Scale::Weights});
    CHECK(xml_problem(svg) == "");
    // 1/3 of the way from white to blue (0.13, 0.40, 0.67): #b5cce3, in every cell
    for (const std::string& f : fills(svg, "cell")) CHECK(f == "#b5cce3");
    CHECK(svg.find("weights &lt;&amp;&gt;") != std::string::npos);
    std::vector<std::string> ticks;
    for (const Text& t : texts(svg, "legend-tick")) ticks.push_back(t.text);
    CHECK(ticks == std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"});  // round
}

TEST_CASE("a range of values of one sign starts at 0: white is zero, not the smallest value") {
    const std::string svg =
        heatmap_svg({"PE·PEᵀ", Matrix{{64, 40}, {40, 64}}, {}, {}, Scale::Range});
    std::vector<std::string> ticks;
    for (const Text& t : texts(svg, "legend-tick")) ticks.push_back(t.text);
    CHECK(ticks.front() == "0");
    CHECK(ticks.back() == "60");
    for (const std::string& f : fills(svg, "cell")) CHECK(f != "#ffffff");  // 40 is not white
}

TEST_CASE(
    "small matrices carry their values; hidden cells are hatched, not drawn as small weights") {
    Matrix w{{1, 0, 0}, {0.5, 0.5, 0}, {0.001, 0.4, 0.599}};
    const Matrix hidden = hidden_positions(causal_mask(3));
    const std::string svg = heatmap_svg({"causal", w, {}, {}, Scale::Weights, hidden});
    CHECK(xml_problem(svg) == "");
    CHECK(count_of(svg, "class=\"cell\"") == 6);             // the visible ones …
    CHECK(count_of(svg, "class=\"cell hidden\"") == 3);      // … and the three masked
    CHECK(count_of(svg, "fill=\"url(#hidden)\"") == 3 + 1);  // and the legend's swatch
    CHECK(svg.find("hidden (masked)") != std::string::npos);
    std::vector<std::string> values;
    for (const Text& t : texts(svg, "value")) values.push_back(t.text);
    CHECK(values == std::vector<std::string>{"1.00", "0.50", "0.50", "0.00", "0.40",
                                             "0.60"});  // 0.001: "0.00"
    CHECK(
        texts(heatmap_svg({"big", Matrix(13, 13, 0.5), {}, {}, Scale::Weights}), "value").empty());
}

TEST_CASE("axis titles say which way queries and keys run") {
    const std::string svg = heatmap_svg({"w", Matrix(2, 2, 0.5), {}, {}, Scale::Weights});
    CHECK(svg.find(">query ↓</text>") != std::string::npos);
    CHECK(svg.find(">key →</text>") != std::string::npos);
    const std::string pe = heatmap_svg(
        {"pe", Matrix(2, 2, 0.5), {}, {}, Scale::Signed, Matrix(), "position", "dimension"});
    CHECK(pe.find(">position ↓</text>") != std::string::npos);
}

TEST_CASE("column labels never overlap: wide ones widen the cells, many are drawn upright") {
    const Labels padded = {"【BOS】", "I", "like", "you(pad)", "【EOS】(pad)"};
    const std::string svg =
        heatmap_svg({"padding", Matrix(5, 5, 0.2), padded, padded, Scale::Weights});
    CHECK(texts(svg, "col-label").size() == 5);
    check_no_overlap(svg);
    Labels many;
    for (int i = 0; i < 30; ++i) many.push_back("token" + std::to_string(i));
    const std::string wide = heatmap_svg({"many", Matrix(3, 30, 0.1), {}, many, Scale::Weights});
    CHECK(wide.find("col-label upright") != std::string::npos);
    check_no_overlap(wide);
    check_no_overlap(heatmap_svg({"large", Matrix(64, 128, 0.1), {}, {}, Scale::Signed}));
}

TEST_CASE("a long text's labels: only those wider than their slot are turned; the key title above") {
    Labels poem = {"<bos>"};
    for (int i = 0; i < 57; ++i) poem.push_back(i % 2 ? "春" : "眠");
    const std::string svg = heatmap_svg({"poem", Matrix(58, 58, 0.1), poem, poem, Scale::Weights});
    check_no_overlap(svg);
    const std::vector<Text> labels = texts(svg, "col-label");
    REQUIRE(labels.size() > 2);
    CHECK(labels[0].text == "&lt;bos&gt;");
    CHECK(labels[0].upright);  // wider than a slot of 4 cells of 8
    for (std::size_t i = 1; i < labels.size(); ++i) CHECK_FALSE(labels[i].upright);  // 春, 眠
    // the title "key →" ends above the top of the turned <bos> (translate's y less its width)
    double title_y = 0;
    for (const Element& e : elements(svg, "text"))
        if (e.text == "key →") title_y = std::stod(e["y"]);
    CHECK(title_y > 0);
    CHECK(title_y < labels[0].y - label_width("<bos>"));
}

TEST_CASE("all heads in one figure, on one scale, with one legend") {
    const std::string svg =
        heatmaps_svg("self-attention, both heads",
                     {{"head 0", Matrix(2, 2, 0.5), {}, {}, Scale::Weights},
                      {"head 1", Matrix{{0.9, 0.1}, {0.5, 0.5}}, {}, {}, Scale::Weights}});
    CHECK(xml_problem(svg) == "");
    CHECK(count_of(svg, "class=\"panel-title\"") == 2);
    CHECK(texts(svg, "legend-tick").size() == 6);  // one scale: 0, 0.2, …, 1
    const std::vector<std::string> f = fills(svg, "cell");
    REQUIRE(f.size() == 8);
    CHECK(f[0] == f[6]);  // 0.5 in head 0 and 0.5 in head 1: the same colour
}

TEST_CASE(
    "a constant matrix gets no legend bar; signed values a symmetric one; masks their two states") {
    const std::string zero = heatmap_svg({"zeros", Matrix(3, 3), {}, {}, Scale::Range});
    CHECK(count_of(zero, "class=\"legend\"") == 0);
    CHECK(zero.find("every entry: 0") != std::string::npos);
    const std::string signed_svg =
        heatmap_svg({"pe", Matrix{{-1, 0.5}, {1, 0}}, {}, {}, Scale::Signed});
    std::vector<std::string> ticks;
    for (const Text& t : texts(signed_svg, "legend-tick")) ticks.push_back(t.text);
    CHECK(ticks == std::vector<std::string>{"-1", "-0.5", "0", "0.5", "1"});
    const std::string mask = heatmap_svg({"mask", causal_mask(3), {}, {}, Scale::Mask});
    CHECK(count_of(mask, "class=\"cell hidden\"") == 3);
    CHECK(mask.find("−∞: hidden") != std::string::npos);
    CHECK(mask.find("0: visible") != std::string::npos);
}

TEST_CASE(
    "line charts: round ticks with thousands commas, markers at the points, log axes said so") {
    CHECK(axis_ticks(751, 3000, false) == std::vector<double>{500, 1000, 1500, 2000, 2500, 3000});
    CHECK(axis_ticks(64, 512, true) == std::vector<double>{100, 200, 500});
    CHECK(axis_ticks(0.0006, 0.04, true) == std::vector<double>{0.001, 0.002, 0.005, 0.01, 0.02});
    CHECK(axis_ticks(0.001, 1e6, true).size() == 10);  // nine decades: one tick each
    CHECK(axis_ticks(0.537, 2.9, true).size() == 6);   // 0.6 0.7 0.8 0.9 1 2
    CHECK(tick_text(1000) == "1,000");
    CHECK(tick_text(0.0005) == "0.0005");
    CHECK(tick_text(2.5) == "2.5");
    LineChart c{"time",
                "n",
                "seconds",
                true,
                true,
                {{"attention",
                  {64, 128, 256, 512},
                  {0.001, 0.004, 0.016, 0.064},
                  true,
                  false,
                  "slope 2.00"},
                 {"∝ n²", {64, 512}, {0.001, 0.064}, false, true}}};
    const std::string svg = line_chart_svg(c);
    CHECK(xml_problem(svg) == "");
    CHECK(count_of(svg, "class=\"marker\"") == 4);
    CHECK(svg.find("n (log scale)") != std::string::npos);
    CHECK(svg.find("seconds (log scale)") != std::string::npos);
    CHECK(svg.find(">slope 2.00</text>") != std::string::npos);
    CHECK(count_of(svg, "stroke-dasharray") == 2);  // the reference line and its legend swatch
    for (const Text& t : texts(svg, "x-tick")) {    // 100, 200, 500: 1, 2 or 5 times a power of ten
        const double v = std::stod(t.text), m = v / std::pow(10.0, std::floor(std::log10(v)));
        CHECK_MESSAGE((m == 1 || m == 2 || m == 5), t.text);
    }
}

TEST_CASE("files are written whole: an old file is replaced, no temporary is left") {
    const std::string dir =
        std::filesystem::path(temp_file("marker", "")).parent_path().string() + "/pictures";
    make_directory(dir);
    write_file_atomically(dir, "a.svg", "first");
    write_file_atomically(dir, "a.svg", "second");
    std::ifstream in(dir + "/a.svg");
    std::stringstream s;
    s << in.rdbuf();
    CHECK(s.str() == "second");
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
    CHECK(files == 1);
    CHECK_THROWS_AS(write_file_atomically("/etc/passwd/not-a-dir", "a.svg", "x"),
                    std::runtime_error);
}
