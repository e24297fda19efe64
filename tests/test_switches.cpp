// test_switches.cpp — chapter 10's switches end to end: ch07 trains a model under every
// combination of --norm, --position, --kv-heads and --window, saves it, and the saved model
// says its switches, decodes through ch06 --weights, and through chapter 9's KV cache (bit for
// bit equal to recomputing) and beam search. The models are small and train two steps: this
// checks the plumbing, not the learning (chapter 10 measures that).
#include <doctest/doctest.h>

#include <string>

#include "helpers.h"
#include "io/model_file.h"
#include "json.h"
#include "model/decoding/beam_search.h"
#include "model/decoding/kv_cache.h"
#include "model/transformer/transformer.h"

namespace {

// Chapter 7's smallest data file with a model wide enough for two heads of d_k = 2 (RoPE rotates
// pairs), trained for two steps.
std::string small_plan() {
    Json doc = Json::parse(read_file("tests/data/ch07_training.smallest.json"));
    Json& t = doc["inputs"]["training"];
    t["d_model"] = 4, t["n_heads"] = 2, t["d_ff"] = 4, t["max_length"] = 3, t["heldout"] = 4;
    return temp_file("switches_plan.json", doc.dump());
}

}  // namespace

TEST_CASE("every combination of ch07's switches trains, saves, and decodes in ch06 and ch09") {
    const std::string plan = small_plan(), dir = temp_directory("switches");
    std::size_t combinations = 0;
    for (const char* norm : {"layer", "rms"})
        for (const char* position : {"sinusoidal", "learned", "rope", "alibi", "none"})
            for (const char* kv : {"2", "1"})
                for (const char* window : {"0", "2"}) {
                    const std::string flags = std::string(" --norm ") + norm + " --position " +
                                              position + " --kv-heads " + kv + " --window " +
                                              window;
                    CAPTURE(flags);
                    const std::string model = dir + "/model.json";
                    const Run train = run_program(
                        "ch07_training", "--data " + plan + " --steps 2 --save " + model + flags);
                    REQUIRE_MESSAGE(train.exit_code == 0, train.err);
                    // the file names its switches, and loads as the model that was trained
                    const Json saved = Json::parse(read_file(model));
                    CHECK(saved["config"]["norm"] == norm);
                    CHECK(saved["config"]["positions"] == position);
                    CHECK(saved["config"]["n_kv_heads"] == std::stoi(kv));
                    CHECK(saved["config"]["window"] == std::stoi(window));
                    const Run decode = run_program("ch06_encoder_decoder",
                                                   "--weights " + model + " --source \"3 4, 5\"");
                    CHECK_MESSAGE(decode.exit_code == 0, decode.err);
                    const bool paper = std::string(norm) == "layer" &&
                                       std::string(position) == "sinusoidal" &&
                                       std::string(kv) == "2" && std::string(window) == "0";
                    CHECK((decode.out.find("variant:") != std::string::npos) == !paper);
                    const Transformer m = load_transformer(DataFile::load(model), "");
                    CHECK(cache_against_recomputation(m, {5, 6, 2}, {1, 4, 7, 3}).worst() == 0.0);
                    BeamSettings beam;
                    beam.max_length = 4;
                    const std::vector<Hypothesis> found = beam_search(m, {5, 6, 2}, beam);
                    CHECK(found.size() == beam.beam);
                    ++combinations;
                }
    CHECK(combinations == 40);
}

TEST_CASE("ch07 refuses switches that cannot be: a name it does not know, RoPE on an odd d_k") {
    const std::string plan = small_plan();
    for (const char* bad : {" --norm batch", " --position absolute", " --kv-heads 3",
                            " --kv-heads 0", " --window -1"}) {
        CAPTURE(bad);
        const Run r = run_program("ch07_training", "--data " + plan + " --steps 2" + bad);
        CHECK(r.exit_code == 2);
        CHECK(r.err.rfind("error: ch07_training: --", 0) == 0);
    }
    // the shipped smallest plan: one head of d_model 1, so d_k = 1
    const Run odd = run_program("ch07_training",
                                "--data tests/data/ch07_training.smallest.json --steps 2 "
                                "--position rope");
    CHECK(odd.exit_code == 2);
    CHECK(odd.err.find("--position: rope rotates pairs of columns: expected an even d_k") !=
          std::string::npos);
}
