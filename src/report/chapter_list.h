// chapter_list.h — the chapters in reading order: the one list the book's pages link along, its
// index follows, and the tests run (the Makefile finds the programs by their files, and a test
// checks the two agree).
#pragma once
#include <string>
#include <vector>

const std::vector<std::string>& chapter_names();
