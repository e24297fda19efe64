// helpers.h — what several test files share: comparing a Matrix with a data file's expected
// values, and running a chapter program to look at its exit code and output.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/matrix.h"
#include "io/data_file.h"
#include "io/results.h"

extern std::string program_dir;  // where build/tests lives: the chapter programs are beside it

// Every entry of `got` within tol · max(1, |expected|) of data's expected.<key> (a matrix, or
// a vector compared with a 1 x n `got`).
inline void check_close(const Matrix& got, const DataFile& data, const std::string& key,
                        double tol = tolerance::single_op) {
    const std::string path = "expected." + key;
    const Matrix want = data.is_matrix(path) ? data.matrix(path) : data.vector(path);
    REQUIRE_MESSAGE(shape_of(got) == shape_of(want), key);
    for (std::size_t i = 0; i < want.data.size(); ++i)
        CHECK_MESSAGE(
            std::fabs(got.data[i] - want.data[i]) <= tol * std::max(1.0, std::fabs(want.data[i])),
            key << "[" << i << "]: got " << got.data[i] << ", expected " << want.data[i]);
}

struct Run {
    int exit_code;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs build/<program> with the given arguments (a shell string) from the repository root.
Run run_program(const std::string& program, const std::string& args);
Run run_command(const std::string& shell_command);     // any command, from the repository root
std::string program_path(const std::string& program);  // where build/<program> is
std::string temp_directory(const std::string& name);   // a fresh directory for one test
std::string read_file(const std::string& path);        // "" if it cannot be read

// The flags that keep a chapter's walkthrough or --json short in the test suite: ch07 trains 3
// steps; ch09, ch10 and ch11 run on a copy of their data file whose measurements (the trained model
// of ch09's stopping rules, ch10's length experiment and timings, ch11's memory table) are cut
// short. Their expected values are the shipped file's. "" for the others.
std::string quick_flags(const std::string& chapter);

// A file with the given text in a fresh temporary directory; returns its path.
std::string temp_file(const std::string& name, const std::string& text);
void remove_temp_files();  // the whole temporary directory, once every test has run
