// platform.h — the few things a program asks of the operating system, where Linux and macOS
// (POSIX) differ from Windows. Every other file of src/ is plain C++17; the #ifdefs live in
// platform.cpp alone.
//
// Text inside the programs is UTF-8 everywhere: the narration, the flags, and every file path.
// On Windows the system speaks UTF-16 and, to narrow strings, the ANSI code page (936, GBK, on
// a Chinese Windows), so at the three doors it is converted here: the command line arrives as
// UTF-16 and is turned into UTF-8 (use_utf8_arguments), the console is switched to UTF-8 before
// anything is printed (prepare_console), and a path is handed to the system as UTF-16 (path_of).
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// The program's arguments as UTF-8 whatever the system's code page: on Windows, read again
// from the UTF-16 command line (a prompt 《静夜思》 or a folder C:\Users\张三 arrive whole);
// elsewhere they already are. The strings live as long as the returned object.
class Utf8Arguments {
public:
    Utf8Arguments(int argc, char** argv);
    int argc() const { return static_cast<int>(pointers_.size()) - 1; }
    char** argv() { return pointers_.data(); }

private:
    std::vector<std::string> strings_;
    std::vector<char*> pointers_;  // one per string, then a null pointer, as argv is
};

// Windows: the console shows UTF-8 (code page 65001) and stdout and stderr write "\n" as it is
// (not "\r\n"), so that the bytes a program prints are the same as on Linux. Elsewhere nothing.
void prepare_console();

// A UTF-8 path as the system's path type: on Windows, decoded into UTF-16 (a narrow path would
// be read in the ANSI code page); elsewhere the same bytes.
std::filesystem::path path_of(const std::string& utf8);

// A path back as UTF-8 (for messages and for joining).
std::string utf8_of(const std::filesystem::path& path);

// A file opened for reading, in binary (the bytes as they are: a CRLF file keeps its "\r").
std::ifstream open_for_reading(const std::string& utf8_path);

// True when stderr is a terminal (a progress bar is drawn only there).
bool stderr_is_terminal();

// The language the system's settings ask for when no locale variable says: "zh" for a Chinese
// Windows display language, "" elsewhere (POSIX systems say it through LANG and friends).
std::string system_language();

// The writing of one file, whole or not at all (io/atomic_file.cpp puts them together).
namespace platform {
long long process_id();
// True only when the process is known to have ended (a killed writer's temporary is stale).
bool process_gone(long long pid);
// True when this user may write the file or directory (POSIX access(W_OK); Windows: a file
// without the read-only attribute, and any existing directory).
bool may_write(const std::filesystem::path& p);
// Creates the file, which must not exist yet, writes text and flushes it to the disk; keeps
// the permissions of keep_mode_of where that file exists (POSIX), the usual ones otherwise.
// On failure nothing is left behind: not_created (the name is taken, or the directory refuses
// a new file) or not_written (the disk refused the bytes).
enum class Written { ok, not_created, not_written };
Written write_new_file(const std::filesystem::path& file, const std::string& text,
                    const std::filesystem::path& keep_mode_of);
// Renames from over to, replacing an existing to in one step, and makes the rename durable
// (POSIX: rename and an fsync of the directory; Windows: MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH). False on failure.
bool replace_file(const std::filesystem::path& from, const std::filesystem::path& to);
}  // namespace platform
