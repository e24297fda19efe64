// linear.cpp — x·W + b, and undone.
#include "model/multi_head/linear.h"

#include "core/matmul.h"

Matrix linear(const Matrix& x, const Matrix& W, const Matrix& b) {
    Matrix y = matmul(x, W);
    if (!b.empty()) add_to_each_row(y, b);
    return y;
}

Matrix linear_backward(const Matrix& dy, const Matrix& x, const Matrix& W, Matrix& dW, Matrix& db) {
    add_to(dW, matmul_at(x, dy));              // y = x·W    -> dW = xᵀ·dy
    if (!db.empty()) add_column_sums(db, dy);  // y = … + b  -> db = Σ_rows dy
    return matmul_bt(dy, W);                   // y = x·W    -> dx = dy·Wᵀ
}
