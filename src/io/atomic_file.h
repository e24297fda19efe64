// atomic_file.h — writing a file whole or not at all: the text goes to a temporary file in the
// same directory, which is then renamed over the target. A reader (or a crash) never sees a
// half-written file, and nothing the user had is lost when writing fails.
#pragma once
#include <string>

// Writes text to DIR/name, creating DIR if needed. Throws std::runtime_error naming the path.
void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text);

// The same for a path "dir/name" (or just "name": the current directory).
void write_file_atomically(const std::string& path, const std::string& text);

// Throws std::runtime_error naming the path unless a file could be written there now: checked
// before a long run, so that a typo is reported at once and not after minutes of work.
void check_writable(const std::string& path);
