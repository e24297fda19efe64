// attending.cpp — who attends to whom: the one-sequence case.
#include "model/multi_head/attending.h"

Attending within_one(std::size_t n, std::size_t m, const Matrix& mask, InAttention positions) {
    return {one_sequence(n), one_sequence(m), {mask}, positions};
}
