// script_lines.h — the lines the Makefile and the shell scripts print themselves (make check's
// closing line, make plug's, make watch's, make rewrite's errors), in the reader's language:
// build/say NAME ARG… prints one (tests/tools/say.cpp), through the same catalog as the chapters.
#pragma once
#include <string>
#include <vector>

// The line called `name`, its placeholders filled from args; throws std::invalid_argument for a
// name there is no line of, or the wrong number of args.
std::string script_line(const std::string& name, const std::vector<std::string>& args);

// The names there are, for the error that names them.
std::vector<std::string> script_line_names();
