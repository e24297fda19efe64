// atomic_file.h — writing a file whole or not at all, and never one the reader protected.
//
// The text goes to a temporary file beside the target (a unique name, .NAME.tmp.PID.XXXXXX),
// is flushed to the disk (fsync), and is then renamed over the target; the directory is synced
// too, so that neither a crash nor a power cut leaves a half-written file or loses the old one.
// A read-only target is refused, not replaced; a symbolic link is written through to the file it
// names, whose permissions the new file keeps. Temporaries left by a killed writer (its process
// gone) are removed on the next write to the same target.
#pragma once
#include <initializer_list>
#include <string>

// Writes text to path ("dir/name", or "name" in the current directory). The directory must
// exist. Throws std::runtime_error naming the path and what is wrong.
void write_file_atomically(const std::string& path, const std::string& text);

// The same for DIR/name.
void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text);

// Throws std::runtime_error naming the path unless write_file_atomically(path, …) could succeed
// now: a file name (not empty, not a directory), in a directory that exists and is writable, and
// not a file the reader made read-only. Checked before a long run, so that a typo is reported at
// once and not after minutes of work.
void check_writable(const std::string& path);

// Whether the two paths name one existing file (through links, "./" and the like): a file a run
// reads is never the one it writes.
bool same_file(const std::string& a, const std::string& b);
// check_writable, and not one of the files the run reads (--save onto --weights or the data file)
void check_saving(const std::string& path, std::initializer_list<std::string> read);

// Creates the directory (and its parents) where they are missing: --svg DIR. Throws
// std::runtime_error when the path is empty, names a file, or cannot be created.
void make_directory(const std::string& dir);
