// plugs into: src/core/matrix.cpp
// make plug N=2: every chapter's --check with your softmax_rows
// (chapters/exercises/02_softmax_rows.cpp) in place of the project's: src/core/matrix.cpp is compiled
// again with its softmax_rows made weak, and this function, the project's signature calling
// yours, takes its place.
#include "core/matrix.h"
#include "exercises/your_functions.h"

Matrix softmax_rows(const Matrix& x) { return exercise::softmax_rows(x); }
