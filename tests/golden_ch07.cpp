// golden_ch07.cpp — our gradients against PyTorch autograd (float64) on the same model and
// batch, and the losses of ten Adam steps against torch.optim.Adam, both to 1e-9.
#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.h"
#include "io/model_file.h"
#include "model/transformer/parameters.h"
#include "model/transformer/transformer.h"
#include "train/adam.h"
#include "train/batch.h"
#include "train/reverse_task.h"

static std::vector<Example> batch_of(const DataFile& data) {
    std::vector<Example> out;
    for (std::size_t i = 0; i < data.length("inputs.gradient_batch"); ++i) {
        const std::string e = "inputs.gradient_batch[" + std::to_string(i) + "]";
        out.push_back({data.tokens(e + "[0]", 13), data.tokens(e + "[1]", 13)});
    }
    return out;
}

TEST_CASE("ch07 golden: every gradient matches PyTorch autograd, both placements") {
    const DataFile data = DataFile::load("data/ch07_training.json");
    for (bool norm_first : {false, true}) {
        CAPTURE(norm_first);
        Transformer m = load_transformer(data, "inputs");
        m.config.norm_first = norm_first;
        Transformer grad;
        const double loss =
            batch_gradients(m, batch_of(data), data.number("inputs.smoothing"), grad);
        const std::string placement = norm_first ? "pre_norm" : "post_norm";
        CHECK(loss == doctest::Approx(data.number("expected.loss_" + placement)).epsilon(1e-12));
        std::size_t compared = 0;
        for (const TorchTensor& t : torch_state_dict(grad)) {  // our gradients in PyTorch's layout
            std::string key = t.name;
            std::replace(key.begin(), key.end(), '.', '/');
            check_close(t.value, data, "grad_" + placement + "/" + key, tolerance::end_to_end);
            ++compared;
        }
        std::size_t expected = 0;  // every gradient the oracle wrote was compared
        for (const std::string& key : data.keys("expected"))
            expected += key.rfind("grad_" + placement + "/", 0) == 0;
        CHECK(compared == expected);
        CHECK(compared == 68);  // PyTorch's tensors of a 2+2-layer model with separate embeddings
    }
}

TEST_CASE("ch07 golden: ten Adam steps with warm-up give PyTorch's losses") {
    const DataFile data = DataFile::load("data/ch07_training.json");
    AdamSettings a;
    a.factor = data.number("inputs.adam.factor");
    a.warmup = data.size("inputs.adam.warmup", 1, 1000);
    a.d_model = data.size("inputs.adam.d_model", 1, 1000);
    for (bool norm_first : {false, true}) {
        Transformer m = load_transformer(data, "inputs");
        m.config.norm_first = norm_first;
        Adam adam(a);
        Random rng(data.size("inputs.adam.seed", 0, 1000));
        Matrix losses(1, 10);
        for (std::size_t s = 0; s < 10; ++s) {
            Transformer grad;
            losses(0, s) = batch_gradients(m, random_reversals(rng, 8, 1, 10),
                                           data.number("inputs.smoothing"), grad);
            adam.step(parameter_matrices(m), parameter_matrices(grad));
        }
        check_close(losses, data, norm_first ? "first_losses_pre_norm" : "first_losses_post_norm",
                    tolerance::end_to_end);
    }
}
