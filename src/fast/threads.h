// threads.h — how the plain loops share their work among threads (OpenMP).
//
// A loop that shares out its work is written parallel_for(count, work, body): each thread gets
// whole iterations — whole tiles of a product, whole examples of a batch — and computes each
// with the same operations in the same order as one thread would, so every number is the same
// bit for bit whatever the thread count (tests/test_threads.cpp checks it at 1, 2 and 3).
// OMP_NUM_THREADS chooses the count; by default every core is used. Built with make OPENMP=0,
// the pragma is ignored and everything runs on one thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

// The number of threads a parallel loop uses: OMP_NUM_THREADS, or the cores; 1 without OpenMP.
int thread_count();

// From now on, parallel loops use n threads (the tests run the same work at 1, 2 and 3).
void set_thread_count(int n);

// Whether a loop of about `work` multiply-adds is worth sharing out: there is more than one
// thread, this thread is not already one of a team (a product inside a parallel batch runs on
// its own thread), the machine is not busy (TeamWatch below), and the loop is large: at least
// 2^20 multiply-adds held in registers. Starting and joining the threads costs microseconds, so a
// smaller loop runs faster on one (chapter 11's 64 x 64 x 64 block products, 2^18, were slower
// shared out: tests/bench/README.md).
bool worth_threads(std::size_t work);

// A busy machine. A loop shared out waits, at its end, for every thread to finish its share; a
// thread that another program's work has pushed off its core arrives milliseconds late, and the
// others wait for it (spinning at first, OpenMP's default, which takes the core from it longer).
// Decoding runs such a loop many times per token: on 2 cores beside one busy program, chapter
// 13's float64 decoding on two threads fell to a small fraction of its speed on one
// (tests/bench/README.md). So each loop
// notes how late its threads started; when one started more than `late` after the loop was
// opened, the machine is taken to be busy and loops run on the calling thread alone for a
// while (doubling, up to a second, while it stays busy), then are shared out again to see. The
// numbers never change: only who computes them.
class TeamWatch {
public:
    TeamWatch();
    void arrived();  // each thread, once, as it starts its share
    void closed();   // after the loop: was any thread late?
private:
    long long opened_;
    long long latest_ = 0;  // the latest start, in ns after opened_
};

// What went wrong in a loop shared out among threads: an exception must not leave a thread
// (that ends the program), so each iteration's is kept here — the first iteration's that threw,
// as on one thread — and thrown again on the calling thread once the loop is done.
class LoopError {
public:
    template <class Body>
    void run(std::size_t i, const Body& body) {
        try {
            body(i);
        } catch (...) {
            keep(i, std::current_exception());
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    void keep(std::size_t i, std::exception_ptr e);
    std::exception_ptr error_;
    std::size_t first_ = 0;
};

namespace detail {

// body(0) … body(count − 1) on a team of threads: dealt out in consecutive runs, one to a
// thread (schedule static), or, for iterations of unequal cost, each thread taking the next
// iteration when it has finished one (dynamic). An iteration's exception is thrown again here,
// on the calling thread, once the loop is done.
template <class Body>
void shared_out(std::size_t count, bool uneven, const Body& body) {
    const std::int64_t n = static_cast<std::int64_t>(count);
    LoopError error;
    TeamWatch watch;
    // nowait: a thread done with its share goes straight to the team's end, where every thread
    // waits for the others anyway — one meeting of the threads a loop, not two (a decoder meets
    // about thirty times a token)
#pragma omp parallel
    {
        watch.arrived();
        if (uneven) {  // the same branch on every thread of the team
#pragma omp for schedule(dynamic) nowait
            for (std::int64_t i = 0; i < n; ++i) error.run(static_cast<std::size_t>(i), body);
        } else {
#pragma omp for schedule(static) nowait
            for (std::int64_t i = 0; i < n; ++i) error.run(static_cast<std::size_t>(i), body);
        }
    }
    watch.closed();
    error.rethrow();
}

}  // namespace detail

// body(0), body(1), … body(count − 1): shared out among the threads, each a consecutive run of
// iterations, when `work` is worth it; else in order on this thread, with no team started.
template <class Body>
void parallel_for(std::size_t count, std::size_t work, const Body& body) {
    if (worth_threads(work))
        detail::shared_out(count, false, body);
    else
        for (std::size_t i = 0; i < count; ++i) body(i);
}

// The same for iterations of unequal cost (the parts of a batch, of different lengths): each
// thread takes the next iteration when it has finished one. Which thread computes an iteration
// changes from run to run; what the iteration computes does not.
template <class Body>
void parallel_for_uneven(std::size_t count, std::size_t work, const Body& body) {
    if (worth_threads(work))
        detail::shared_out(count, true, body);
    else
        for (std::size_t i = 0; i < count; ++i) body(i);
}

// Runs over the elements of several arrays (a model's parameters: matrices of very different
// sizes) cut into pieces of at most `piece` elements, so that the threads get even shares:
// body(array, begin, end) for each piece. Each element is still computed once, by one thread.
template <class Body>
void parallel_for_pieces(const std::vector<std::size_t>& sizes, std::size_t work_per_element,
                         const Body& body) {
    constexpr std::size_t piece = 4096;
    struct Piece {
        std::size_t array, begin, end;
    };
    std::vector<Piece> pieces;
    std::size_t total = 0;
    for (std::size_t a = 0; a < sizes.size(); ++a) {
        for (std::size_t b = 0; b < sizes[a]; b += piece)
            pieces.push_back({a, b, b + piece < sizes[a] ? b + piece : sizes[a]});
        total += sizes[a];
    }
    parallel_for(pieces.size(), total * work_per_element,
                 [&](std::size_t i) { body(pieces[i].array, pieces[i].begin, pieces[i].end); });
}
