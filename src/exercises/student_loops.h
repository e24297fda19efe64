// student_loops.h — the plain loops the mistakes are built from: a product, the softmax (stable,
// a row of −inf all zeros), attention, a row appended. Written again here, as a student would, so
// that a mistake never runs the project's code it is measured against.
#pragma once
#include <limits>

#include "core/matrix_type.h"

namespace student {

const double inf = std::numeric_limits<double>::infinity();

Matrix product(const Matrix& a, const Matrix& b, bool b_transposed);  // a·b or a·bᵀ
Matrix softmax(const Matrix& x);                                      // each row
// softmax(Q·Kᵀ·scale + mask)·V; mask empty (0x0) for none
Matrix attend(const Matrix& Q, const Matrix& K, const Matrix& V, double scale, const Matrix& mask);
void append(Matrix& into, const Matrix& row);  // one row below into's

}  // namespace student
