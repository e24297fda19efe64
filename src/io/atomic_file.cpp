// atomic_file.cpp — a unique temporary file, flushed to the disk, renamed over the target.
// The system calls are io/platform.cpp's; this file holds the rules.
#include "io/atomic_file.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "io/platform.h"
#include "text/translate.h"

namespace fs = std::filesystem;

namespace {

std::runtime_error failure(const std::string& path, const std::string& what) {
    return std::runtime_error(tr("{}: {}", path, what));
}

fs::path directory_of(const fs::path& path) {
    const fs::path dir = path.parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

// Where the text really goes: the path itself, or the file a symbolic link names (followed
// through every link, relative links against the link's own directory).
fs::path destination(const std::string& path) {
    fs::path p = path_of(path);
    std::error_code ec;
    for (int hops = 0; fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        if (hops == 40) throw failure(path, tr("too many symbolic links"));
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) throw failure(path, tr("cannot read the symbolic link"));
        p = to.is_absolute() ? to : directory_of(p) / to;
    }
    return p;
}

// The temporaries of ours for this target: .NAME.tmp.PID.XXXXXX
std::string temporary_prefix(const fs::path& target) {
    return "." + utf8_of(target.filename()) + ".tmp.";
}

// Removes the temporaries a killed writer left beside target: those whose process is gone.
void remove_stale_temporaries(const fs::path& target) {
    const std::string prefix = temporary_prefix(target);
    std::error_code ec;
    std::vector<fs::path> stale;
    for (const auto& e : fs::directory_iterator(directory_of(target), ec)) {
        const std::string name = utf8_of(e.path().filename());
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());  // PID.XXXXXX
        const std::size_t dot = rest.find('.');
        if (dot == 0 || dot == std::string::npos || dot > 10) continue;
        if (rest.find_first_not_of("0123456789") != dot) continue;
        if (platform::process_gone(std::stoll(rest.substr(0, dot)))) stale.push_back(e.path());
    }
    for (const fs::path& p : stale) fs::remove(p, ec);
}

// Six characters that make this writer's temporary name unique among its own attempts.
std::string unique_suffix(unsigned attempt) {
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    unsigned long long x = static_cast<unsigned long long>(
                               std::chrono::steady_clock::now().time_since_epoch().count()) *
                               0x9E3779B97F4A7C15ULL +
                           attempt;
    std::string s;
    for (int i = 0; i < 6; ++i, x /= 36) s += digits[x % 36];
    return s;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    const bool same = fs::equivalent(path_of(a), path_of(b), ec);
    return !ec && same;
}

void check_writable(const std::string& path) {
    if (path.empty()) throw std::runtime_error(tr("expected a file name, got an empty path"));
    if (path.back() == '/' || path.back() == '\\')
        throw failure(path, tr("a directory; expected a file name"));
    const fs::path target = destination(path);
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    if (fs::is_directory(st)) throw failure(path, tr("a directory; expected a file name"));
    const fs::path dir = directory_of(target);
    const fs::file_status dir_status = fs::status(dir, ec);
    if (fs::exists(dir_status) && !fs::is_directory(dir_status))
        throw failure(path, tr("{} is a file, not a directory", utf8_of(dir)));
    if (!fs::is_directory(dir_status))
        throw failure(path, tr("the directory {} does not exist (create it first)", utf8_of(dir)));
    if (fs::exists(st)) {
        if (!fs::is_regular_file(st)) throw failure(path, tr("not a regular file"));
        // the owner's write bit, not only access(): root may write anything, and a file its
        // reader made read-only is protected all the same
        if ((st.permissions() & fs::perms::owner_write) == fs::perms::none ||
            !platform::may_write(target))
            throw failure(path, tr("read-only; it is not replaced (chmod u+w {} allows it)",
                                   utf8_of(target)));
    }
    if (!platform::may_write(dir))
        throw failure(path, tr("cannot write in {} (is the directory writable?)", utf8_of(dir)));
}

void write_file_atomically(const std::string& path, const std::string& text) {
    check_writable(path);
    const fs::path target = destination(path);
    remove_stale_temporaries(target);
    const std::string prefix =
        temporary_prefix(target) + std::to_string(platform::process_id()) + ".";
    fs::path temp;
    platform::Written written = platform::Written::not_created;
    for (unsigned attempt = 0; written == platform::Written::not_created && attempt < 100;
         ++attempt) {
        temp = directory_of(target) / path_of(prefix + unique_suffix(attempt));
        written = platform::write_new_file(temp, text, target);
        std::error_code ec;
        if (written == platform::Written::not_created && !fs::exists(temp, ec)) break;
    }
    if (written == platform::Written::not_created)
        throw failure(path, tr("cannot write (is the directory writable?)"));
    if (written == platform::Written::not_written)
        throw failure(path, tr("cannot write (is the disk full?)"));
    if (!platform::replace_file(temp, target)) {
        std::error_code ec;
        fs::remove(temp, ec);
        throw failure(path, tr("cannot write (is the disk full?)"));
    }
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text) {
    write_file_atomically(utf8_of(path_of(dir) / path_of(name)), text);
}

void make_directory(const std::string& dir) {
    if (dir.empty()) throw std::runtime_error(tr("expected a directory, got an empty path"));
    std::error_code ec;
    const fs::path p = path_of(dir);
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st) && !fs::is_directory(st))
        throw failure(dir, tr("a file; expected a directory"));
    fs::create_directories(p, ec);
    if (!fs::is_directory(fs::status(p, ec)))
        throw failure(dir, tr("cannot create the directory"));
}

void check_saving(const std::string& path, std::initializer_list<std::string> read) {
    check_writable(path);
    for (const std::string& r : read)
        if (same_file(path, r))
            throw std::runtime_error(
                tr("{}: that is the file this run reads ({}); name another", path, r));
}
