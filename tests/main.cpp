// main.cpp — the doctest runner. It also remembers where the test program lives, so the
// tests of the chapter programs can find them beside it (build/ or build/san/).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "core/allocation.h"
#include "helpers.h"

std::string program_dir = ".";

int main(int argc, char** argv) {
    reuse_freed_memory();  // as the chapter programs do (core/allocation.h)
    const std::string self = argc > 0 ? argv[0] : "";
    const std::size_t slash = self.find_last_of("/\\");  // Windows writes either
    if (slash != std::string::npos) program_dir = self.substr(0, slash);
    // the programs the tests run narrate in English whatever the machine's locale (a zh locale
    // would switch them to Chinese); the tests of Chinese pass --lang zh
#ifdef _WIN32
    _putenv_s("LC_ALL", "C");
#else
    setenv("LC_ALL", "C", 1);
#endif
    doctest::Context context(argc, argv);
    const int status = context.run();
    remove_temp_files();
    return status;
}
