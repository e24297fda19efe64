// test_reader_trips_6.cpp — what a reader still tripped over (issue 70), each as it was reported:
// sentences beside the numbers they contradicted, help that named another chapter's work, and
// files written though the run then failed.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.h"
#include "json.h"

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

namespace {

// small_poet.json with every weight replaced by ±size (its sign kept), in a temporary file
std::string poet_of_size(const std::string& name, double size) {
    std::string text = read_file(poet);
    const std::size_t weights = text.find("\"weights\"");
    REQUIRE(weights != std::string::npos);
    // every number after "weights" (outside the tensors' names): nothing else is there
    std::string out = text.substr(0, weights);
    for (std::size_t i = weights; i < text.size();) {
        const char c = text[i];
        if (c == '"') {  // a name, as it is
            const std::size_t end = text.find('"', i + 1) + 1;
            out += text.substr(i, end - i);
            i = end;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t end = i;
            while (end < text.size() && std::string("+-.0123456789eE").find(text[end]) != std::string::npos) ++end;
            out += (c == '-' ? "-" : "") + std::to_string(size);
            i = end;
        } else {
            out += c;
            ++i;
        }
    }
    return temp_file(name, out);
}

}  // namespace

TEST_CASE("weights that overflow: one line and exit 2, never nan% nor null (issue 70, item 19)") {
    // weights of ±1e300: every attention weight on the poem is NaN
    const std::string huge = poet_of_size("huge_poet.json", 1e300);
    for (const char* json : {"", " --json"}) {
        const Run r = run_program("ch14_inside_the_poet", "--lang en --weights " + huge + " --poem 春眠不觉晓" + json);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "error: " + huge + ": its attention weights on your poem are not finite"));
        CHECK_FALSE(has(r.out, "nan"));
        CHECK_FALSE(has(r.out, "null"));
    }
    // weights of ±60,000: float16 throughout overflows, every other reading is finite
    const std::string big = poet_of_size("big_poet.json", 60000);
    const Run r = run_program("ch13_precision", "--lang zh --json --weights " + big);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "错误：第 12 章的模型，" + big + "：按“全程 float16”读它时"));
    CHECK_FALSE(has(r.out, "null"));
}

namespace {

// small_poet.json claiming d_model = d_ff = 4096, its two claimed tensors replaced by `embedding`
// and `linear1` (JSON text): a file of a few hundred kilobytes that asks for gigabytes
std::string claiming_poet(const std::string& name, const std::string& embedding, const std::string& linear1) {
    std::string text = read_file(poet);
    const auto swap = [&](const std::string& from, const std::string& to) {
        const std::size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    swap("\"d_model\":16", "\"d_model\":4096");
    swap("\"d_ff\":32", "\"d_ff\":4096");
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"\"embedding.weight\"", embedding},
                                     {"\"layers.1.linear1.weight\"", linear1}}) {
        const std::size_t at = text.find(key);
        REQUIRE(at != std::string::npos);
        const std::size_t start = text.find('[', at);
        std::size_t end = start;  // just past the tensor's matching ']'
        for (int depth = 0; end == start || depth > 0; ++end)
            depth += text[end] == '[' ? 1 : text[end] == ']' ? -1 : 0;
        text.replace(start, end - start, value);
    }
    return temp_file(name, text);
}

}  // namespace

