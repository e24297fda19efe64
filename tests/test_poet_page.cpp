// test_poet_page.cpp — the poet of the live book's pages: weights in bfloat16 in a model file
// (base64 of their bits), chapter 12's --write (a saved model writes, nothing else) and chapter
// 14's --poem (the heads on the reader's poem), their errors, and their smallest inputs. The
// model is tests/data/small_poet.json: 2 blocks of 4 heads, trained 40 steps on
// tests/data/tang_sample.txt by build/ch12_gpt (an input, not an expected value).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/number_formats.h"
#include "core/random.h"
#include "helpers.h"
#include "io/base64.h"
#include "io/gpt_file.h"
#include "model/gpt/gpt.h"
#include "model/transformer/parameters.h"

namespace {

const std::string poet = "tests/data/small_poet.json";
const std::string pinyin = "tests/data/tang_sample.pinyin.txt";

std::size_t count_lines(const std::string& s) {
    std::size_t n = 0;
    for (const char c : s) n += c == '\n';
    return n;
}

// exit code 2, nothing on stdout, one line on stderr starting "error: " and naming `what`
void check_error_line(const Run& r, const std::string& what) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK_MESSAGE(r.err.find(what) != std::string::npos, r.err);
}

// The text of a model file with one tensor's object replaced (its first occurrence).
std::string with_tensor(const std::string& text, const std::string& name, const std::string& json) {
    const std::size_t at = text.find("\"" + name + "\":");
    REQUIRE(at != std::string::npos);
    const std::size_t start = text.find('{', at), end = text.find('}', start);
    return text.substr(0, start) + json + text.substr(end + 1);
}

}  // namespace

TEST_CASE("base64: every length round-trips, and text that is not base64 is refused") {
    Random rng(5);
    for (std::size_t n = 0; n < 40; ++n) {
        std::vector<std::uint8_t> bytes(n), back;
        for (auto& b : bytes) b = std::uint8_t(rng.uniform() * 256);
        const std::string text = base64_encode(bytes);
        CHECK(text.size() == (n + 2) / 3 * 4);
        REQUIRE(base64_decode(text, back));
        CHECK(back == bytes);
    }
    CHECK(base64_encode({'M', 'a', 'n'}) == "TWFu");  // RFC 4648's examples
    CHECK(base64_encode({'f', 'o'}) == "Zm8=");
    CHECK(base64_encode({'f'}) == "Zg==");
    std::vector<std::uint8_t> out;
    for (const char* bad : {"Zg=", "Z===", "Zg=a", "Zm8=Zm8=", "Zm$=", "=Zm8", "Zm 8"})
        CHECK_MESSAGE(!base64_decode(bad, out), bad);
}

TEST_CASE("a model saved in bfloat16 loads as PyTorch's x.to(torch.bfloat16), at a quarter of the size") {
    const SavedGpt saved = read_saved_gpt(poet);
    const std::string numbers = temp_file("f64.json", ""), halves = temp_file("bf16.json", "");
    save_gpt(saved.model, saved.vocabulary.names, saved.record, numbers);
    save_gpt(saved.model, saved.vocabulary.names, saved.record, halves, SavedWeights::BFloat16);
    Gpt original = saved.model, back = read_saved_gpt(halves).model;
    const std::vector<Parameter> a = parameters(original), b = parameters(back);
    REQUIRE(a.size() == b.size());
    std::size_t values = 0, changed = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        REQUIRE(shape_of(*a[i].value) == shape_of(*b[i].value));
        for (std::size_t j = 0; j < a[i].value->data.size(); ++j) {
            const double x = a[i].value->data[j], y = b[i].value->data[j];
            CHECK(y == to_format(x, FloatFormat::BFloat16));
            ++values, changed += x != y;
        }
    }
    CHECK(values == parameter_count(original));
    CHECK(changed > values / 2);  // a trained model's weights are not bfloat16 values
    CHECK(read_file(halves).size() * 4 < read_file(numbers).size());
    // saved again from what it read, a bfloat16 model's file is the same to the byte
    const SavedGpt again = read_saved_gpt(halves);
    const std::string twice = temp_file("bf16_again.json", "");
    save_gpt(again.model, again.vocabulary.names, again.record, twice, SavedWeights::BFloat16);
    CHECK(read_file(twice) == read_file(halves));
    CHECK(again.record.temperature == saved.record.temperature);
}

