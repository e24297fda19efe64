// atomic_file.cpp — temporary file, then rename.
#include "io/atomic_file.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "text/translate.h"

namespace fs = std::filesystem;

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path target = fs::path(dir) / name, temp = fs::path(dir) / ("." + name + ".tmp");
    {
        std::ofstream f(temp, std::ios::binary);
        if (!f || !(f << text) || !(f.flush()))
            throw std::runtime_error(
                tr("{}: cannot write (is the directory writable?)", target.string()));
    }
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw std::runtime_error(tr("{}: cannot write", target.string()));
    }
}

static fs::path directory_of(const std::string& path) {
    const fs::path dir = fs::path(path).parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

void write_file_atomically(const std::string& path, const std::string& text) {
    write_file_atomically(directory_of(path).string(), fs::path(path).filename().string(), text);
}

void check_writable(const std::string& path) {
    const fs::path probe =
        directory_of(path) / ("." + fs::path(path).filename().string() + ".probe");
    std::error_code ec;
    fs::create_directories(directory_of(path), ec);
    const bool ok = static_cast<bool>(std::ofstream(probe));
    fs::remove(probe, ec);
    if (!ok || fs::path(path).filename().empty())
        throw std::runtime_error(tr("{}: cannot write (is the directory writable?)", path));
}
