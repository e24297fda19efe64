// stacking.h — a batch of sequences stacked into one matrix, one sequence below the other,
// with no padding between them: sequence s is rows first(s) … first(s) + length(s) − 1.
//
// Layers that treat each row alone (linear, LayerNorm, the feed-forward net, the output
// projection, the loss) run on the whole stack in one call; attention looks only within each
// sequence (multi_head.h). PyTorch instead pads every sequence of a batch to the longest and
// masks the padding; FlashAttention's variable-length kernels stack them as here (cu_seqlens).
// A single sequence is a stack of one.
#pragma once
#include <cstddef>
#include <vector>

struct Stacking {
    std::vector<std::size_t> starts = {0};  // one more than the number of sequences
    std::size_t sequences() const { return starts.size() - 1; }
    std::size_t first(std::size_t s) const { return starts[s]; }
    std::size_t length(std::size_t s) const { return starts[s + 1] - starts[s]; }
    std::size_t rows() const { return starts.back(); }
};

Stacking stacking_of_lengths(const std::vector<std::size_t>& lengths);  // one sequence per entry
Stacking one_sequence(std::size_t rows);
