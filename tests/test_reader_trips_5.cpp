// test_reader_trips_5.cpp — what a reader still tripped over (issue 53), each as it was reported:
// bad input that crashed chapter 14 or exhausted chapter 11's memory, an error line split by a
// newline in a flag's value, a pronunciation table that is a directory or empty, and words the
// programs print.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string>

#include "helpers.h"
#include "json.h"
#include "verse/poem_measures.h"

namespace {

Json smallest(const std::string& chapter) {
    std::ifstream in("tests/data/" + chapter + ".smallest.json");
    return Json::parse(in);
}

// exactly one line on stderr, starting "error: ", nothing on stdout, exit code 2
void one_error_line(const Run& r, const std::string& must_contain) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK_MESSAGE(r.err.find(must_contain) != std::string::npos, r.err);
}

// A poet of chapter 12, saved by build/ch12_gpt after 40 steps on the ten sample poems (2 blocks
// of 4 heads, 6,528 parameters): the tests here damage a copy. (Trained here with chapter 12's
// own shape, it took half a minute under the sanitizers, and chapter 14 on it two minutes.)
const std::string& sample_poet() {
    static const std::string path = "tests/data/small_poet.json";
    return path;
}

}  // namespace

TEST_CASE("ch14: punctuation that takes every character leaves nothing to draw: one line, no crash") {
    Json doc = smallest("ch14_inside_the_poet");
    Json all = Json::array();
    for (const Json& name : doc["inputs"]["small"]["vocabulary"]) all.push_back(name);
    doc["inputs"]["punctuation"] = all;
    const std::string path = temp_file("ch14_all_punctuation.json", doc.dump());
    one_error_line(run_program("ch14_inside_the_poet", "--check --data " + path),
                   "inputs.punctuation: leaves no character of the small model's");
}

TEST_CASE("ch11: a memory tile longer than every sequence is refused by name, before any work") {
    Json doc = smallest("ch11_long_sequences");
    doc["inputs"]["memory"]["tile"] = 65536;
    const std::string path = temp_file("ch11_tile.json", doc.dump());
    const Run r = run_program("ch11_long_sequences", "--json --data " + path);
    one_error_line(r, "inputs.memory.tile: expected a whole number from 1 to");
    CHECK(r.err.find("bad_alloc") == std::string::npos);
}

TEST_CASE("a newline inside a flag's value or a path is written \\n: the error stays one line") {
    one_error_line(run_program("ch07_training", "--norm \"$(printf 'rms\\nx')\""),
                   "--norm: expected layer or rms, got \"rms\\nx\"");
    const Run corpus = run_program("ch12_gpt", "--steps 1 --corpus \"$(printf 'no\\nsuch')\"");
    CHECK(corpus.exit_code == 2);  // (after the checks of the data file's small examples)
    CHECK(corpus.err.find('\n') == corpus.err.size() - 1);
    CHECK_MESSAGE(corpus.err.find("no\\nsuch") != std::string::npos, corpus.err);
}

TEST_CASE("--pinyin, --tang: a directory, an empty file and /dev/null are refused as the other files are") {
    const std::string dir = temp_directory("pinyin_dir");
    const std::string empty = temp_file("empty.pinyin.txt", "");
    for (const char* flag : {"--pinyin ", "--tang "})
        for (const std::string& bad : {dir, empty, std::string("/dev/null")}) {
            CAPTURE(bad);
            one_error_line(run_program("ch12_gpt", "--corpus tests/data/tang_sample.txt --steps 1 "
                                                   "--poems 1 " +
                                                       std::string(flag) + bad),
                           bad + ": ");
        }
    // a Mandarin table named as the Tang one: the line and the reading that is not one
    one_error_line(run_program("ch12_gpt", "--corpus tests/data/tang_sample.txt --steps 1 "
                                           "--poems 1 --tang tests/data/tang_sample.pinyin.txt"),
                   "tests/data/tang_sample.pinyin.txt, line 1: \"");
}

TEST_CASE("words: ch12's --help promises what it shows, and sends the heads to chapter 14") {
    // the help wrapped to the terminal's width: its lines joined again
    const auto unwrapped = [](std::string text) {
        for (std::size_t at; (at = text.find("\n  ")) != std::string::npos;) text.replace(at, 3, " ");
        return text;
    };
    const std::string zh = unwrapped(run_program("ch12_gpt", "--help --lang zh").out);
    CHECK(zh.find("它的注意力头在看什么，见第 14 章") != std::string::npos);
    CHECK(zh.find("看它的注意力头在看什么") == std::string::npos);
    const std::string en = unwrapped(run_program("ch12_gpt", "--help").out);
    CHECK(en.find("(what its heads look at is chapter 14)") != std::string::npos);
}

TEST_CASE("《静夜思》 is a training poem when the collection holds another version of it") {
    // 全唐诗's version, as the corpus has it, beside the one every reader knows
    const std::set<std::string> training = {"床前看月光，疑是地上霜。", "举头望山月，低头思故乡。",
                                            "白日依山尽，黄河入海流。"};
    const std::string famous = "《静夜思》\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。";
    CHECK(shares_a_verse(famous, training));  // 疑是地上霜 word for word
    // one character away in every verse, and the whole couplets all different: still the same poem
    CHECK(shares_a_verse("《静夜思》\n床前明月光，疑似地上霜。", training));
    // two characters away in every verse: another poem
    CHECK_FALSE(shares_a_verse("《某诗》\n窗前明日光，疑似地中霜。", training));
    CHECK_FALSE(shares_a_verse("《某诗》\n春眠不觉晓，处处闻啼鸟。", training));
}

