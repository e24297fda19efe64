// test_machine_flags.cpp — the Makefile chooses each machine flag by what the compiler accepts
// (a Mac's Apple clang, g++ or clang on arm64, clang without OpenMP): tried here with a compiler
// that refuses what those refuse — g++ behind a script — and `make -n`, which evaluates every
// choice and builds nothing, into a temporary build folder (never the reader's build/).
#include <doctest/doctest.h>

#include <string>

#include "helpers.h"

namespace {

// A compiler that is g++ but refuses the listed flags, as a compiler that lacks them does.
std::string refusing_compiler(const std::string& name, const std::string& refused) {
    const std::string path = temp_directory(name) + "/c++";
    const std::string script =
        "#!/bin/sh\n"
        "for a in \"$@\"; do\n"
        "  case \" " +
        refused +
        " \" in *\" $a \"*)\n"
        "    echo \"unrecognized command-line option $a\" >&2; exit 1;;\n"
        "  esac\n"
        "done\n"
        "exec g++ \"$@\"\n";
    run_command("cp " + temp_file(name + ".sh", script) + " " + path + " && chmod +x " + path);
    return path;
}

// What `make -n` says of its choices with that compiler (the "machine:" line and any note),
// the build folder a temporary one.
std::string choices(const std::string& compiler, const std::string& extra = "") {
    const std::string build = temp_directory("machine_build");
    const Run r = run_command("make -n --no-print-directory CXX=" + compiler + " BUILD=" + build +
                              " " + extra + " " + build + "/ch01_dictionary_lookup 2>&1");
    return r.out;
}

}  // namespace

TEST_CASE("make picks the first machine flags the compiler accepts, and says so once") {
    // g++ on arm64 has no -mprefer-vector-width: -march=native alone
    const std::string no_width =
        choices(refusing_compiler("no_width", "-mprefer-vector-width=512"));
    CHECK(no_width.find("machine: ") != std::string::npos);
    CHECK(no_width.find("-mprefer-vector-width") == std::string::npos);
    CHECK(no_width.find("-march=native") != std::string::npos);
    // x86: scheduled for no CPU in particular (g++ 12's Zen 3 tuning halved the AVX2 tile's
    // speed); a compiler without -mtune=generic keeps the 512-bit width
    const std::string as_is = choices("g++");
    if (as_is.find("-mprefer-vector-width=512") != std::string::npos)
        CHECK(as_is.find("-mtune=generic") != std::string::npos);
    const std::string no_tune = choices(refusing_compiler("no_tune", "-mtune=generic"));
    CHECK(no_tune.find("-mtune=generic") == std::string::npos);
    CHECK(no_tune.find("-march=native") != std::string::npos);
    const auto has_width = [](const std::string& s) {
        return s.find("-mprefer-vector-width=512") != std::string::npos;
    };
    CHECK(has_width(no_tune) == has_width(as_is));
    // clang 14 on arm64 (Apple clang before Xcode 15) has no -march=native: -mcpu=native
    const std::string mcpu =
        choices(refusing_compiler("no_march", "-mprefer-vector-width=512 -march=native"));
    CHECK(mcpu.find("-march=native") == std::string::npos);
    CHECK(mcpu.find("-mcpu=native") != std::string::npos);
}

TEST_CASE("a compiler without OpenMP builds serially, with one line saying how to get threads") {
    const std::string serial = choices(refusing_compiler("no_openmp", "-fopenmp"));
    CHECK(serial.find("one thread") != std::string::npos);
    CHECK(serial.find("note: ") != std::string::npos);
    CHECK(serial.find("brew install libomp") != std::string::npos);
    CHECK(serial.find("-fopenmp") == std::string::npos);
}

TEST_CASE("make SAN=1 passes -Wno-maybe-uninitialized only to a compiler that knows it") {
    const std::string clang_like =
        choices(refusing_compiler("no_warning", "-Wno-maybe-uninitialized"),
                "SAN=1 " + temp_directory("machine_build") + "/obj/tests/main.o");
    CHECK(clang_like.find("-fsanitize=address") != std::string::npos);
    CHECK(clang_like.find("-Wno-maybe-uninitialized") == std::string::npos);
    const std::string gxx =
        choices("g++", "SAN=1 " + temp_directory("machine_build") + "/obj/tests/main.o");
    CHECK(gxx.find("-Wno-maybe-uninitialized") != std::string::npos);
}
