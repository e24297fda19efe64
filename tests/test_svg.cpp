// test_svg.cpp — heatmaps: well-formed XML, one cell per entry, labels, legend; atomic writes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "helpers.h"
#include "model/masks.h"
#include "io/atomic_file.h"
#include "report/heatmap.h"
#include "xml_check.h"

TEST_CASE("the XML check itself rejects what it should") {
    CHECK(xml_problem("<svg><rect/></svg>").empty());
    CHECK_FALSE(xml_problem("<svg><rect></svg>").empty());
    CHECK_FALSE(xml_problem("<svg>a & b</svg>").empty());
    CHECK_FALSE(xml_problem("<svg x=\"1></svg>").empty());
}

TEST_CASE("a heatmap has one cell per entry, its labels, and a legend") {
    const Matrix m{{0.5, 0.25, 0.25}, {0.1, 0.2, 0.7}};
    const std::string svg = heatmap_svg({"weights <&>", m, {"笔", "记"}, {"笔", "记", "本"}});
    CHECK(xml_problem(svg) == "");
    CHECK(count_of(svg, "class=\"cell\"") == 6);
    CHECK(count_of(svg, "class=\"row-label\"") == 2);
    CHECK(count_of(svg, "class=\"col-label\"") == 3);
    CHECK(svg.find(">本</text>") != std::string::npos);
    CHECK(svg.find("weights &lt;&amp;&gt;") != std::string::npos);
    CHECK(svg.find("max 0.7") != std::string::npos);
    CHECK(svg.find("min 0.1") != std::string::npos);
}

TEST_CASE("diverging data has a zero in its legend; masked cells are named") {
    const std::string pe = heatmap_svg({"pe", Matrix{{-1, 0.5}, {1, 0}}, {}, {}, true});
    CHECK(xml_problem(pe) == "");
    CHECK(pe.find(">0</text>") != std::string::npos);
    const std::string mask = heatmap_svg({"mask", causal_mask(3)});
    CHECK(xml_problem(mask) == "");
    CHECK(count_of(mask, "#404040") == 3 + 1);  // three hidden cells and the legend's swatch
    CHECK(mask.find("hidden") != std::string::npos);
}

TEST_CASE("large matrices label every k-th row and column but keep every cell") {
    const std::string svg = heatmap_svg({"big", Matrix(64, 128, 1.0)});
    CHECK(count_of(svg, "class=\"cell\"") == 64 * 128);
    CHECK(count_of(svg, "class=\"row-label\"") < 64);
    CHECK(xml_problem(svg) == "");
}

TEST_CASE("files are written whole: an old file is replaced, no temporary is left") {
    const std::string dir =
        std::filesystem::path(temp_file("marker", "")).parent_path().string() + "/pictures";
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
