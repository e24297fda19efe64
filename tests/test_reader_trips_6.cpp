// test_reader_trips_6.cpp — what a reader still tripped over (issue 70), each as it was reported:
// sentences beside the numbers they contradicted, help that named another chapter's work, and
// files written though the run then failed.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.h"

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// the text with every run of spaces and line breaks one space (--help wraps its lines)
std::string flat(const std::string& text) {
    std::string out;
    for (char c : text)
        if (c == ' ' || c == '\n') {
            if (out.empty() || out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    return out;
}

const std::string poet = "tests/data/small_poet.json";  // chapter 12's shape, 2 blocks of 4 heads

}  // namespace

TEST_CASE("ch14: the sentence before the zeroed-heads table counts the heads whose zeroing "
          "lowers the second copy's loss, as the table's column shows") {
    const Run r = run_program("ch14_inside_the_poet",
                              "--lang en --weights " + poet + " --corpus tests/data/tang_sample.txt");
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "zeroing any head harms both copies"));
    // the table's rows: "head  prefix  × even  change  saving lost", the change the 4th column
    std::istringstream lines(r.out.substr(r.out.find("second copy's change, head zeroed")));
    std::string line;
    std::getline(lines, line);  // the header
    std::getline(lines, line);  // its rule
    std::size_t lower = 0, heads = 0;
    while (std::getline(lines, line)) {
        std::istringstream row(line);
        std::vector<std::string> cells;
        for (std::string cell; row >> cell;) cells.push_back(cell);
        if (cells.size() != 5) break;
        ++heads;
        if (cells[3].rfind("−", 0) == 0 && cells[3] != "−0.000") ++lower;
    }
    REQUIRE(heads == 8);
    const std::string said =
        lower == 0       ? "Zeroing any one of the 8 heads raises the second copy's loss"
        : lower == heads ? "Zeroing any one of the 8 heads lowers the second copy's loss"
                         : "lowers the second copy's loss for " + std::to_string(lower) + " of the 8 heads";
    CHECK_MESSAGE(has(r.out, said), said);
    // the repeats: the share of the excess the head takes is said, not "owe most to"
    CHECK_FALSE(has(r.out, "owe most to head"));
}

TEST_CASE("--help: --cache names what this chapter keeps, and ch12 --write does not say it "
          "measures nothing") {
    const Run two = run_program("ch02_self_attention", "--help --lang en");
    CHECK(has(flat(two.out), "the width sweep, inputs.why_scale"));
    for (const char* chapter : {"ch12_gpt", "ch13_precision", "ch14_inside_the_poet"}) {
        const Run h = run_program(chapter, "--help --lang en");
        CAPTURE(chapter);
        CHECK_FALSE(has(flat(h.out), "width sweep"));
        CHECK(has(flat(h.out), "this one has none to keep"));
    }
    CHECK_FALSE(has(flat(run_program("ch12_gpt", "--help --lang en").out), "nothing trained or measured"));
    CHECK_FALSE(has(run_program("ch12_gpt", "--help --lang zh").out, "第 2 章对宽度的扫描"));
}

TEST_CASE("ch12 --write: a bad flag writes nothing, and --save never replaces the model it reads") {
    const std::string dir = temp_directory("ch12_save_first");
    const std::string mine = dir + "/user.json";
    {
        std::ofstream out(mine);
        out << "the reader's own file\n";
    }
    for (const char* bad : {"--seed -1", "--top-p 2", "--temperature 0", "--form rhym"}) {
        CAPTURE(bad);
        const Run r = run_program("ch12_gpt", "--write --weights " + poet + " --bfloat16 --save " +
                                                  mine + " " + bad);
        CHECK(r.exit_code == 2);
        CHECK(read_file(mine) == "the reader's own file\n");
    }
    const std::string copy = dir + "/poet.json";
    REQUIRE(run_command("cp " + poet + " " + copy).exit_code == 0);
    const std::string before = read_file(copy);
    const Run over = run_program("ch12_gpt", "--write --weights " + copy + " --bfloat16 --save " +
                                                 dir + "/./poet.json");
    CHECK(over.exit_code == 2);
    CHECK(has(over.err, "that is the file this run reads"));
    CHECK(read_file(copy) == before);
    // training (no --weights): --save onto the data file is refused before anything runs
    const std::string data = dir + "/ch12_gpt.json";
    REQUIRE(run_command("cp data/ch12_gpt.json " + data).exit_code == 0);
    const std::string data_before = read_file(data);
    const Run onto_data = run_program("ch12_gpt", "--data " + data + " --save " + data);
    CHECK(onto_data.exit_code == 2);
    CHECK(has(onto_data.err, "that is the file this run reads"));
    CHECK(read_file(data) == data_before);
}
