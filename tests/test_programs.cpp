// test_programs.cpp — the chapter program contract, tested on the built programs:
// --help, --json, --check (passing and failing), and one "error:" line with exit code 2 for
// bad flags and bad data files.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "helpers.h"
#include "report/chapter_list.h"
#include "json.h"
#include "xml_check.h"


// ch07 trains for half a minute by default; in tests, a few steps show the contract

static Json data_of(const std::string& chapter) {
    std::ifstream in("data/" + chapter + ".json");
    return Json::parse(in);
}

static int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

// exit code 2, nothing on stdout, and exactly one line on stderr that starts "error: "
static void check_one_error_line(const Run& r, const std::string& must_contain) {
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err) == 1);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK_MESSAGE(r.err.find(must_contain) != std::string::npos, r.err);
}

// The chapter run on a copy of its data file, changed by `change`: one error line naming `message`.
static void check_bad_data(const std::string& chapter, const std::function<void(Json&)>& change,
                           const std::string& message, const std::string& flags = "") {
    Json doc = data_of(chapter);
    change(doc);
    check_one_error_line(run_program(chapter, flags + (flags.empty() ? "" : " ") + "--data " +
                                                  temp_file("changed.json", doc.dump())),
                         message);
}

TEST_CASE("every chapter: --help, --check and --json follow the contract" * doctest::test_suite("native")) {
    for (const std::string& chapter : chapter_names()) {
        CAPTURE(chapter);
        const Run help = run_program(chapter, "--help");
        CHECK(help.exit_code == 0);
        CHECK(help.out.find("--check") != std::string::npos);
        CHECK(help.out.find("Follows the tutorial") != std::string::npos);

        const Run check = run_program(chapter, "--check");
        CHECK(check.exit_code == 0);
        CHECK(lines(check.out) == 1);
        CHECK(check.out.find(" passed, 0 failed") != std::string::npos);

        const Run json = run_program(chapter, "--json" + quick_flags(chapter));
        CHECK(json.exit_code == 0);
        Json parsed = Json::parse(json.out);  // stdout is nothing but the JSON object
        if (std::string(chapter) ==
            "ch06_encoder_decoder") {  // its base-model keys come from --config base
            const Run base = run_program(chapter, "--config base --json");
            CHECK(base.exit_code == 0);
            parsed.update(Json::parse(base.out));
            CHECK(parsed["core_parameter_count"] == 44140544);
        }
        if (std::string(chapter) == "ch07_training") {  // the readings come from --task numerals
            const Run numerals =
                run_program(chapter, "--task numerals --json" + quick_flags(chapter));
            CHECK(numerals.exit_code == 0);
            parsed.update(Json::parse(numerals.out));
        }
        const Json data = data_of(chapter);  // kept alive for the loop below
        for (const auto& item : data["expected"].items())
            CHECK_MESSAGE(parsed.contains(item.key()), item.key());
    }
}

TEST_CASE("--check fails with a table when an expected value is changed") {
    Json doc = data_of("ch02_self_attention");
    doc["expected"]["softmax_XXt"][0][1] = 0.064;  // the tutorial's erratum, as if it were right
    const std::string path = temp_file("changed.json", doc.dump());
    const Run r = run_program("ch02_self_attention", "--check --data " + path);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("softmax_XXt") != std::string::npos);
    CHECK(r.out.find("[0,1]") != std::string::npos);
    CHECK(r.out.find("1 failed") != std::string::npos);
}

TEST_CASE("bad flags and bad data files give one error line and exit code 2") {
    check_one_error_line(run_program("ch01_dictionary_lookup", "--frobnicate"), "unknown flag");
    check_one_error_line(run_program("ch01_dictionary_lookup", "--data"), "expected a value");
    check_one_error_line(run_program("ch02_self_attention", "--data /nonexistent.json"),
                         "/nonexistent.json: cannot open");
    check_one_error_line(run_program("ch02_self_attention",
                                     "--data " + temp_file("broken.json", "{\"inputs\": [1,,2]}")),
                         "not valid JSON");

    check_bad_data(
        "ch02_self_attention", [](Json& doc) { doc["inputs"].erase("X"); }, "inputs.X: missing");

    check_bad_data(
        "ch02_self_attention",
        [](Json& doc) {
            doc["inputs"]["X"][1] = Json::array({1, 2});
        },
        "inputs.X: row 1 has 2 values, expected 5");

    check_bad_data(
        "ch02_self_attention",
        [](Json& doc) {
            doc["inputs"]["tokens"] = Json::array({"笔", "记"});
        },
        "inputs.tokens: expected one token per row");

    // XXᵀ overflows to infinity
    check_bad_data(
        "ch02_self_attention", [](Json& doc) { doc["inputs"]["X"][0][0] = 1e200; }, "not finite",
        "--json");

    check_bad_data(
        "ch01_dictionary_lookup",
        [](Json& doc) {
            doc["inputs"]["values"] = Json::array({10, "five", 2});
        },
        "inputs.values[1]: expected a number");
}

