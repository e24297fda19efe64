// test_same_numbers.cpp — a chapter's experiment is defined by its steps and seeds, never by the
// clock: the same --json, timings aside (keys with "second" in their name), on an idle machine
// and on one whose every core is busy with another process — and no collapse there, judged by
// the CPU time the run spent (which another process's load does not change), never by the wall
// clock (which it does).
#include <doctest/doctest.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>
#include <vector>

#ifndef _WIN32
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "helpers.h"
#include "json.h"

namespace {

#ifdef _WIN32
// One thread per core spinning for as long as this object lives (Windows has no fork; a
// spinning thread of this process loads a core as a process would).
class BusyMachine {
public:
    BusyMachine() {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        for (unsigned i = 0; i < cores; ++i)
            spinners_.emplace_back([this] {
                volatile unsigned long spin = 0;
                while (!stop_.load(std::memory_order_relaxed)) spin = spin + 1;
            });
    }
    ~BusyMachine() {
        stop_ = true;
        for (std::thread& t : spinners_) t.join();
    }
    std::size_t processes() const { return spinners_.size(); }

private:
    std::atomic<bool> stop_{false};
    std::vector<std::thread> spinners_;
};
#else
// One process per core spinning for as long as this object lives.
class BusyMachine {
public:
    BusyMachine() {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        for (unsigned i = 0; i < cores; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
                volatile unsigned long spin = 0;
                for (;;) spin = spin + 1;
            }
            if (pid > 0) children_.push_back(pid);
        }
    }
    ~BusyMachine() {
        for (const pid_t pid : children_) kill(pid, SIGKILL);
        for (const pid_t pid : children_) waitpid(pid, nullptr, 0);
    }
    std::size_t processes() const { return children_.size(); }

private:
    std::vector<pid_t> children_;
};
#endif

// The --json output without its timings (seconds, tokens per second).
std::string without_timings(const std::string& json_text) {
    Json j = Json::parse(json_text);
    for (auto it = j.begin(); it != j.end();)
        it = it.key().find("second") != std::string::npos ? j.erase(it) : std::next(it);
    return j.dump();
}

}  // namespace

// The CPU seconds (user and system) the programs f runs spent, every thread of them counted: the
// children this process has waited for, before and after (POSIX); -1 where that cannot be read.
double cpu_seconds_of(const std::function<void()>& f) {
#ifdef _WIN32
    f();
    return -1;
#else
    const auto children = [] {
        rusage u{};
        getrusage(RUSAGE_CHILDREN, &u);
        return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    };
    const double before = children();
    f();
    return children() - before;
#endif
}

TEST_CASE("same input, same numbers and no collapse: ch07, ch10, ch12, ch13, ch14 idle and busy" * doctest::test_suite("native")) {
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"ch07_training", " --steps 60"},
        {"ch10_modern_attention", quick_flags("ch10_modern_attention")},
        {"ch12_gpt", " --corpus tests/data/tang_sample.txt --steps 40 --poems 3"},
        {"ch13_precision", " --corpus tests/data/tang_sample.txt --steps 20"},
        {"ch14_inside_the_poet", " --corpus tests/data/tang_sample.txt --steps 20"}};
    for (const auto& run : runs) {
        const std::string &chapter = run.first, &flags = run.second;
        CAPTURE(chapter);
        Run alone, beside;
        const double idle = cpu_seconds_of([&] { alone = run_program(chapter, flags + " --json"); });
        REQUIRE(alone.exit_code == 0);
        double busy = 0;
        {
            const BusyMachine busy_machine;
            REQUIRE(busy_machine.processes() > 0);
            busy = cpu_seconds_of([&] { beside = run_program(chapter, flags + " --json"); });
        }  // the spinning processes are stopped (and reaped) only now, after the measurement
        REQUIRE(beside.exit_code == 0);
        CHECK(without_timings(alone.out) == without_timings(beside.out));
        CHECK(without_timings(alone.out).size() > 100);  // there were numbers to compare
        // A busy machine shares the cores, which costs wall time but not CPU time: the same work
        // is the same instructions. Threads that wait for each other on a busy machine spin while
        // they wait (OpenMP's default) — the collapse fast/threads.h's TeamWatch prevents, which
        // made chapter 13's decoding 30 times slower — and spinning is CPU time. So the busy run
        // may spend at most twice the idle run's CPU time (and half a second to start a program).
        CAPTURE(idle);
        CAPTURE(busy);
        if (idle >= 0) CHECK(busy <= 2 * idle + 0.5);
    }
}