TEST_CASE("a model file's claimed sizes are backed by its bytes before anything is allocated, "
          "and no file fills the memory (issue 70, item 18)" * doctest::test_suite("native")) {
    // under a 1.5 GB limit of address space: a model of d_model 4096 allocated first (3.27 GB)
    // would end in std::bad_alloc, not in the line naming the tensor
    const auto limited = [](const std::string& program, const std::string& args) {
        return run_command("ulimit -v 1500000; " + program_path(program) + " " + args);
    };
    const std::string shapes_only = claiming_poet(
        "shapes_only.json", R"({"shape": [167, 4096], "bfloat16": "AAAA"})",
        R"({"shape": [4096, 4096], "bfloat16": "AAAA"})");
    Run r = limited("ch12_gpt", "--lang en --write --weights " + shapes_only);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: " + shapes_only + ", weights.embedding.weight.bfloat16: expected base64 "
                     "text of 1368064 bytes"));
    r = limited("ch14_inside_the_poet", "--lang en --poem 春眠不觉晓 --weights " + shapes_only);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "weights.embedding.weight.bfloat16: expected base64"));
    // in float64, only the first row as long as the claim
    std::string first_row = "[[0";
    for (int i = 1; i < 4096; ++i) first_row += ",0";
    first_row += "]";
    for (int i = 1; i < 167; ++i) first_row += ",[]";
    first_row += "]";
    const std::string one_row = claiming_poet("one_row.json", first_row, first_row);
    r = limited("ch12_gpt", "--lang en --write --weights " + one_row);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: " + one_row + ", weights.embedding.weight[1]: expected a row of 4096 numbers"));
    // a file without end, as a model, a pronunciation table and a table of Tang readings
    r = limited("ch12_gpt", "--lang en --write --weights /dev/zero");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: /dev/zero: larger than 256 MiB"));
    r = limited("ch12_gpt", "--lang en --write --weights " + poet + " --pinyin /dev/zero");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: /dev/zero, line 1: longer than 1 MiB; expected a text file of lines"));
    r = limited("ch12_gpt", "--lang en --write --weights " + poet + " --tang /dev/zero");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "/dev/zero, line 1: longer than 1 MiB"));
}

TEST_CASE("error lines: one line whatever the argument held, in the reader's language, naming the "
          "flag (issue 70, item 21)") {
    const std::string exercises = program_path("exercises_as_shipped");
    // no arguments: the list, as `list` gives it
    Run r = run_command(exercises + " --lang en");
    CHECK(r.exit_code == 0);
    CHECK(r.out == run_command(exercises + " --lang en list").out);
    // a newline, a carriage return and an escape in the argument: written as escapes, one line
    r = run_command(exercises + " --lang en \"$(printf 'hi\\nthere\\r\\033[31m')\"");
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: expected list, check [N] or hint N (and --lang zh|en), got \"hi\\nthere\\r\\x1b[31m\"\n");
    r = run_command(exercises + " --lang zh nonsense");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "错误："));
    CHECK_FALSE(has(r.err, "error:"));
    // ch12's --form: the flag is named, not the data file
    r = run_program("ch12_gpt", "--lang en --write --weights " + poet + " --form rhym");
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: ch12_gpt: --form: expected rhyme, tones, runs, a shape (5 or 7, quatrain or regulated) or none"));
    CHECK_FALSE(has(r.err, "data/ch12_gpt.json"));
    // a shape the prompt's first verse contradicts: refused before anything is written (issue 70,
    // item 17: the page's shapes are --form's)
    r = run_program("ch12_gpt", "--lang en --write --weights " + poet +
                                    " --prompt 国破山河在， --form rhyme,7,regulated");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: ch12_gpt: --form 7: the prompt's first verse has 5 characters\n");
    r = run_program("ch12_gpt", "--lang en --write --weights " + poet +
                                    " --prompt '《春望》\\n国破山河在，' --form 5,quatrain");
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "5 characters a verse and four verses (a quatrain, 绝句)"));
    CHECK(has(r.out, "国破山河在，"));
    // a number with a space before it is refused as one with a space after it
    for (const char* seed : {"' 5'", "'5 '"}) {
        r = run_program("ch12_gpt", "--lang en --write --weights " + poet + " --seed " + seed);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--seed: expected a whole number"));
    }
    // a data file with bytes after a NUL: refused, not read up to the NUL
    const std::string nul = temp_directory("nul_data") + "/ch01.json";
    REQUIRE(run_command("{ cat data/ch01_dictionary_lookup.json; printf '\\0{\"more\": 1}'; } > " + nul).exit_code == 0);
    r = run_program("ch01_dictionary_lookup", "--lang en --check --data " + nul);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "a NUL byte (0x00); expected JSON text"));
}

