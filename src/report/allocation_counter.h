// allocation_counter.h — the bytes a piece of work holds at once, counted, not estimated
// (chapter 11's memory table).
//
// allocation_counter.cpp replaces the program's operator new and delete by ones that keep a
// running total and its high-water mark. It is linked only into the programs that ask for it
// (chapter 11 and the tests; see the Makefile): every other program allocates as usual.
#pragma once
#include <cstddef>
#include <functional>

// Bytes allocated with new and not yet freed (every std::vector, every Matrix), program-wide.
std::size_t bytes_in_use();

// Runs work and returns the most bytes it held at any one moment beyond what was held before it
// started: its temporaries and what it returned, at their peak.
std::size_t peak_bytes_of(const std::function<void()>& work);
