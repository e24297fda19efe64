// test_reader_trips.cpp — what a reader tripped over (issue 11), each one reproduced as it was
// reported: a short training run that replaced the trained model, token ids read as raw
// numbers, the tutorial blamed for a reader's own inputs, and unknown weights loaded silently
// (a model that insists on <pad> is in test_decoding.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.h"
#include "json.h"

namespace fs = std::filesystem;

static int lines_of(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

static Json data_file(const std::string& chapter) {
    std::ifstream in("data/" + chapter + ".json");
    return Json::parse(in);
}

// A copy of build/ch07_training in a directory of its own, run from there: whatever it writes
// by default lands in that directory, never in the reader's build/.
static std::string isolated_ch07(const std::string& name) {
    const std::string dir = temp_directory(name);
    fs::create_directories(dir + "/bin");
    fs::copy_file(program_path("ch07_training"), dir + "/bin/ch07_training",
                  fs::copy_options::overwrite_existing);
    return dir;
}

static bool has_model_file(const std::string& dir) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename().string().find("model") != std::string::npos &&
            e.path().extension() == ".json")
            return true;
    return false;
}

TEST_CASE(
    "a short run of ch07 (--steps, --check, --json) never writes a model unless --save says so") {
    const std::string dir = isolated_ch07("short_runs");
    const std::string program = "cd " + dir + " && bin/ch07_training --data " +
                                fs::absolute("data/ch07_training.json").string();
    for (const char* flags : {" --steps 2 --json", " --steps 2", " --check"}) {
        CAPTURE(flags);
        const Run r = run_command(program + flags);
        CHECK(r.exit_code == 0);
        CHECK_MESSAGE(!has_model_file(dir), "a model file appeared in " << dir);
    }
}

TEST_CASE(
    "a saved model records how it was trained, and ch06 says so; longer sources are warned about") {
    const std::string path = temp_directory("records") + "/model.json";
    const Run train = run_program("ch07_training", "--steps 3 --save " + path);
    REQUIRE(train.exit_code == 0);
    const Json saved = Json::parse(read_file(path));
    REQUIRE(saved.contains("training"));
    CHECK(saved["training"]["steps"] == 3);
    CHECK(saved["training"]["final_loss"].is_number());
    CHECK(saved["training"]["heldout_exact_match"].is_number());
    CHECK(saved["training"]["max_source_length"] == 10);
    const Run decode =
        run_program("ch06_encoder_decoder", "--weights " + path + " --source \"3 1 4\"");
    CHECK(decode.exit_code == 0);
    CHECK(decode.out.find("trained for 3 steps") != std::string::npos);
    CHECK(decode.out.find("warning") == std::string::npos);
    const Run long_one =
        run_program("ch06_encoder_decoder",
                    "--weights " + path + " --source \"1 2 3 4 5 6 7 8 9 0 1 2 3 4 5\"");
    CHECK(long_one.exit_code == 0);
    CHECK(long_one.out.find("warning: the source has 15 tokens") != std::string::npos);
}

TEST_CASE(
    "--source takes vocabulary words only: \"11\" is not a digit, an empty source is an error") {
    const std::string path = temp_directory("words") + "/model.json";
    REQUIRE(run_program("ch07_training", "--steps 2 --save " + path).exit_code == 0);
    for (const char* bad : {"\"3 11 4\"", "''", "\" , \""}) {
        CAPTURE(bad);
        const Run r = run_program("ch06_encoder_decoder",
                                  std::string("--weights ") + path + " --source " + bad);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(lines_of(r.err) == 1);
        CHECK(r.err.rfind("error: ", 0) == 0);
    }
    CHECK(run_program("ch06_encoder_decoder", "--weights " + path + " --source \"3 11 4\"")
              .err.find("\"11\"") != std::string::npos);
}

TEST_CASE(
    "a reader's own inputs are not judged against the numbers the tutorial printed for its own") {
    Json doc = data_file("ch02_self_attention");
    doc["inputs"]["tokens"] = Json::array({"我", "爱", "吃"});
    doc["inputs"]["X"][0][0] = 2;  // a changed X, expected values not recomputed
    const std::string path = temp_file("my_ch02.json", doc.dump());
    const Run r = run_program("ch02_self_attention", "--data " + path);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("erratum") == std::string::npos);
    CHECK(r.out.find("笔记本") == std::string::npos);  // the headings show the file's tokens …
    CHECK(r.out.find("我") != std::string::npos);
    // … and the tutorial's own inputs are still judged: three errata
    const Run own = run_program("ch02_self_attention", "");
    CHECK(own.out.find("erratum: softmax(XXᵀ)[0,1]") != std::string::npos);
}

TEST_CASE("a weights file with a tensor the model does not have is rejected, naming it") {
    const Json doc = data_file("ch06_encoder_decoder");
    Json file = {{"config", doc["inputs"]["config"]}, {"weights", doc["inputs"]["weights"]}};
    file["weights"]["transformer.encoder.layers.7.norm1.weight"] = Json::array({1, 2});
    const std::string path = temp_file("extra.json", file.dump());
    const Run r = run_program("ch06_encoder_decoder", "--weights " + path + " --source \"3 1 4\"");
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + path +
                       ", weights.transformer.encoder.layers.7.norm1.weight: not a weight of this "
                       "model (unexpected, as PyTorch's load_state_dict says)\n");
}

TEST_CASE("ch12: a prompt longer than the model's window is said, headed by its start; the heads "
          "are chapter 14's" * doctest::test_suite("native")) {
    std::string prompt = "《";
    for (int i = 0; i < 150; ++i) prompt += "春风";
    prompt += "》";
    const Run r = run_program("ch12_gpt", quick_flags("ch12_gpt") + " --prompt '" + prompt + "'");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("the prompt is 303 tokens with <bos>; the model reads only its last") !=
          std::string::npos);
    CHECK(r.out.find("from \"《春风春风春风春风春风春风春风春风春风春…\" (302 characters):") !=
          std::string::npos);  // its first 20 characters, not the whole prompt
    // the heads are no longer drawn here, on any text: chapter 14 measures them
    CHECK(r.out.find("is chapter 14's subject") != std::string::npos);
}

TEST_CASE("ch11's --help points to where its tiled attention trains in a whole model: ch07") {
    const Run r = run_program("ch11_long_sequences", "--help");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("build/ch07_training --attention tiled --tile N") != std::string::npos);
}
