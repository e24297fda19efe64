// test_print.cpp — terminal widths and the labelled matrix layout.
#include <doctest/doctest.h>

#include <sstream>

#include "report/terminal.h"

TEST_CASE("CJK characters are two columns wide, ASCII one") {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("笔") == 2);
    CHECK(display_width("【BOS】") == 7);
    CHECK(display_width("Xᵀ") == 2);
    CHECK(pad_left("笔", 4) == "  笔");
    CHECK(pad_right("笔", 3) == "笔 ");
}

TEST_CASE("a labelled matrix lines up its columns") {
    std::ostringstream out;
    print_matrix(out, "XXᵀ", Matrix{{11, 9}, {9, 8}}, {"笔", "记"}, {"笔", "记"});
    CHECK(out.str() == "XXᵀ  (2x2)\n"
                       "      笔  记\n"
                       "  笔  11   9\n"
                       "  记   9   8\n");
}

TEST_CASE("number formats") {
    CHECK(fixed(-0.00001, 3) == "0.000");
    CHECK(fixed(0.46831, 3) == "0.468");
    CHECK(general(6.9120813619574658e-13, 3) == "6.91e-13");
}

TEST_CASE("wrap breaks at spaces, or between CJK characters, within the width") {
    CHECK(wrap("one two three four", 9) == "one two\nthree\nfour\n");
    CHECK(wrap("one two three", 40, "- ", "  ") == "- one two three\n");
    CHECK(wrap("one two three", 9, "- ", "  ") == "- one two\n  three\n");
    // 注意力机制 is 10 columns; a line of 6 holds three characters, no spaces are added
    CHECK(wrap("注意力机制", 6) == "注意力\n机制\n");
    CHECK(wrap("with d_model = 4 here", 15) == "with\nd_model = 4\nhere\n");  // never at a sign
    CHECK(wrap("score log P / lp", 12) == "score log\nP / lp\n");
    CHECK(wrap("the 查询 Query", 9) == "the 查询\nQuery\n");
    // Chinese punctuation never starts a line, an opening bracket never ends one
    CHECK(wrap("查询和键，值。", 8) == "查询和\n键，值。\n");
    CHECK(wrap("权重（和为1）", 6) == "权重\n（和为\n1）\n");
    for (const std::string& line : {wrap("点积同时衡量方向和长度。训练出来的模型两者都能利用；把分数叫作余弦，或者只叫相似度，并不准确。", 20)})
        CHECK(line.find("\n，") == std::string::npos);
}