TEST_CASE("ch03 and ch04: masks and weights of the wrong size are named") {
    check_bad_data(
        "ch03_masked_attention",
        [](Json& doc) {
            doc["inputs"]["key_padding"] = Json::array({false, true});
        },
        "inputs.key_padding: expected 5 flags");

    check_bad_data(
        "ch04_multi_head_attention",
        [](Json& doc) {
            doc["inputs"]["W_K"][1] = Json::array({1, 2, 3});
        },
        "inputs.W_K: row 1 has 3 values, expected 8");

    check_bad_data(
        "ch04_multi_head_attention", [](Json& doc) { doc["inputs"]["n_heads"] = 3; },
        "inputs.W_Q: 8 columns cannot be split into 3 heads");

    check_bad_data(
        "ch04_multi_head_attention",
        [](Json& doc) {
            doc["inputs"]["b_O"] = Json::array({1, 2});
        },
        "inputs.b_O: expected 8 values");

    check_bad_data(
        "ch04_multi_head_attention",
        [](Json& doc) { doc["inputs"]["source_key_padding"] = Json::array({false}); },
        "inputs.source_key_padding: expected one flag per row");
}

TEST_CASE("ch03 --json holds the causal weight matrix") {
    const Json j = Json::parse(run_program("ch03_masked_attention", "--json").out);
    REQUIRE(j.contains("weights_causal"));
    CHECK(j["weights_causal"][0][0] == 1.0);
    CHECK(j["weights_causal"][0][1] == 0.0);
}

TEST_CASE("--svg DIR writes well-formed pictures; an unwritable DIR is one error line") {
    const std::string dir =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/svg";
    for (const char* chapter :
         {"ch02_self_attention", "ch03_masked_attention", "ch04_multi_head_attention",
          "ch05_positional_encoding", "ch07_training", "ch08_cost"}) {
        CAPTURE(chapter);
        const Run r = run_program(
            chapter, "--svg " + dir + quick_flags(chapter) +
                         (quick_flags(chapter).empty() ? "" : " --save " + dir + "/../m.json"));
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("wrote " + dir + "/" + std::string(chapter).substr(0, 4)) !=
              std::string::npos);
    }
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(e.path());
        std::stringstream s;
        s << in.rdbuf();
        CHECK_MESSAGE(xml_problem(s.str()) == "", e.path().string());
        const bool heatmap = s.str().find("class=\"cell\"") != std::string::npos;
        const bool chart = s.str().find("class=\"series\"") != std::string::npos;
        CHECK_MESSAGE((heatmap || chart), e.path().string());
        ++files;
    }
    CHECK(files >= 20);
    for (const char* figure : {"ch03_weights_causal.svg", "ch05_pe.svg"})  // `make figures`
        CHECK_MESSAGE(
            read_file(dir + "/" + figure) == read_file(std::string("data/figures/") + figure),
            "the README shows an old data/figures/" << figure << ": run make figures");
    check_one_error_line(run_program("ch05_positional_encoding", "--svg /etc/passwd/x"),
                         "/etc/passwd/x: cannot create the directory");
}

TEST_CASE("ch05: a token id outside the vocabulary and a broken permutation are named") {
    check_bad_data(
        "ch05_positional_encoding", [](Json& doc) { doc["inputs"]["token_ids"][0] = 99; },
        "inputs.token_ids[0]: expected a whole number from 0 to 5");
    check_bad_data(
        "ch05_positional_encoding",
        [](Json& doc) {
            doc["inputs"]["permutation"] = Json::array({0, 0, 1, 2});
        },
        "inputs.permutation: expected each position once");
    check_bad_data(
        "ch05_positional_encoding", [](Json& doc) { doc["inputs"]["offsets"] = Json::array({15}); },
        "inputs.offsets: position + offset must stay below");
}

