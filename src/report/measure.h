// measure.h — timing a piece of work, and fitting how its time grows: what chapter 8 and
// `make bench` report.
#pragma once
#include <functional>
#include <string>
#include <vector>

// The median time of one call of f, in seconds: f is called at least min_runs times and until
// min_seconds have passed in all (the median ignores the odd slow run).
double median_seconds(const std::function<void()>& f, int min_runs, double min_seconds = 0.0);

// The shortest time of `runs` calls of f, in seconds: what `make bench` reports, for our code and
// PyTorch's alike. On a machine shared with other work (a virtual machine: its host's other
// guests) a disturbed run is slower, never faster, so the fastest run is the one that measured
// the code and not the neighbours.
double best_seconds(const std::function<void()>& f, int runs);
// Its two parts: each of `runs` calls timed, in order, and the shortest of some times.
std::vector<double> seconds_each(const std::function<void()>& f, int runs);
double shortest(const std::vector<double>& seconds);

// The least-squares slope of log(y) against log(x): the exponent p of a power law y ∝ x^p.
// Needs at least two distinct sizes (distinct_sizes(xs) >= 2); with fewer there is no slope.
double fitted_exponent(const std::vector<double>& xs, const std::vector<double>& ys);

// How many different values xs holds.
std::size_t distinct_sizes(const std::vector<double>& xs);
std::size_t distinct_sizes(const std::vector<std::size_t>& xs);

// "one thread" or "2 threads": how many the parallel loops use (fast/threads.h), as a timing's
// sentence states it in the reader's language.
std::string threads_used();

// The memory the system could give this program now (Linux: MemAvailable in /proc/meminfo), in
// bytes; 0 when it cannot tell.
double available_memory_bytes();
