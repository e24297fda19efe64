// bounded_read.h — reading a reader's file without letting it fill the memory: a file may hold
// at most max_file_bytes, a line of a text file at most max_line_bytes. /dev/zero, a file with no
// line break, or one far larger than any the chapters read ends with one line naming the file,
// before gigabytes are allocated.
#pragma once
#include <cstddef>
#include <istream>
#include <string>

// 256 MiB: chapter 12's model in float64 is about 18 MB, its corpus of Tang poems about 10
constexpr std::size_t max_file_bytes = std::size_t(256) << 20;
constexpr std::size_t max_line_bytes = std::size_t(1) << 20;  // 1 MiB

// The whole of `in` (opened from `path`); throws std::runtime_error naming the path past
// max_file_bytes.
std::string read_all(std::istream& in, const std::string& path);

// A text file's lines, one at a time, as std::getline gives them (without the '\n'); throws
// std::runtime_error naming the path and line past max_line_bytes in a line or max_file_bytes in
// all.
class LineReader {
public:
    LineReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {}
    bool next(std::string& line);
    std::size_t number() const { return number_; }  // the line next() gave last, from 1

private:
    std::istream& in_;
    std::string path_;
    std::size_t number_ = 0, bytes_ = 0;
};