TEST_CASE("ch06: bad models, token ids, empty sequences and lengths are named") {
    check_bad_data(
        "ch06_encoder_decoder",
        [](Json& doc) {
            doc["inputs"]["weights"]["transformer.encoder.layers.1.linear1.weight"] =
                Json::array({Json::array({1, 2})});
        },
        "inputs.weights.transformer.encoder.layers.1.linear1.weight: the config claims (16x8), "
        "the weights hold (1x2)");
    check_bad_data(  // a tensor the claims do not look at: the loader's own check
        "ch06_encoder_decoder",
        [](Json& doc) {
            doc["inputs"]["weights"]["transformer.encoder.layers.0.linear2.weight"] =
                Json::array({Json::array({1, 2})});
        },
        "inputs.weights.transformer.encoder.layers.0.linear2.weight: expected (8x16) (PyTorch's "
        "layout), got (1x2)");
    check_bad_data(
        "ch06_encoder_decoder", [](Json& doc) { doc["inputs"]["source"][1][0] = 10; },
        "inputs.source[1][0]: expected a whole number from 0 to 9");
    check_bad_data(
        "ch06_encoder_decoder", [](Json& doc) { doc["inputs"]["target"][0] = Json::array(); },
        "inputs.target[0]: expected a non-empty array");
    check_bad_data(
        "ch06_encoder_decoder", [](Json& doc) { doc["inputs"]["max_length"] = 0; },
        "inputs.max_length: expected a whole number from 1");
    check_bad_data(
        "ch06_encoder_decoder", [](Json& doc) { doc["inputs"]["config"]["n_heads"] = 3; },
        "inputs.config.n_heads: expected a divisor of d_model = 8");
    check_one_error_line(run_program("ch06_encoder_decoder", "--config huge"),
                         "--config: expected \"base\"");
    check_one_error_line(
        run_program("ch06_encoder_decoder", "--weights /nonexistent.json --source \"1 2\""),
        "/nonexistent.json: cannot open");
}

TEST_CASE("ch06 --weights decodes sequences given on the command line") {
    const Json doc = data_of("ch06_encoder_decoder");
    Json file = {{"config", doc["inputs"]["config"]}, {"weights", doc["inputs"]["weights"]}};
    const std::string path = temp_file("weights.json", file.dump());
    const Run r = run_program("ch06_encoder_decoder",
                              "--weights " + path + " --source \"3 4 5, 8 9\" --json");
    CHECK(r.exit_code == 0);
    const Json j = Json::parse(r.out);
    CHECK(j["decoded_0"].size() >= 2);
    CHECK(j["decoded_0"][0] == 1);
    check_one_error_line(
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"3 x\""),
        "\"x\" is no word of the model's source vocabulary");
}

TEST_CASE("ch07: a trained model is saved whole and decodes in ch06; bad flags are named") {
    const std::string path =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/trained.json";
    const Run train = run_program("ch07_training", "--steps 5 --save " + path);
    CHECK(train.exit_code == 0);
    CHECK(train.out.find("saved the trained model to " + path) != std::string::npos);
    const Run decode =
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"3 1 4\"");
    CHECK(decode.exit_code == 0);
    CHECK(decode.out.find("source: 3 1 4 <eos>") != std::string::npos);
    const Run json = run_program("ch07_training", "--steps 2 --json --save " + path);
    const Json j = Json::parse(json.out);
    for (const char* key : {"heldout_exact_match", "train_seconds", "steps", "final_loss"})
        CHECK(j.contains(key));
    CHECK(j["steps"] == 2);
    check_one_error_line(run_program("ch07_training", "--steps many"),
                         "--steps: expected a whole number");
    check_one_error_line(run_program("ch07_training", "--steps 2 --save /etc/passwd/x.json"),
                         "/etc/passwd/x.json: /etc/passwd is a file, not a directory");
}