TEST_CASE("a damaged bfloat16 tensor is one error naming the tensor and what was expected") {
    const SavedGpt saved = read_saved_gpt(poet);
    const std::string path = temp_file("bf16_damaged_source.json", "");
    save_gpt(saved.model, saved.vocabulary.names, saved.record, path, SavedWeights::BFloat16);
    const std::string text = read_file(path);
    const std::string name = "norm.weight";  // the final norm's gains: 16 values
    const struct {
        std::string json, says;
    } cases[] = {
        {R"({"shape": [16], "bfloat16": "AAAA"})", "expected base64 text of 32 bytes"},
        {R"({"shape": [16], "bfloat16": "not base64!"})", "expected base64 text of 32 bytes"},
        {R"({"shape": [0], "bfloat16": ""})", "expected [rows, columns] or [length]"},
        {R"({"shape": "16", "bfloat16": ""})", "expected [rows, columns] or [length]"},
        {R"({"bfloat16": ""})", "expected [rows, columns] or [length]"},
        // sixteen values, the first NaN's bits (0x7fc0: high byte 0x7f first, its low byte 17th)
        {R"({"shape": [16], "bfloat16": "fwAAAAAAAAAAAAAAAAAAAMAAAAAAAAAAAAAAAAAAAAA="})",
         "the value at index 0 is not a finite number"},
        // the right count in the wrong shape
        {R"({"shape": [4, 4], "bfloat16": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})",
         "expected [16] (PyTorch's layout), got (4x4)"},
    };
    for (const auto& c : cases) {
        const std::string bad = temp_file("bf16_damaged.json", with_tensor(text, name, c.json));
        const Run r = run_program("ch12_gpt", "--write --weights " + bad + " --prompt 春");
        check_error_line(r, c.says);
        CHECK_MESSAGE(r.err.find("weights." + name) != std::string::npos, r.err);
    }
}

TEST_CASE("ch12 --write: the saved poet writes, the same poems from a file rounded to bfloat16") {
    const std::string dir = temp_directory("poet_write");
    const std::string flags = " --pinyin " + pinyin + " --prompt 《春晓》 --seed 7 --poems 2 --json";
    const Run rounded_here = run_program(
        "ch12_gpt", "--write --weights " + poet + " --bfloat16 --save " + dir + "/bf16.json" + flags);
    REQUIRE(rounded_here.exit_code == 0);
    const Run from_file = run_program("ch12_gpt", "--write --weights " + dir + "/bf16.json" + flags);
    REQUIRE(from_file.exit_code == 0);
    CHECK(from_file.out == rounded_here.out);  // every token of both poems
    CHECK(rounded_here.out.find("\"poem_1\"") != std::string::npos);
    const Run plain = run_program("ch12_gpt", "--write --weights " + poet + flags);
    CHECK(plain.out != rounded_here.out);  // the rounding is felt
    const Run other_seed = run_program(
        "ch12_gpt", "--write --weights " + dir + "/bf16.json --pinyin " + pinyin +
                        " --prompt 《春晓》 --seed 8 --poems 2 --json");
    CHECK(other_seed.out != from_file.out);
    // the narration, in both languages: which model, what was kept, the poem under its prompt
    const Run en = run_program("ch12_gpt", "--write --weights " + dir + "/bf16.json --pinyin " +
                                               pinyin + " --prompt 《春晓》 --form none --lang en");
    CHECK(en.exit_code == 0);
    CHECK(en.out.find("every weight a bfloat16 value") != std::string::npos);
    CHECK(en.out.find("No rule kept") != std::string::npos);
    CHECK(en.out.find("from \"《春晓》\":") != std::string::npos);
    const Run zh = run_program("ch12_gpt", "--write --weights " + dir + "/bf16.json --pinyin " +
                                               pinyin + " --prompt 《春晓》 --lang zh");
    CHECK(zh.exit_code == 0);
    CHECK(zh.out.find("诗人写诗") != std::string::npos);
    CHECK(zh.out.find("遵守") != std::string::npos);
    // a page of it: nothing in it has an expected value, and the check line says so
    const Run page = run_program("ch12_gpt", "--write --weights " + poet + " --prompt 春 --html " + dir);
    CHECK(page.exit_code == 0);
    CHECK(read_file(dir + "/ch12_gpt.html").find("so nothing is checked") != std::string::npos);
}

