// bounded_read.cpp — a reader's file read in pieces, each counted against its limit.
#include "io/bounded_read.h"

#include <stdexcept>

#include "text/translate.h"

namespace {

std::runtime_error too_large(const std::string& path) {
    return std::runtime_error(tr("{}: larger than {} MiB; expected a file the size of the "
                                 "chapters' own (the largest is a few tens of MB)",
                                 path, max_file_bytes >> 20));
}

}  // namespace

std::string read_all(std::istream& in, const std::string& path) {
    std::string text;
    char piece[1 << 16];
    while (in.read(piece, sizeof piece) || in.gcount() > 0) {
        text.append(piece, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_file_bytes) throw too_large(path);
    }
    return text;
}

bool LineReader::next(std::string& line) {
    line.clear();
    bool any = false;
    char piece[1 << 12];
    while (true) {
        in_.get(piece, sizeof piece, '\n');  // up to the next '\n', which stays in the stream
        const std::size_t n = static_cast<std::size_t>(in_.gcount());
        line.append(piece, n), bytes_ += n, any = any || n > 0;
        if (bytes_ > max_file_bytes) throw too_large(path_);
        if (line.size() > max_line_bytes)
            throw std::runtime_error(tr("{}, line {}: longer than {} MiB; expected a text file "
                                        "of lines",
                                        path_, number_ + 1, max_line_bytes >> 20));
        if (in_.fail()) in_.clear();  // an empty line, or the end: nothing taken
        const int c = in_.peek();
        if (c == '\n') return in_.ignore(), ++bytes_, ++number_, true;
        if (c == std::char_traits<char>::eof()) return any ? (++number_, true) : false;
    }
}
