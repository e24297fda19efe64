// golden_ch07.cpp — our gradients against PyTorch autograd (float64) on the same model and
// batch, and the losses of ten Adam steps against torch.optim.Adam, both to 1e-9.
#include <doctest/doctest.h>

#include "adam.h"
#include "helpers.h"
#include "model_io.h"
#include "reverse_task.h"

static std::vector<Example> batch_of(const DataFile& data) {
    std::vector<Example> out;
    for (const Json& e : data.at("inputs.gradient_batch"))
        out.push_back({e[0].get<Tokens>(), e[1].get<Tokens>()});
    return out;
}

TEST_CASE("ch07 golden: every gradient matches PyTorch autograd, both placements") {
    const DataFile data = DataFile::load("data/ch07_training.json");
    for (bool norm_first : {false, true}) {
        CAPTURE(norm_first);
        Transformer m = load_transformer(data, "inputs");
        m.config.norm_first = norm_first;
        Transformer grad;
        const double loss = batch_gradients(m, batch_of(data), data.number("inputs.smoothing"), grad);
        const std::string placement = norm_first ? "pre_norm" : "post_norm";
        CHECK(loss == doctest::Approx(data.number("expected.loss_" + placement)).epsilon(1e-12));
        const Json exported = transformer_to_json(grad);
        std::size_t compared = 0;
        for (const auto& item : exported["weights"].items()) {
            std::string key = item.key();
            for (char& c : key) c = c == '.' ? '/' : c;
            const DataFile ours = DataFile::from_json("ours", Json{{"g", item.value()}});
            const bool matrix = item.value()[0].is_array();
            check_close(matrix ? ours.matrix("g") : ours.vector("g"), data, "grad_" + placement + "/" + key, tolerance::end_to_end);
            ++compared;
        }
        std::size_t expected = 0;  // every gradient the oracle wrote was compared
        for (const auto& e : data.at("expected").items()) expected += e.key().rfind("grad_" + placement + "/", 0) == 0;
        CHECK(compared == expected);
        CHECK(compared == 68);  // PyTorch's tensors of a 2+2-layer model with separate embeddings
    }
}

TEST_CASE("ch07 golden: ten Adam steps with warm-up give PyTorch's losses") {
    const DataFile data = DataFile::load("data/ch07_training.json");
    AdamSettings a;
    a.factor = data.number("inputs.adam.factor");
    a.warmup = static_cast<std::size_t>(data.integer("inputs.adam.warmup"));
    a.d_model = static_cast<std::size_t>(data.integer("inputs.adam.d_model"));
    for (bool norm_first : {false, true}) {
        Transformer m = load_transformer(data, "inputs");
        m.config.norm_first = norm_first;
        Adam adam(a);
        Random rng(static_cast<std::uint64_t>(data.integer("inputs.adam.seed")));
        Matrix losses(1, 10);
        for (std::size_t s = 0; s < 10; ++s) {
            Transformer grad;
            losses(0, s) = batch_gradients(m, random_reversals(rng, 8, 1, 10), data.number("inputs.smoothing"), grad);
            std::vector<Matrix*> p, g;
            for (const auto& x : named_parameters(m)) p.push_back(x.second);
            for (const auto& x : named_parameters(grad)) g.push_back(x.second);
            adam.step(p, g);
        }
        check_close(losses, data, norm_first ? "first_losses_pre_norm" : "first_losses_post_norm", tolerance::end_to_end);
    }
}
