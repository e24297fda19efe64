// test_small_inputs.cpp — what a reader tripped over (issue 18): crashes on the smallest legal
// shapes, and sentences that contradicted the numbers printed beside them. Every chapter runs on
// its data file shrunk to one token, one head, d_k = 1, one layer, a one-word source and target,
// max_length 1 (tests/data/*.smallest.json, written by the oracle with its expected values), in
// English and in Chinese; and each sentence that states a result is checked against the number
// it states.
#include <doctest/doctest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>

#include "helpers.h"
#include "report/chapter_list.h"
#include "json.h"

namespace {


std::string smallest(const std::string& chapter) {
    return "tests/data/" + chapter + ".smallest.json";
}

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

Json data_of(const std::string& path) { return Json::parse(read_file(path)); }

}  // namespace

TEST_CASE(
    "every chapter holds at its smallest legal shapes: walkthrough, --json, --check, Chinese") {
    for (const std::string& chapter : chapter_names()) {
        CAPTURE(chapter);
        // ch12, ch13 and ch14 train a poet: on the ten poems of tests/data, for a few steps
        // (without, ch13 trains on the Three Hundred Tang Poems: 25 minutes under the sanitizers)
        const bool poet = chapter == "ch12_gpt" || chapter == "ch13_precision" ||
                          chapter == "ch14_inside_the_poet";
        const std::string data = "--data " + smallest(chapter) + (poet ? quick_flags(chapter) : "");
        for (const std::string lang : {"en", "zh"}) {
            CAPTURE(lang);
            const Run walk = run_program(chapter, data + " --lang " + lang);
            CHECK(walk.exit_code == 0);
            CHECK_MESSAGE(walk.err.find("error") == std::string::npos, walk.err);
            CHECK_FALSE(std::regex_search(walk.out, std::regex("(^|[^a-z])-?nan([^a-z]|$)")));
            CHECK(lines(walk.out) > 5);
        }
        const Run json = run_program(chapter, data + " --json");
        CHECK(json.exit_code == 0);
        CHECK(all_numbers_finite(Json::parse(json.out)));
        const Run check = run_program(chapter, data + " --check");
        CHECK(check.exit_code == 0);
        CHECK(check.out.find(" passed, 0 failed") != std::string::npos);
    }
}

TEST_CASE("ch02 with one token: no crash where the narration named a second token") {
    Json doc = data_of("data/ch02_self_attention.json");
    doc["inputs"]["tokens"] = Json::array({"笔"});
    doc["inputs"]["X"] = Json::array({doc["inputs"]["X"][0]});
    const Run r = run_program("ch02_self_attention", "--data " + temp_file("one.json", doc.dump()));
    CHECK(r.exit_code == 0);  // was 139, a segmentation fault in the projections step
    CHECK(r.out.find("With one token there is no pair to compare") != std::string::npos);
}

TEST_CASE("ch06 --weights: a model whose vocabulary does not name its source ids is refused") {
    const Json doc = data_of("data/ch06_encoder_decoder.json");
    Json file = {{"config", doc["inputs"]["config"]}, {"weights", doc["inputs"]["weights"]}};
    file["config"]["vocabulary"] = Json::array();  // 10 target names for 10 ids …
    for (int i = 0; i < 10; ++i) file["config"]["vocabulary"].push_back("t" + std::to_string(i));
    file["config"]["src_vocab"] = 12;  // … but 12 source ids: the names fell back and ran out
    file["weights"]["src_embedding.weight"] = Json::array();
    for (int i = 0; i < 12; ++i)
        file["weights"]["src_embedding.weight"].push_back(
            doc["inputs"]["weights"]["src_embedding.weight"][0]);
    const Run r =
        run_program("ch06_encoder_decoder",
                    "--weights " + temp_file("names.json", file.dump()) + " --source \"t1 t3\"");
    CHECK(r.exit_code == 2);  // was a segmentation fault while wording the error
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("config.source_vocabulary: missing: the vocabulary names 10 target ids but "
                     "src_vocab is 12") != std::string::npos);
}