TEST_CASE("ch07 --task numerals: the readings checked, a model saved, read back in Chinese") {
    const Run check = run_program("ch07_training", "--task numerals --check");
    CHECK(check.exit_code == 0);
    CHECK(check.out.find(" 0 failed") != std::string::npos);
    const std::string path =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/numerals.json";
    const Run train = run_program("ch07_training", "--task numerals --steps 30 --save " + path);
    CHECK(train.exit_code == 0);
    CHECK(train.out.find("2026 → 两千零二十六") != std::string::npos);
    const Run json =
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"2 0 2 6\" --json");
    REQUIRE(json.exit_code == 0);
    const Json decoded = Json::parse(json.out)["decoded"];
    REQUIRE(decoded.is_array());  // a barely trained model: its words, not yet the right ones
    for (const Json& word : decoded) {
        CHECK(word.is_string());
        CHECK(word != "<bos>");
        CHECK(word != "<eos>");
    }
    const Run text = run_program("ch06_encoder_decoder", "--weights " + path + " --source \"2 0\"");
    CHECK(text.out.find("task \"numerals\"") != std::string::npos);
    check_one_error_line(run_program("ch07_training", "--task poetry --steps 1"),
                         "--task: expected reverse or numerals");
    check_one_error_line(
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"二 千\""),
        "\"二\" is no word of the model's source vocabulary");
}

TEST_CASE("ch08 --json reports the fitted exponents beside the counts") {
    const Json j = Json::parse(run_program("ch08_cost", "--json").out);
    for (const char* key : {"attention_exponent_n", "attention_exponent_d", "recurrent_exponent_n",
                            "recurrent_exponent_d", "convolution_exponent_n",
                            "convolution_exponent_d", "attention_multiply_adds"})
        CHECK_MESSAGE(j.contains(key), key);
    CHECK(j["attention_exponent_n"].get<double>() >
          1.0);  // a measurement: only its sign of growth is tested
}

TEST_CASE("the layering check names an include that crosses a layer") {
    const std::string root =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/layers";
    for (const char* dir :
         {"/src/model/attention", "/src/model/transformer", "/src/model/misc", "/src/report",
          "/chapters"})
        std::filesystem::create_directories(root + dir);
    std::ofstream(root + "/src/model/attention/bad.h")
        << "#include \"core/matrix.h\"\n#include \"report/terminal.h\"\n"
        << "#include \"model/transformer/tokens.h\"\n#include \"text/translate.h\"\n";
    std::ofstream(root + "/src/model/transformer/fine.h")
        << "#include \"model/attention/bad.h\"\n";
    std::ofstream(root + "/src/report/json.cpp") << "#include <nlohmann/json.hpp>\n";
    std::ofstream(root + "/src/model/misc/stray.h") << "#include \"core/matrix.h\"\n";
    std::ofstream(root + "/chapters/ch99.cpp") << "#include \"report/chapter.h\"\n";
    const std::string out = root + "/out.txt";
    const int status = std::system(
        ("bash tests/check_layers.sh " + root + "/src " + root + "/chapters > " + out).c_str());
    const std::string text = read_file(out);
    CHECK(status != 0);
    CHECK(
        text.find("attention/bad.h:2: #include \"report/terminal.h\" — model may include only") !=
        std::string::npos);
    CHECK(text.find("bad.h:3: #include \"model/transformer/tokens.h\" — model/attention comes "
                    "before model/transformer in reading order") != std::string::npos);
    CHECK(text.find("bad.h:4: #include \"text/translate.h\" — model may include only") !=
          std::string::npos);
    CHECK(text.find("report/json.cpp:1: #include <nlohmann/json.hpp> — only io includes JSON") !=
          std::string::npos);
    CHECK(text.find("misc/stray.h: model/ files sit in a folder of MODEL_ORDER") !=
          std::string::npos);
    CHECK(text.find("layering: 5 files, 5 offending includes") != std::string::npos);
    CHECK(std::system("bash tests/check_layers.sh src > /dev/null") == 0);  // and ours keeps to it
}

