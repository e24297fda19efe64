// recorded_gradients.cpp — gradients recorded under the oracle's keys.
#include "report/recorded_gradients.h"

#include <algorithm>

#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"

double record_gradients(Chapter& ch, const std::string& prefix, const Transformer& grad) {
    return record_gradients(ch, prefix, torch_state_dict(grad));
}

double record_gradients(Chapter& ch, const std::string& prefix,
                        const std::vector<TorchTensor>& grad) {
    double worst = 0.0;
    for (const TorchTensor& t : grad) {
        std::string name = t.name;  // the oracle's keys: "transformer/encoder/…"
        std::replace(name.begin(), name.end(), '.', '/');
        const std::string key = "grad_" + prefix + "/" + name;
        ch.record(key, t.value, t.is_vector ? Shape::Vector : Shape::Matrix, tolerance::end_to_end);
        const std::string expected = "expected." + key;
        if (!ch.data.has(expected)) continue;
        const Matrix want = t.is_vector ? ch.data.vector(expected) : ch.data.matrix(expected);
        if (want.data.size() == t.value.data.size())
            worst = std::max(worst, max_abs_diff(want, t.value));
    }
    return worst;
}
