// reverse_task.cpp — drawing reversal examples.
#include "train/reverse_task.h"

#include <string>

Vocabulary reverse_vocabulary() {
    Vocabulary v = {"<pad>", "<bos>", "<eos>"};
    for (int d = 0; d < 10; ++d) v.push_back(std::to_string(d));
    return v;
}

Example random_reversal(Random& rng, std::size_t min_length, std::size_t max_length) {
    const std::size_t length = min_length + rng.next() % (max_length - min_length + 1);
    Example e;
    for (std::size_t i = 0; i < length; ++i)
        e.source.push_back(3 + static_cast<int>(rng.next() % 10));
    e.target.assign(e.source.rbegin(), e.source.rend());
    e.source.push_back(2);  // <eos>
    e.target.push_back(2);
    return e;
}

std::vector<Example> random_reversals(Random& rng, std::size_t count, std::size_t min_length,
                                      std::size_t max_length) {
    std::vector<Example> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(random_reversal(rng, min_length, max_length));
    return out;
}
