// parts.h — a batch's gradient computed in parts, on as many threads as there are, with the same
// bits on any number of them (chapters 7 and 12).
//
// A batch is cut into parts of a fixed number of sequences, whatever the thread count; each part
// runs its whole forward and backward pass on one thread, into a gradient of its own, and the
// parts' gradients are then added up in their order. The same cut and the same order on 1 or 64
// threads: the same sums, rounded the same way. (Sharing each product among the threads instead
// leaves the rest of a step — norms, residuals, small attentions — on one thread.)
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "core/matrix.h"

// part(p) for p = 0 … tokens.size() − 1, shared out among the threads when the work is worth it
// (work_per_token multiply-adds per token), the parts with the most tokens handed out first, so
// that no thread is left with a long one at the end while the others wait.
void run_parts(const std::vector<std::size_t>& tokens, std::size_t work_per_token,
               const std::function<void(std::size_t part)>& part);

// Every part's gradient added onto the first's, parameter by parameter, in the parts' order:
// parts[0][i] += parts[1][i], then parts[2][i], … (shared out in pieces of each parameter).
void add_in_order(const std::vector<std::vector<Matrix*>>& parts);
