// platform.cpp — POSIX (Linux, macOS) and Windows (MinGW-w64 g++, MSYS2) side by side.
#include "io/platform.h"

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>  // first: the headers below need its definitions

#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#include <sys/stat.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace fs = std::filesystem;

// A path from UTF-8: u8path decodes it into UTF-16 on Windows and keeps the bytes elsewhere.
fs::path path_of(const std::string& utf8) { return fs::u8path(utf8); }
std::string utf8_of(const fs::path& path) { return path.u8string(); }

std::ifstream open_for_reading(const std::string& utf8_path) {
    return std::ifstream(path_of(utf8_path), std::ios::binary);
}

#ifdef _WIN32

namespace {
std::string utf8_from_wide(const wchar_t* w) {
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
    if (n <= 1) return "";
    std::string s(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, -1, s.data(), n, nullptr, nullptr);
    s.pop_back();  // the terminating zero
    return s;
}
}  // namespace

Utf8Arguments::Utf8Arguments(int argc, char** argv) {
    int n = 0;
    wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
    if (wide && n == argc) {
        for (int i = 0; i < n; ++i) strings_.push_back(utf8_from_wide(wide[i]));
    } else {  // not the command line this process was given: keep what the C library read
        for (int i = 0; i < argc; ++i) strings_.push_back(argv[i]);
    }
    if (wide) LocalFree(wide);
    for (std::string& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
}

void prepare_console() {
    SetConsoleOutputCP(CP_UTF8);
    std::fflush(stdout);
    std::fflush(stderr);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
}

bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

std::string system_language() {
    return PRIMARYLANGID(GetUserDefaultUILanguage()) == LANG_CHINESE ? "zh" : "";
}

namespace platform {

long long process_id() { return static_cast<long long>(GetCurrentProcessId()); }

bool process_gone(long long pid) {
    if (pid <= 0 || pid > 0xFFFFFFFFLL) return false;
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid));
    if (!h) return GetLastError() == ERROR_INVALID_PARAMETER;  // no such process
    DWORD code = 0;
    const bool ended = GetExitCodeProcess(h, &code) && code != STILL_ACTIVE;
    CloseHandle(h);
    return ended;
}

bool may_write(const fs::path& p) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) return true;  // a directory's read-only attribute means nothing
    return _waccess(p.c_str(), 2) == 0;
}

Written write_new_file(const fs::path& file, const std::string& text, const fs::path&) {
    const int fd = _wopen(file.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY,
                          _S_IREAD | _S_IWRITE);
    if (fd < 0) return Written::not_created;
    bool ok = true;
    for (std::size_t done = 0; ok && done < text.size();) {
        const std::size_t chunk = std::min<std::size_t>(text.size() - done, 1u << 30);
        const int n = _write(fd, text.data() + done, static_cast<unsigned>(chunk));
        ok = n > 0;
        done += ok ? static_cast<std::size_t>(n) : 0;
    }
    ok = ok && _commit(fd) == 0;  // FlushFileBuffers: on the disk before the rename
    ok = _close(fd) == 0 && ok;
    if (!ok) _wunlink(file.c_str());
    return ok ? Written::ok : Written::not_written;
}

bool replace_file(const fs::path& from, const fs::path& to) {
    return MoveFileExW(from.c_str(), to.c_str(),
                       MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
}

}  // namespace platform

#else  // POSIX

Utf8Arguments::Utf8Arguments(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) strings_.push_back(argv[i]);
    for (std::string& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
}

void prepare_console() {}

bool stderr_is_terminal() { return isatty(2) != 0; }

std::string system_language() { return ""; }

namespace platform {

long long process_id() { return static_cast<long long>(::getpid()); }

bool process_gone(long long pid) {
    if (pid <= 0 || pid != static_cast<long long>(static_cast<pid_t>(pid))) return false;
    return kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

bool may_write(const fs::path& p) { return ::access(p.c_str(), W_OK) == 0; }

Written write_new_file(const fs::path& file, const std::string& text, const fs::path& keep_mode_of) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) return Written::not_created;
    // the new file keeps the old one's permissions, or gets the usual ones for a new file
    std::error_code ec;
    const fs::file_status old = fs::status(keep_mode_of, ec);
    mode_t mode;
    if (fs::exists(old)) {
        mode = static_cast<mode_t>(old.permissions() & fs::perms::mask);
    } else {
#ifdef __EMSCRIPTEN__
        // WebAssembly: Emscripten reports a umask of 0777 whatever the system's, which would
        // leave the file unreadable (mode 000); the usual one instead
        const mode_t mask = 022;
#else
        const mode_t mask = ::umask(0);
        ::umask(mask);
#endif
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
    if (!ok) ::unlink(file.c_str());
    return ok ? Written::ok : Written::not_written;
}

bool replace_file(const fs::path& from, const fs::path& to) {
    if (::rename(from.c_str(), to.c_str()) != 0) return false;
    // the directory synced too, so that the rename survives a power cut
    fs::path dir = to.parent_path();
    if (dir.empty()) dir = ".";
#ifdef O_DIRECTORY
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
#else
    const int fd = ::open(dir.c_str(), O_RDONLY);
#endif
    if (fd >= 0) {  // otherwise nothing more can be done; the rename itself has happened
        ::fsync(fd);
        ::close(fd);
    }
    return true;
}

}  // namespace platform

#endif
