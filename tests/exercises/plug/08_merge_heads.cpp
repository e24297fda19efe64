// plugs into: src/core/matrix.cpp
// make plug N=8: every chapter's --check with your merge_heads
// (chapters/exercises/08_merge_heads.cpp) in place of the project's: src/core/matrix.cpp is compiled
// again with its function made weak, and this function, the project's signature calling
// yours, takes its place.
#include "core/matrix.h"
#include "exercises/your_functions.h"

// concat_columns puts any blocks side by side, heads or not: yours does the same
Matrix concat_columns(const std::vector<Matrix>& blocks) { return exercise::merge_heads(blocks); }