TEST_CASE("the figures check names a comment that quotes a timing, a rate or a speed-up") {
    const std::string root =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/figures/src/core";
    std::filesystem::create_directories(root);
    std::ofstream(root + "/timed.cpp")
        << "// took 0.28 s on 2 threads\n"                       // a timing
        << "int x = 1;  // 4.6–5.5 ms with 8 chains\n"           // a range, after code
        << "// 84 GFLOP/s with fma, 2.8 G multiply-adds/s\n"     // rates
        << "// 1.23 times slower, 12% faster\n"                  // speed-ups
        << "// ln m = 2s + 2s³/3, on 2 threads, 32s … 32s+31\n"  // not measurements
        << "double s = 3.5;  // a value\n";
    std::ofstream(root + "/plain.h") << "// 16 chains side by side, in 512 rows\n";
    const std::string out = root + "/../../out.txt";
    const int status = std::system(
        ("bash tests/check_figures.sh " + root + "/.. > " + out).c_str());
    const std::string text = read_file(out);
    CHECK(status != 0);
    for (const char* line : {"timed.cpp:1:", "timed.cpp:2:", "timed.cpp:3:", "timed.cpp:4:"})
        CHECK_MESSAGE(text.find(line) != std::string::npos, line);
    CHECK(text.find("timed.cpp:5:") == std::string::npos);
    CHECK(text.find("timed.cpp:6:") == std::string::npos);
    CHECK(text.find("figures: 2 files, 4 comments quoting measurements") != std::string::npos);
    CHECK(std::system("bash tests/check_figures.sh src > /dev/null") == 0);  // and ours quote none
}

TEST_CASE("the chapter-size check names a file over 600 lines and a function over 60") {
    const std::string root =
        std::filesystem::path(temp_file("m", "")).parent_path().string() + "/sizes/chapters";
    std::filesystem::create_directories(root + "/ch99_long");
    std::ofstream file(root + "/ch99_long.cpp");
    file << "// a chapter\nnamespace {\n\nstruct Kept {\n    int a;\n};\n\n"  // lines 1-7
         << "int declared(int x);\n\n"                                       // 8-9: no body
         << "int short_one(int x) {\n    return x;\n}\n\n"                    // 10-13: 4 lines
         << "void long_one(int x,\n              int y) {\n";                 // 14-15
    for (int i = 0; i < 58; ++i) file << "    x += y;\n";                     // 16-73
    file << "}\n\n";                                                          // 74: 61 lines
    file << "int sixty() {\n";                                                // 76
    for (int i = 0; i < 58; ++i) file << "    int a = 0;\n";
    file << "}\n";                                                            // 135: 60 lines
    file.close();
    std::ofstream part(root + "/ch99_long/part.cpp");
    for (int i = 0; i < 601; ++i) part << "// a line\n";
    part.close();
    const std::string out = root + "/../out.txt";
    const int status =
        std::system(("bash tests/check_sizes.sh " + root + " > " + out).c_str());
    const std::string text = read_file(out);
    CHECK(status != 0);
    CHECK(text.find("ch99_long.cpp:14: long_one is 61 lines (at most 60)") != std::string::npos);
    CHECK(text.find("part.cpp: 601 lines (at most 600") != std::string::npos);
    CHECK(text.find("sixty") == std::string::npos);
    CHECK(text.find("short_one") == std::string::npos);
    CHECK(text.find("sizes: 2 files, 3 functions, 2 too long") != std::string::npos);
    CHECK(std::system("bash tests/check_sizes.sh chapters src > /dev/null") == 0);  // ours
}

