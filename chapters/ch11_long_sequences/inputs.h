// ch11_long_sequences/inputs.h — what chapter 11 reads: the online softmax's scores, the cases
// computed block by block, the row traced, the lengths whose memory is counted.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/data_file.h"
#include "model/attention/tiled_attention.h"
#include "report/terminal.h"

namespace ch11_long_sequences {

struct Case {
    std::string name;
    Matrix Q, K, V, dO;
    KeyRule rule;
    Tiles tiles;
};

struct Inputs {
    Labels online_tokens;
    std::string online_query;
    std::vector<double> online_scores;
    std::vector<Case> cases;
    std::size_t trace_case = 0, trace_row = 0;
    std::vector<std::size_t> lengths;  // the memory table's n
    std::size_t d_k = 64, tile = 64;
    std::uint64_t seed = 0;
};

// The data file, checked.
Inputs read_inputs(const DataFile& data);

}  // namespace ch11_long_sequences