TEST_CASE("ch06 --source: spaces suggested, special tokens refused, --weights required") {
    const Json doc = data_of("data/ch06_encoder_decoder.json");
    const Json file = {{"config", doc["inputs"]["config"]}, {"weights", doc["inputs"]["weights"]}};
    const std::string weights = "--weights " + temp_file("w.json", file.dump());
    const Run joined = run_program("ch06_encoder_decoder", weights + " --source 345");
    CHECK(joined.exit_code == 2);
    CHECK(joined.err.find("did you mean \"3 4 5\"?") != std::string::npos);
    const Run pad = run_program("ch06_encoder_decoder", weights + " --source \"<pad> 3\"");
    CHECK(pad.exit_code == 2);
    CHECK(pad.err.find("only pads or starts a sequence") != std::string::npos);
    const Run no_model = run_program("ch06_encoder_decoder", "--source \"3 4\"");
    CHECK(no_model.exit_code == 2);  // was silently ignored, exit 0
    CHECK(no_model.err.find("--source: needs --weights FILE") != std::string::npos);
    std::string long_source;
    for (int i = 0; i < 1100; ++i) long_source += "3 ";
    const Run too_long =
        run_program("ch06_encoder_decoder", weights + " --source \"" + long_source + "\"");
    CHECK(too_long.exit_code == 2);
    CHECK(too_long.err.find("expected at most 1024") != std::string::npos);
}

// The slopes printed in ch08's table, and the layers each sentence names: a layer said to agree
// with the table must be within 0.3 of its counted power, one said to fall short below it.
TEST_CASE("ch08: every sentence about the fitted slopes agrees with the slopes printed above it") {
    Json doc = data_of("data/ch08_cost.json");
    doc["inputs"]["min_seconds_per_point"] = 0.002;
    doc["inputs"]["ns"] = Json::array({32, 64, 128});
    doc["inputs"]["ds"] = Json::array({16, 32, 64});
    doc["inputs"]["fixed_d"] = 32;
    doc["inputs"]["fixed_n"] = 64;
    for (int run = 0; run < 3; ++run) {  // timings differ from run to run; the words must follow
        const Run r =
            run_program("ch08_cost", "--lang en --data " + temp_file("cost.json", doc.dump()));
        REQUIRE(r.exit_code == 0);
        const std::string names[3] = {"self-attention", "recurrent", "convolution"};
        const double counted_n[3] = {2, 1, 1}, counted_d[3] = {1, 2, 2};
        double pn[3], pd[3];
        for (int layer = 0; layer < 3; ++layer) {
            std::smatch m;
            const std::regex row(names[layer] + R"( +\S+ +p = ([-0-9.]+) +p = ([-0-9.]+))");
            REQUIRE(std::regex_search(r.out, m, row));
            pn[layer] = std::stod(m[1]), pd[layer] = std::stod(m[2]);
        }
        std::string text = r.out;
        for (char& c : text) c = c == '\n' ? ' ' : c;  // sentences wrap across lines
        for (const auto& dimension : {std::make_tuple(std::string("n"), pn, counted_n),
                                      std::make_tuple(std::string("d"), pd, counted_d)}) {
            const auto& size = std::get<0>(dimension);
            const auto& slopes = std::get<1>(dimension);
            const auto& counts = std::get<2>(dimension);
            std::smatch agree, short_of;
            const bool says_agree = std::regex_search(
                text, agree,
                std::regex("In " + size +
                           ", the slope agrees with the table here "
                           R"(\(within 0.3 of the counted power\) for: ([^.]*)\.)"));
            const bool says_short = std::regex_search(
                text, short_of,
                std::regex("In " + size + ", the slope falls short of the count for: ([^.]*)\\."));
            for (int layer = 0; layer < 3; ++layer) {
                CAPTURE(size);
                CAPTURE(names[layer]);
                const bool close = std::fabs(slopes[layer] - counts[layer]) <= 0.3 + 0.005;
                const bool low = slopes[layer] < counts[layer] - 0.3 + 0.005;
                if (says_agree && agree[1].str().find(names[layer]) != std::string::npos)
                    CHECK(close);
                if (says_short && short_of[1].str().find(names[layer]) != std::string::npos)
                    CHECK(low);
            }
        }
        CHECK(text.find("The growth in n is the paper's") == std::string::npos);  // the old claim
    }
}