TEST_CASE("ch11: a tile whose block cannot fit in the free memory is refused by its key, before "
          "it is allocated (issue 70, item 18)" * doctest::test_suite("native")) {
    // 64 GiB for one block: past half the free memory on any machine with less than 128 GiB free
    const std::string file = temp_directory("ch11_tile") + "/ch11.json";
    REQUIRE(run_command("sed -e 's/\"lengths\": \\[256, 512, 1024, 2048, 4096, 8192, 16384\\]/\"lengths\": [65536]/' "
                        "-e 's/\"tile\": 64,/\"tile\": 65536,/' data/ch11_long_sequences.json > " + file)
                .exit_code == 0);
    REQUIRE(read_file(file).find("\"tile\": 65536") != std::string::npos);
    const Run r = run_program("ch11_long_sequences", "--lang en --data " + file);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "error: " + file + ", inputs.memory.tile: a tile of 65536 queries × 65536 keys holds 64.00 GiB"));
    CHECK_FALSE(has(r.err, "bad_alloc"));
}

TEST_CASE("ch14 --poem: each column's sentence says how many queries it rests on, and a column "
          "no head looks at is said so, not led by a head of 0.0% (issue 70, item 8)") {
    const Run r = run_program("ch14_inside_the_poet", "--lang en --weights " + poet + " --poem 山");
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "token before (1 query): "));
    CHECK(has(r.out, "punctuation (1 query): no head gives it any weight (every head 0.0%)."));
    CHECK_FALSE(has(r.out, "Each picture is a block"));
    const Run zh = run_program("ch14_inside_the_poet", "--lang zh --weights " + poet + " --poem 山");
    REQUIRE(zh.exit_code == 0);
    CHECK(has(zh.out, "标点（1 个查询）：没有哪个头给它任何权重"));
}

TEST_CASE("ch14 --poem: each kind of key's leader on the held-out poems beside what it gives on the "
          "poem, or why the held-out poems are not there (issue 70, item 8)") {
    const std::string poem = " --poem '《静夜思》\\n床前明月光，疑是地上霜。\\n举头望明月，低头思故乡。'";
    // the held-out poems the chapter's first table is measured on: its --json
    const Run full = run_program("ch14_inside_the_poet", "--weights " + poet + " --json");
    REQUIRE(full.exit_code == 0);
    const Json measured = Json::parse(full.out);
    const std::size_t poems = measured["poet_heldout_poems"].get<std::size_t>();
    const Json& even = measured["poet_head_even"][0];
    std::size_t standing = 0;  // kinds whose leader gives twice an even spread there
    const char* keys[] = {"previous", "bos", "punctuation", "clause_start", "previous_line", "rhyme"};
    for (std::size_t k = 0; k < 6; ++k) {
        double most = 0;
        for (const Json& share : measured[std::string("poet_head_") + keys[k]][0])
            most = std::max(most, share.get<double>());
        if (most >= 2 * even[k].get<double>()) ++standing;
    }
    const Run r = run_program("ch14_inside_the_poet", "--lang en --weights " + poet + poem);
    REQUIRE(r.exit_code == 0);
    std::string said = r.out;  // the narration's lines joined: a sentence may wrap
    for (char& c : said)
        if (c == '\n') c = ' ';
    CHECK(has(said, "On the " + std::to_string(poems) + " held-out poem" + (poems == 1 ? " " : "s ")));
    CHECK(has(said, "no head gives a kind of key that your poem has twice an even spread") ==
          (standing == 0));
    // a model file whose corpus is not here (the live book's page): said so, no other corpus read
    const std::string moved = temp_directory("poet_moved") + "/poet.json";
    {
        Json copy = Json::parse(read_file(poet));
        copy["corpus"]["source"] = "tests/data/no_such_corpus.txt";
        std::ofstream(moved) << copy.dump();
    }
    const Run away = run_program("ch14_inside_the_poet", "--lang en --weights " + moved + poem);
    REQUIRE(away.exit_code == 0);
    CHECK(has(away.out, "The held-out poems are not here"));
    CHECK_FALSE(has(away.out, "held-out poem the model never trained on"));
    const Run zh = run_program("ch14_inside_the_poet", "--lang zh --weights " + moved + poem);
    CHECK(has(zh.out, "留出诗不在这里"));
}
