// test_fuzz.cpp — data files and model files mutated at random, as a curious reader edits them,
// run through every chapter: whatever the file says, a program ends with exit code 0, 1 or 2;
// on 2 it prints one error line and nothing else; its --json holds no NaN; and it changes no
// file outside the test's temporary directory. The seed is fixed, so a failure is reproduced by
// running the suite again; the mutated file is kept in the message.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/random.h"
#include "helpers.h"
#include "json.h"

namespace fs = std::filesystem;

namespace {

std::size_t below(Random& rng, std::size_t n) { return static_cast<std::size_t>(rng.next() % n); }

// A node of doc chosen by walking down from `start`: at every level stop here with probability
// 1/3 (or when there is nothing below), else go on into a random child. Structure is hit as
// often as the numbers inside it.
Json::json_pointer random_node(Random& rng, const Json& doc, Json::json_pointer at) {
    for (;;) {
        const Json& node = doc[at];
        const bool inside = (node.is_object() || node.is_array()) && !node.empty();
        if (!inside || (below(rng, 3) == 0 && at != Json::json_pointer())) return at;
        const std::size_t k = below(rng, node.size());
        if (node.is_array()) {
            at /= k;
        } else {
            auto it = node.begin();
            std::advance(it, static_cast<long>(k));
            at /= it.key();
        }
    }
}

// A mild edit, as a reader trying things makes: a number scaled, negated, rounded or nudged; a
// list one shorter or one longer; a name changed. Most such files are still legal.
std::string mild(Random& rng, Json& node) {
    if (node.is_number()) {
        static const double factors[] = {0.0, -1.0, 2.0, 0.5, 10.0, 1.0 + 1e-9};
        const double x = node.get<double>(), f = factors[below(rng, 6)];
        const bool whole = node.is_number_integer();
        if (whole && below(rng, 2) == 0) {
            node = node.get<long long>() + (below(rng, 2) ? 1 : -1);
            return "nudged by one";
        }
        node = whole && f == std::floor(f) ? Json(static_cast<long long>(x * f)) : Json(x * f);
        return "scaled by " + std::to_string(f);
    }
    if (node.is_array() && !node.empty()) {
        if (below(rng, 2)) {
            node.erase(node.size() - 1);
            return "last element dropped";
        }
        node.push_back(node[node.size() - 1]);
        return "last element repeated";
    }
    if (node.is_string()) {
        node = node.get<std::string>() + (below(rng, 2) ? "x" : "");
        return "renamed";
    }
    return "left as it was";
}

// A wild edit: a value replaced by one of another kind or size, a key deleted, a value wrapped
// in a list.
std::string wild(Random& rng, Json& doc, const Json::json_pointer& at, bool removable) {
    static const std::vector<Json> values = {
        0,   -1,      0.5,  1e308,         -1e308,        1e-320, 3, 4294967299.0,
        "x", nullptr, true, Json::array(), Json::object()};
    const std::size_t op = below(rng, values.size() + 2);
    if (op < values.size()) {
        doc[at] = values[op];
        return "set to " + values[op].dump();
    }
    if (op == values.size() && removable) {
        Json& parent = doc[at.parent_pointer()];
        if (parent.is_object())
            parent.erase(at.back());
        else
            parent.erase(std::stoul(at.back()));
        return "deleted";
    }
    doc[at] = Json::array({doc[at]});
    return "wrapped in a list";
}

// One edit at a random node under `under`, mild or wild (even odds). Returns what it did.
std::string mutate(Random& rng, Json& doc, const Json::json_pointer& under) {
    const Json::json_pointer at = random_node(rng, doc, under);
    return at.to_string() + ": " +
           (below(rng, 2) ? mild(rng, doc[at]) : wild(rng, doc, at, at != under));
}

// Size and modification time of every file under the given folders: what a program might
// have touched by mistake.
std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> snapshot(
    const std::vector<std::string>& folders) {
    std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> files;
    for (const std::string& f : folders)
        for (const auto& e : fs::recursive_directory_iterator(f))
            if (e.is_regular_file() && e.path().string().find("/obj/") == std::string::npos)
                files[e.path().string()] = {e.file_size(), e.last_write_time()};
    return files;
}

int lines_of(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

// The contract, for one run on one mutated file.
void check_contract(const Run& r, bool json_output, const std::string& description) {
    INFO(description);
    CHECK_MESSAGE((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2),
                  "exit " << r.exit_code << "\n"
                          << r.err.substr(0, 2000));
    if (r.exit_code == 2) {
        CHECK(r.out.empty());
        CHECK_MESSAGE(lines_of(r.err) == 1, r.err.substr(0, 2000));
        CHECK(r.err.rfind("error: ", 0) == 0);
        CHECK(r.err.find("json.exception") == std::string::npos);
        return;
    }
    std::istringstream err(r.err);
    for (std::string line; std::getline(err, line);)
        CHECK_MESSAGE(line.rfind("warning: ", 0) == 0, line);
    if (json_output && r.exit_code == 0) {
        const Json j = Json::parse(r.out, nullptr, false);
        CHECK_FALSE(j.is_discarded());
        if (!j.is_discarded()) CHECK(all_numbers_finite(j));
    }
    CHECK(r.out.find("nan") == std::string::npos);
}

struct Target {
    std::string chapter, base, flags;
    bool json_output;
};

}  // namespace

TEST_CASE("fuzz: mutated data files and model files, every chapter, the contract holds") {
    const std::vector<std::string> watched = {"data", "tests/data", program_dir};
    const auto before = snapshot(watched);
    const auto smallest = [](const std::string& c) { return "tests/data/" + c + ".smallest.json"; };
    const auto shipped = [](const std::string& c) { return "data/" + c + ".json"; };
    std::vector<Target> targets;
    for (const char* c :
         {"ch01_dictionary_lookup", "ch02_self_attention", "ch03_masked_attention",
          "ch04_multi_head_attention", "ch05_positional_encoding", "ch06_encoder_decoder"}) {
        targets.push_back({c, shipped(c), " --json", true});
        targets.push_back({c, smallest(c), " --json", true});
    }
    // the slow ones on their smallest files, chapter 9 with --check (its --json trains a model)
    targets.push_back({"ch07_training", smallest("ch07_training"), " --steps 2 --json", true});
    targets.push_back(
        {"ch07_training", smallest("ch07_training"), " --task numerals --steps 2 --json", true});
    targets.push_back({"ch08_cost", smallest("ch08_cost"), " --json", true});
    targets.push_back({"ch09_decoding", shipped("ch09_decoding"), " --check", false});
    targets.push_back({"ch09_decoding", smallest("ch09_decoding"), " --check", false});
    targets.push_back(
        {"ch10_modern_attention", smallest("ch10_modern_attention"), " --json", true});
    targets.push_back(
        {"ch10_modern_attention", shipped("ch10_modern_attention"), " --check", false});
    targets.push_back({"ch11_long_sequences", smallest("ch11_long_sequences"), " --json", true});
    targets.push_back({"ch11_long_sequences", shipped("ch11_long_sequences"), " --check", false});
    targets.push_back({"ch12_gpt", smallest("ch12_gpt"), " --json", true});
    targets.push_back({"ch12_gpt", shipped("ch12_gpt"), " --check", false});
    targets.push_back({"ch14_inside_the_poet", smallest("ch14_inside_the_poet"),
                       " --corpus tests/data/tang_sample.txt --steps 2 --json", true});

    // TBH_FUZZ_SEED=N build/tests -tc="fuzz*" explores other files; the suite runs this one
    const char* seed = std::getenv("TBH_FUZZ_SEED");
    Random rng(seed ? std::stoull(seed) : 20261123);
    const std::string dir = temp_directory("fuzz");
    std::size_t runs = 0;
    std::map<int, std::size_t>
        exits;  // how the runs ended: a fuzz that only hits errors tests little
    for (const Target& t : targets) {
        const Json base = Json::parse(read_file(t.base));
        for (int i = 0; i < 16; ++i) {
            Json doc = base;
            std::string edits;
            for (std::size_t e = 0, n = 1 + below(rng, 2); e < n; ++e)
                edits += mutate(rng, doc, Json::json_pointer("/inputs")) + "; ";
            const std::string path = dir + "/" + t.chapter + ".json";
            std::ofstream(path) << doc.dump();
            const Run r = run_program(t.chapter, "--data " + path + t.flags);
            check_contract(r, t.json_output, t.chapter + t.flags + " on " + t.base + ": " + edits);
            ++runs, ++exits[r.exit_code];
        }
    }
    // a trained model's file, edited, decoded by chapter 6
    const std::string model = dir + "/model.json";
    REQUIRE(run_program("ch07_training",
                        "--data " + smallest("ch07_training") + " --steps 1 --save " + model)
                .exit_code == 0);
    const Json trained = Json::parse(read_file(model));
    for (int i = 0; i < 32; ++i) {
        Json doc = trained;
        const std::string edits = mutate(rng, doc, Json::json_pointer());
        const std::string path = dir + "/edited_model.json";
        std::ofstream(path) << doc.dump();
        const Run r = run_program("ch06_encoder_decoder",
                                  "--weights " + path + " --source \"3 1, 4\" --json");
        check_contract(r, true, "ch06 --weights, model edited: " + edits);
        ++runs, ++exits[r.exit_code];
    }
    CHECK(runs >= 200);
    CHECK(exits[0] + exits[1] >= runs / 5);  // a good share of the edits still run through
    CHECK(exits[2] >= runs / 5);
    MESSAGE("exit 0: " << exits[0] << ", 1: " << exits[1] << ", 2: " << exits[2]);
    CHECK_MESSAGE(snapshot(watched) == before, "a file outside the test's directory changed");
}