TEST_CASE("ch09: the sentence about the fitted exponents follows the exponents it prints") {
    Json doc = data_of("data/ch09_decoding.json");
    doc["inputs"]["timing_lengths"] = Json::array({8, 16, 32});
    doc["inputs"]["batch_sizes"] = Json::array({1, 2});  // the batch timing, kept short
    doc["inputs"]["stopping"]["numbers"] = Json::array({7, 207});
    doc["inputs"]["stopping"]["training"]["max_steps"] = 2;
    const Run r =
        run_program("ch09_decoding", "--lang en --data " + temp_file("dec.json", doc.dump()));
    REQUIRE(r.exit_code == 0);
    std::string text = r.out;
    for (char& c : text) c = c == '\n' ? ' ' : c;
    std::smatch m;
    REQUIRE(std::regex_search(
        text, m,
        std::regex(R"(recomputation ∝ n\^([-0-9.]+), the cache ∝ n\^([-0-9.]+).*?Recomputation's )"
                   R"(exponent is (short of|close to|above) the 3 of the attention work, the )"
                   R"(cache's (short of|close to|above) the 2)")));
    const double p_recompute = std::stod(m[1]), p_cached = std::stod(m[2]);
    const auto word = [](double p, double count) {
        return p < count - 0.15 ? "short of" : p > count + 0.15 ? "above" : "close to";
    };
    CHECK(m[3].str() == word(p_recompute, 3));
    CHECK(m[4].str() == word(p_cached, 2));
    CHECK(text.find("neither reaches") == std::string::npos);
    // one length only: no exponent, and no null in --json
    doc["inputs"]["timing_lengths"] = Json::array({64, 64});
    const Run one =
        run_program("ch09_decoding", "--json --data " + temp_file("dec1.json", doc.dump()));
    REQUIRE(one.exit_code == 0);
    const Json j = Json::parse(one.out);
    CHECK_FALSE(j.contains("time_exponent_recompute"));
    CHECK(all_numbers_finite(j));
}

TEST_CASE("ch02 with other numbers: the dot-product sentence says more, as much or less") {
    Json doc = data_of("data/ch02_self_attention.json");
    doc["inputs"]["X"][2] = Json::array({3, 2, 1, 1, 2});  // 笔·本 = 12 > 笔·笔 = 11
    const Run r =
        run_program("ch02_self_attention", "--lang en --data " + temp_file("x.json", doc.dump()));
    REQUIRE(r.exit_code == 0);
    std::string text = r.out;
    for (char& c : text) c = c == '\n' ? ' ' : c;
    CHECK(text.find("笔 scores 12 against 本, more than against itself (11)") != std::string::npos);
    const Run own = run_program("ch02_self_attention", "--lang en");
    std::string own_text = own.out;
    for (char& c : own_text) c = c == '\n' ? ' ' : c;
    CHECK(own_text.find("笔 scores 11 against 本, as much as against itself (11)") !=
          std::string::npos);
}

TEST_CASE(
    "ch07: a short run's loss is not said to level off; rows are labelled by what they write") {
    const Run r = run_program("ch07_training", "--lang en --steps 30");
    REQUIRE(r.exit_code == 0);
    std::string text = r.out;
    for (char& c : text) c = c == '\n' ? ' ' : c;
    CHECK(text.find("levels off") == std::string::npos);
    CHECK(text.find("still") != std::string::npos);
    // numerals: the cross-attention's first row writes the first character of the reading
    const Run n = run_program("ch07_training", "--lang en --task numerals --steps 3");
    REQUIRE(n.exit_code == 0);
    const std::size_t at = n.out.find("cross-attention  (");
    REQUIRE(at != std::string::npos);
    std::istringstream rows(n.out.substr(at));
    std::string title, header, first;
    std::getline(rows, title);
    std::getline(rows, header);
    std::getline(rows, first);
    CHECK(first.find("<bos>") == std::string::npos);  // the input token was the label before
}
