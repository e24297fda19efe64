// threads.cpp — the thread count, from OpenMP when the build has it.
#include "core/threads.h"

#include <utility>

#if defined(_OPENMP)
#include <omp.h>
int thread_count() { return omp_get_max_threads(); }
void set_thread_count(int n) { omp_set_num_threads(n); }
bool worth_threads(std::size_t work) {
    return work >= (std::size_t{1} << 20) && omp_get_max_threads() > 1 && !omp_in_parallel();
}
#else
int thread_count() { return 1; }
void set_thread_count(int) {}
bool worth_threads(std::size_t) { return false; }
#endif

void LoopError::keep(std::size_t i, std::exception_ptr e) {
#pragma omp critical(loop_error)
    if (!error_ || i < first_) {
        error_ = std::move(e);
        first_ = i;
    }
}
