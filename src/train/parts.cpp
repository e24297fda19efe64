// parts.cpp — running a batch's parts on the threads, adding their gradients in order.
#include "train/parts.h"

#include <algorithm>

#include "fast/threads.h"

void run_parts(const std::vector<std::size_t>& tokens, std::size_t work_per_token,
               const std::function<void(std::size_t part)>& part) {
    const std::size_t parts = tokens.size();
    std::vector<std::size_t> order(parts);
    for (std::size_t p = 0; p < parts; ++p) order[p] = p;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return tokens[a] > tokens[b]; });
    std::size_t work = 0;  // multiply-adds, roughly
    for (std::size_t t : tokens) work += t * work_per_token;
    parallel_for_uneven(parts, parts > 1 ? work : 0, [&](std::size_t k) { part(order[k]); });
}

void add_in_order(const std::vector<std::vector<Matrix*>>& parts) {
    if (parts.size() < 2) return;
    const std::vector<Matrix*>& into = parts.front();
    std::vector<std::size_t> sizes;
    for (const Matrix* g : into) sizes.push_back(g->data.size());
    // an addition from memory takes the time of about 30 multiply-adds in registers
    parallel_for_pieces(sizes, 30 * (parts.size() - 1),
                        [&](std::size_t i, std::size_t begin, std::size_t end) {
                            double* sum = into[i]->data.data();
                            for (std::size_t p = 1; p < parts.size(); ++p) {
                                const double* g = parts[p][i]->data.data();
                                for (std::size_t j = begin; j < end; ++j) sum[j] += g[j];
                            }
                        });
}