TEST_CASE("ch12 --write and its switches: a wrong combination is one error line") {
    check_error_line(run_program("ch12_gpt", "--write --prompt 春"), "--weights FILE");
    check_error_line(run_program("ch12_gpt", "--write --check --weights " + poet), "--check or --write");
    check_error_line(run_program("ch12_gpt", "--write --steps 3 --weights " + poet), "--steps");
    check_error_line(run_program("ch12_gpt", "--seed 3 --steps 1"), "--seed: only with --write");
    check_error_line(run_program("ch12_gpt", "--bfloat16 --steps 1"), "--bfloat16: only with --write");
    check_error_line(run_program("ch12_gpt", "--write --weights " + poet + " --temperature 0"),
                     "--temperature");
    check_error_line(run_program("ch12_gpt", "--write --weights " + poet + " --form rhyme,metre"),
                     "metre");
    check_error_line(run_program("ch12_gpt", "--write --weights tests/data/no_such_model.json"),
                     "no_such_model.json");
}

TEST_CASE("ch14 --poem: the heads on a typed poem, down to one character; nothing typed is refused") {
    const std::string dir = temp_directory("poet_poem");
    const Run r = run_program("ch14_inside_the_poet",
                              "--poem '《静夜思》\\n床前明月光，疑是地上霜。' --weights " + poet +
                                  " --lang en --svg " + dir);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("The heads on your poem") != std::string::npos);
    CHECK(r.out.find("poem's 18 tokens") != std::string::npos);  // 《静夜思》, ↵, 12 characters
    CHECK(r.out.find("   2.4 ") != std::string::npos);           // a row for every head
    for (const char* block : {"1", "2"})
        CHECK(!read_file(dir + "/ch14_your_poem_block" + block + ".svg").empty());
    CHECK(read_file(dir + "/ch14_your_poem_block3.svg").empty());  // two blocks, two pictures
    // one character: one query; the kinds it has no query of are said to be missing, no NaN
    const Run one = run_program("ch14_inside_the_poet", "--poem 月 --weights " + poet + " --json");
    REQUIRE(one.exit_code == 0);
    CHECK(one.out.find("nan") == std::string::npos);
    const Run one_text = run_program("ch14_inside_the_poet", "--poem 月 --weights " + poet + " --lang en");
    CHECK(one_text.out.find("rhyme: no query of this kind here") != std::string::npos);
    const Run zh = run_program("ch14_inside_the_poet", "--poem 月 --weights " + poet + " --lang zh");
    CHECK(zh.out.find("你的诗上的各个头") != std::string::npos);
    check_error_line(run_program("ch14_inside_the_poet", "--poem '' --weights " + poet),
                     "--poem: expected a value");
    check_error_line(run_program("ch14_inside_the_poet", "--poem 月 --check --weights " + poet),
                     "--check or --poem");
    check_error_line(run_program("ch14_inside_the_poet", "--poem 月 --steps 3 --weights " + poet),
                     "--steps");
}
