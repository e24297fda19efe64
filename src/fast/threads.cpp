// threads.cpp — the thread count, from OpenMP when the build has it; the busy machine's watch.
#include "fast/threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <utility>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A thread that starts its share this late (in nanoseconds) has waited for a core: an idle
// machine wakes a sleeping thread in tens of microseconds, a busy one hands the core over after
// another program's time slice (milliseconds). After a late start, loops run on one thread for
// first_pause, doubling up to longest_pause while the machine stays busy.
constexpr long long late = 2'000'000;
constexpr long long first_pause = 50'000'000;
constexpr long long longest_pause = 1'000'000'000;
std::atomic<long long> alone_until{0};                 // loops on one thread until then
std::atomic<long long> pause{first_pause};

}  // namespace

TeamWatch::TeamWatch() : opened_(now_ns()) {}

void TeamWatch::arrived() {
    const long long after = now_ns() - opened_;
#pragma omp critical(team_watch)
    latest_ = std::max(latest_, after);
}

void TeamWatch::closed() {
    if (latest_ <= late) {
        pause.store(first_pause, std::memory_order_relaxed);
        return;
    }
    const long long p = pause.load(std::memory_order_relaxed);
    alone_until.store(now_ns() + p, std::memory_order_relaxed);
    pause.store(std::min(2 * p, longest_pause), std::memory_order_relaxed);
}

#if defined(_OPENMP)
int thread_count() { return omp_get_max_threads(); }
void set_thread_count(int n) { omp_set_num_threads(n); }
bool worth_threads(std::size_t work) {
    // the clock is read last, only for a loop that would be shared out: a small model's training
    // asks this of every product, most of them inside a team already (chapter 10's runs, one
    // to a thread), and reading the clock for each took 4% of that chapter's time
    return work >= (std::size_t{1} << 20) && omp_get_max_threads() > 1 && !omp_in_parallel() &&
           now_ns() >= alone_until.load(std::memory_order_relaxed);
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
