// atomic_file.cpp — a unique temporary file, fsync, rename, fsync of the directory.
#include "io/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <vector>

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
    fs::path p = path;
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
    return "." + target.filename().string() + ".tmp.";
}

// Removes the temporaries a killed writer left beside target: those whose process is gone.
void remove_stale_temporaries(const fs::path& target) {
    const std::string prefix = temporary_prefix(target);
    std::error_code ec;
    std::vector<fs::path> stale;
    for (const auto& e : fs::directory_iterator(directory_of(target), ec)) {
        const std::string name = e.path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());  // PID.XXXXXX
        const std::size_t dot = rest.find('.');
        if (dot == 0 || dot == std::string::npos || dot > 9) continue;
        if (rest.find_first_not_of("0123456789") != dot) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, dot)));
        if (kill(pid, 0) == -1 && errno == ESRCH) stale.push_back(e.path());
    }
    for (const fs::path& p : stale) fs::remove(p, ec);
}

void sync_directory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;  // nothing more can be done; the rename itself has happened
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void check_writable(const std::string& path) {
    if (path.empty()) throw std::runtime_error(tr("expected a file name, got an empty path"));
    if (path.back() == '/') throw failure(path, tr("a directory; expected a file name"));
    const fs::path target = destination(path);
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    if (fs::is_directory(st)) throw failure(path, tr("a directory; expected a file name"));
    const fs::path dir = directory_of(target);
    const fs::file_status dir_status = fs::status(dir, ec);
    if (fs::exists(dir_status) && !fs::is_directory(dir_status))
        throw failure(path, tr("{} is a file, not a directory", dir.string()));
    if (!fs::is_directory(dir_status))
        throw failure(path, tr("the directory {} does not exist (create it first)", dir.string()));
    if (fs::exists(st)) {
        if (!fs::is_regular_file(st)) throw failure(path, tr("not a regular file"));
        // the owner's write bit, not access(): root may write anything, and a file its reader
        // made read-only is protected all the same
        if ((st.permissions() & fs::perms::owner_write) == fs::perms::none ||
            ::access(target.c_str(), W_OK) != 0)
            throw failure(path, tr("read-only; it is not replaced (chmod u+w {} allows it)",
                                   target.string()));
    }
    if (::access(dir.c_str(), W_OK) != 0)
        throw failure(path, tr("cannot write in {} (is the directory writable?)", dir.string()));
}

void write_file_atomically(const std::string& path, const std::string& text) {
    check_writable(path);
    const fs::path target = destination(path);
    remove_stale_temporaries(target);
    std::string temp =
        (directory_of(target) / (temporary_prefix(target) + std::to_string(::getpid()) + ".XXXXXX"))
            .string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) throw failure(path, tr("cannot write (is the directory writable?)"));
    // the new file keeps the old one's permissions, or gets the usual ones for a new file
    std::error_code ec;
    const fs::file_status old = fs::status(target, ec);
    mode_t mode;
    if (fs::exists(old)) {
        mode = static_cast<mode_t>(old.permissions() & fs::perms::mask);
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    bool ok = ::fchmod(fd, mode) == 0;
    for (std::size_t done = 0; ok && done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        done += ok ? static_cast<std::size_t>(n) : 0;
    }
    ok = ok && ::fsync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    ok = ok && ::rename(temp.c_str(), target.c_str()) == 0;
    if (!ok) {
        ::unlink(temp.c_str());
        throw failure(path, tr("cannot write (is the disk full?)"));
    }
    sync_directory(directory_of(target));
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text) {
    write_file_atomically((fs::path(dir) / name).string(), text);
}

void make_directory(const std::string& dir) {
    if (dir.empty()) throw std::runtime_error(tr("expected a directory, got an empty path"));
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (fs::exists(st) && !fs::is_directory(st))
        throw failure(dir, tr("a file; expected a directory"));
    fs::create_directories(dir, ec);
    if (!fs::is_directory(fs::status(dir, ec)))
        throw failure(dir, tr("cannot create the directory"));
}