TEST_CASE("ch13: a weight float16 does not hold is named as float16's, in the data file and in a poet") {
    Json doc = smallest("ch13_precision");
    doc["inputs"]["model"]["weights"]["embedding.weight"][0][0] = 1e30;
    const std::string path = temp_file("ch13_big_weight.json", doc.dump());
    one_error_line(run_program("ch13_precision", "--check --data " + path),
                   "inputs.model: its weight embedding.weight is 1e+30, past float16's largest "
                   "number, 65,504");
    // chapter 12's poet with one weight past 65,504 (as the reader's 65520, 70000, 3.5e38, 1e300)
    Json poet = Json::parse(read_file(sample_poet()));
    poet["weights"]["layers.0.self_attn.out_proj.weight"][1][2] = 70000.0;
    const std::string big = temp_file("ch13_poet_70000.json", poet.dump());
    one_error_line(run_program("ch13_precision", "--json --weights " + big),
                   "its weight layers.0.self_attn.out_proj.weight is 70000, past float16's largest "
                   "number, 65,504");
}

TEST_CASE("an untied poet: chapter 13 stores both its tables, chapter 14 reads it through its own") {
    Json poet = Json::parse(read_file(sample_poet()));
    poet["config"]["tied_output"] = false;
    poet["weights"]["output.weight"] = poet["weights"]["embedding.weight"];
    const std::string untied = temp_file("ch13_untied.json", poet.dump());
    // the same numbers in two tables: chapter 13 reads it as the tied poet in every format, and
    // keeps the table twice (float64: 8 bytes a weight)
    const Json tied =
        Json::parse(run_program("ch13_precision", "--json --weights " + sample_poet()).out);
    const Run r = run_program("ch13_precision", "--json --weights " + untied);
    REQUIRE(r.exit_code == 0);
    const Json two = Json::parse(r.out);
    CHECK(two["poet_heldout_loss_by_format"] == tied["poet_heldout_loss_by_format"]);
    CHECK(two["poet_greedy_tokens_unchanged_by_format"] ==
          tied["poet_greedy_tokens_unchanged_by_format"]);
    const Json& table = poet["weights"]["embedding.weight"];
    CHECK(two["poet_model_bytes_by_format"][0][0].get<double>() ==
          tied["poet_model_bytes_by_format"][0][0].get<double>() +
              8.0 * double(table.size() * table[0].size()));
    const Run inside = run_program("ch14_inside_the_poet", "--weights " + untied);
    CHECK(inside.exit_code == 0);
    CHECK(inside.out.find("read out through the poet's own output table") != std::string::npos);
    CHECK(inside.out.find("through the tied table") == std::string::npos);
}

TEST_CASE("ch14: a poet whose outputs overflow is refused in one line, not written as null") {
    Json poet = Json::parse(read_file(sample_poet()));
    // <bos>'s row, read by every poem, all 1e308: its squares overflow in the norm
    for (Json& x : poet["weights"]["embedding.weight"][1]) x = 1e308;
    const std::string path = temp_file("ch14_poet_1e300.json", poet.dump());
    const Run r = run_program("ch14_inside_the_poet",
                              "--json --weights " + path + " --corpus tests/data/tang_sample.txt");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("null") == std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK_MESSAGE(r.err.find("is not finite") != std::string::npos, r.err);
}

TEST_CASE("ch14: a poet that reads most of the poems as <unk> is refused; a min_count that leaves no "
          "character too") {
    const auto with_min_count = [](int min_count) {
        Json doc = smallest("ch14_inside_the_poet");
        doc["inputs"]["poet"]["corpus"]["min_count"] = min_count;
        const std::string path =
            temp_file("ch14_min_count_" + std::to_string(min_count) + ".json", doc.dump());
        return run_program("ch14_inside_the_poet", "--json --data " + path +
                                                       " --corpus tests/data/tang_sample.txt --steps 2");
    };
    const Run unknown = with_min_count(3);
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find('\n') == unknown.err.size() - 1);
    CHECK_MESSAGE(unknown.err.find("are unknown to its vocabulary of") != std::string::npos,
                  unknown.err);
    const Run none = with_min_count(1000);  // was undefined behaviour, exit 0
    CHECK(none.exit_code == 2);
    CHECK_MESSAGE(none.err.find("inputs.punctuation: leaves no character") != std::string::npos,
                  none.err);
}

TEST_CASE("an array longer than any data file holds is refused as the file is read") {
    // 2^20 values: as many rows as the largest vocabulary a reader may ask for, accepted
    std::string values = "0";
    for (std::size_t i = 1; i < max_json_array; ++i) values += ",0";
    CHECK(DataFile::parse("ok.json", "{\"a\": [" + values + "]}").length("a") == max_json_array);
    // one more: refused where it happens, before the document is built
    CHECK_THROWS_WITH_AS(DataFile::parse("long.json", "{\"a\": [" + values + ",0]}"),
                         "long.json, line 1 column 2097159: an array of more than 1,048,576 "
                         "values; expected a data file of this project",
                         DataError);
    // a string may hold any number of commas
    CHECK(DataFile::parse("s.json", "{\"a\": \"" + values + ",0\"}").has("a"));
    // a chapter given a matrix of 2^20 + 1 rows (ten million took half a minute and 3 GB)
    Json doc = smallest("ch13_precision");
    doc["inputs"]["model"]["weights"]["embedding.weight"] = "ROWS";
    std::string text = doc.dump();
    std::string rows = "[0]";
    for (std::size_t i = 0; i < max_json_array; ++i) rows += ",[0]";
    text.replace(text.find("\"ROWS\""), 6, "[" + rows + "]");
    const std::string path = temp_file("ch13_long.json", text);
    one_error_line(run_program("ch13_precision", "--check --data " + path),
                   "an array of more than 1,048,576 values; expected a data file of this project");
}
