// measure.cpp — medians and bests of repeated runs, and log-log slopes.
#include "report/measure.h"

#include "fast/threads.h"
#include "text/translate.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <cmath>
#include <cstddef>

double median_seconds(const std::function<void()>& f, int min_runs, double min_seconds) {
    std::vector<double> times;
    double total = 0.0;
    while (static_cast<int>(times.size()) < min_runs || total < min_seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        total += times.back();
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

std::vector<double> seconds_each(const std::function<void()>& f, int runs) {
    std::vector<double> times;
    for (int i = 0; i < std::max(runs, 1); ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return times;
}

double shortest(const std::vector<double>& seconds) {
    return seconds.empty() ? 0.0 : *std::min_element(seconds.begin(), seconds.end());
}

double best_seconds(const std::function<void()>& f, int runs) {
    return shortest(seconds_each(f, runs));
}

double fitted_exponent(const std::vector<double>& xs, const std::vector<double>& ys) {
    const double m = static_cast<double>(xs.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double lx = std::log(xs[i]), ly = std::log(ys[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

std::size_t distinct_sizes(const std::vector<double>& xs) {
    std::vector<double> v = xs;
    std::sort(v.begin(), v.end());
    return static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
}

std::size_t distinct_sizes(const std::vector<std::size_t>& xs) {
    return distinct_sizes(std::vector<double>(xs.begin(), xs.end()));
}

double available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string name, unit;
    double kib = 0;
    while (meminfo >> name >> kib >> unit)
        if (name == "MemAvailable:") return kib * 1024.0;
    return 0.0;
}

std::string threads_used() {
    const int n = thread_count();
    return n == 1 ? tr("one thread") : tr("{} threads", n);
}
