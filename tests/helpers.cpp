// helpers.cpp — running chapter programs and making temporary files for the tests.
#include "helpers.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

static std::string read_all(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

static std::string temp_dir() {
    static std::string dir;
    if (dir.empty()) {
        char pattern[] = "/tmp/tbh-tests-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        dir = made;
    }
    return dir;
}

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

Run run_program(const std::string& program, const std::string& args) {
    const std::string out = temp_dir() + "/stdout", err = temp_dir() + "/stderr";
    const std::string command = program_dir + "/" + program + " " + args + " >" + out + " 2>" + err;
    const int status = std::system(command.c_str());
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return {code, read_all(out), read_all(err)};
}