TEST_CASE("the reach check names a header past its ceiling, and the objects that reach it unused") {
    const std::string root = temp_directory("reach");
    for (const char* dir : {"/src/model/x", "/src/other", "/src/text", "/chapters", "/build/obj"})
        std::filesystem::create_directories(root + dir);
    const std::string repo = std::filesystem::current_path().string();
    // hub.h includes wide.h for its own use and exports types.h (a type its callers hold)
    std::ofstream(root + "/src/other/hub.h")
        << "#include \"model/x/wide.h\"\n#include \"model/x/types.h\"  // exports: a member\n";
    std::ofstream(root + "/src/model/x/wide.h") << "// a header\n";
    std::ofstream(root + "/src/model/x/types.h") << "// a header\n";
    std::ofstream(root + "/src/text/translate.h") << "// tr()\n";
    std::ofstream d(root + "/build/obj/all.d");
    for (int i = 0; i < 30; ++i) {  // 30 objects reach wide.h and types.h through hub.h
        const std::string a = "src/other/a" + std::to_string(i);
        std::ofstream(root + "/" + a + ".cpp") << "#include \"other/hub.h\"\n";
        d << "build/obj/" << a << ".o: " << a << ".cpp src/other/hub.h \\\n src/model/x/wide.h "
          << "src/model/x/types.h\n";
    }
    // one object reaches translate.h through a header without calling tr()
    std::ofstream(root + "/src/other/quiet.cpp") << "#include \"other/hub.h\"\n";
    d << "build/obj/src/other/quiet.o: src/other/quiet.cpp src/other/hub.h src/text/translate.h\n";
    d.close();
    const std::string out = root + "/out.txt";
    const int status = std::system(("cd " + root + " && bash " + repo +
                                    "/tests/check_reach.sh build > out.txt").c_str());
    const std::string text = read_file(out);
    CHECK(status != 0);
    CHECK(text.find("src/model/x/wide.h reaches 30 objects (its ceiling 25: 0 use it directly)") !=
          std::string::npos);
    CHECK(text.find("    src/other/a7.cpp") != std::string::npos);
    CHECK(text.find("src/model/x/types.h reaches") == std::string::npos);  // exported: 30 users
    CHECK(text.find("src/text/translate.h reaches 1 objects (its ceiling 0: 0 use it directly)") !=
          std::string::npos);
    CHECK(text.find("reach: 3 headers, 2 past their ceiling") != std::string::npos);
}

TEST_CASE("the calls check names two files of src/ that call each other" * doctest::test_suite("native")) {
    const std::string root = temp_directory("calls");
    std::filesystem::create_directories(root + "/build/obj/src/a");
    std::ofstream(root + "/one.cpp") << "int two(int);\nint one(int x) { return x ? two(x - 1) : 0; }\n";
    std::ofstream(root + "/two.cpp") << "int one(int);\nint two(int x) { return x ? one(x - 1) : 1; }\n";
    std::ofstream(root + "/three.cpp") << "int one(int);\nint three() { return one(3); }\n";
    for (const char* f : {"one", "two", "three"})
        REQUIRE(std::system(("g++ -c " + root + "/" + f + ".cpp -o " + root + "/build/obj/src/a/" +
                             f + ".o").c_str()) == 0);
    const std::string out = root + "/out.txt";
    const int status = std::system(("bash tests/check_calls.sh " + root + "/build > " + out).c_str());
    const std::string text = read_file(out);
    CHECK(status != 0);
    CHECK(text.find("src/a/one.cpp <-> src/a/two.cpp: two(int) / one(int)") != std::string::npos);
    CHECK(text.find("three") == std::string::npos);  // it calls one, which never calls it
    CHECK(text.find("calls: 3 files, 1 pairs that call each other") != std::string::npos);
}

TEST_CASE("make run's table: every program's wall time, and the table so far when one fails" *
          doctest::test_suite("native")) {
    const std::string root = temp_directory("run_table");
    const std::string ok = temp_file("run_table/ch01_fine", "#!/bin/sh\necho walked through\n");
    const std::string bad = temp_file("run_table/ch02_broken", "#!/bin/sh\necho halfway\nexit 3\n");
    const std::string never = temp_file("run_table/ch03_never", "#!/bin/sh\necho never\n");
    REQUIRE(std::system(("chmod +x " + ok + " " + bad + " " + never).c_str()) == 0);
    const std::string out = root + "/out.txt";
    const std::string run =
        "LC_ALL=C LANG=C bash tests/tools/run_chapters.sh " + program_path("say") + " ";
    CHECK(std::system((run + ok + " > " + out).c_str()) == 0);
    std::string text = read_file(out);
    CHECK(text.find("######## ch01_fine ########\nwalked through") != std::string::npos);
    CHECK(text.find("make run: each chapter's wall time") != std::string::npos);
    CHECK(text.find("  ch01_fine ") != std::string::npos);
    CHECK(text.find("  in all ") != std::string::npos);
    const int status = std::system((run + ok + " " + bad + " " + never + " > " + out).c_str());
    text = read_file(out);
    CHECK(status != 0);
    CHECK(text.find("  ch02_broken ") != std::string::npos);  // the table so far, the failure in it
    CHECK(text.find("never") == std::string::npos);          // nothing after the failure runs
}
