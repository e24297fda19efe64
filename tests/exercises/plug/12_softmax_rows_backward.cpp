// plugs into: src/core/matrix.cpp
// make plug N=12: every chapter's --check with your softmax_rows_backward
// (chapters/exercises/12_softmax_rows_backward.cpp) in place of the project's: src/core/matrix.cpp is compiled
// again with its softmax_rows_backward made weak, and this function, the project's signature calling
// yours, takes its place.
#include "core/matrix.h"
#include "exercises/your_functions.h"

Matrix softmax_rows_backward(const Matrix& dy, const Matrix& y) {
    return exercise::softmax_rows_backward(dy, y);
}