namespace {

// The quick data file of a chapter (helpers.h) with one change, written to a temporary file.
std::string quick_file_with(const std::string& chapter, const std::function<void(Json&)>& change,
                            const std::string& name) {
    const std::string flags = quick_flags(chapter);
    const std::string path = flags.empty() ? "data/" + chapter + ".json" : flags.substr(8);
    Json doc = Json::parse(read_file(path));
    change(doc);
    return temp_file(name, doc.dump());
}

}  // namespace

TEST_CASE("a <pad> at every position of a decoder input: the KV cache agrees, ch09 and ch10" * doctest::test_suite("native")) {
    for (std::size_t at = 0; at < 5; ++at) {  // ch09: the decoder input with a <pad> inside
        CAPTURE(at);
        const std::string file = quick_file_with(
            "ch09_decoding",
            [&](Json& d) {
                d["inputs"]["kv_cache_padded"] = Json::array({1, 7, 8, 9, 4});
                d["inputs"]["kv_cache_padded"][at] = 0;
            },
            "ch09_pad.json");
        const Run r = run_program("ch09_decoding", "--json --data " + file);
        REQUIRE(r.exit_code == 0);
        CHECK(Json::parse(r.out)["kv_cache_max_abs_diff"].get<double>() == 0.0);
    }
    // ch10: the first example's target [6, 5, 4, 3, 2], one of its tokens made <pad> (0): the
    // decoder reads it shifted right, <bos> 6 0 4 3 for the case the issue found
    for (std::size_t at = 0; at < 4; ++at) {
        CAPTURE(at);
        const std::string file = quick_file_with(
            "ch10_modern_attention",
            [&](Json& d) { d["inputs"]["models"]["batch"][0][1][at] = 0; }, "ch10_pad.json");
        const Run r = run_program("ch10_modern_attention", "--json --data " + file);
        REQUIRE(r.exit_code == 0);
        const Json out = Json::parse(r.out);  // kept: a range-for over a temporary's member dangles
        REQUIRE(out["kv_cache_max_abs_diff"].size() == 5);
        for (const Json& gap : out["kv_cache_max_abs_diff"]) CHECK(gap == 0.0);
    }
}

TEST_CASE("ch12's poems and ch14's sample on 1 and 3 threads: the same numbers" * doctest::test_suite("native")) {
    // chapter 12 writes a batch of poems on each thread (70 poems: 2 batches on one thread, 3 on
    // three) and chapter 14 reads its sample a batch to each thread; every number the same
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"ch12_gpt", " --corpus tests/data/tang_sample.txt --steps 3 --poems 70 --json"},
        {"ch14_inside_the_poet", " --corpus tests/data/tang_sample.txt --steps 3 --sample 5 --json"}};
    for (const auto& run : runs) {
        CAPTURE(run.first);
        const Run one = run_command("OMP_NUM_THREADS=1 " + program_path(run.first) + run.second);
        const Run three = run_command("OMP_NUM_THREADS=3 " + program_path(run.first) + run.second);
        REQUIRE(one.exit_code == 0);
        REQUIRE(three.exit_code == 0);
        Json a = Json::parse(without_timings(one.out)), b = Json::parse(without_timings(three.out));
        CHECK(a["threads"] == 1);
        CHECK(b["threads"] == 3);
        a.erase("threads"), b.erase("threads");
        CHECK(a.size() > 50);  // there were numbers to compare
        CHECK(a == b);
    }
}
