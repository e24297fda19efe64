// test_gradients.cpp — every hand-written backward pass against central finite differences:
// (L(θ + h) − L(θ − h)) / 2h for sampled entries of every parameter matrix of a tiny model,
// both norm placements, with and without shared embeddings. Relative error ≤ 1e-6.
// (And: the key bias's gradient is exactly zero — adding q·b_K to every score of a row does not
// change its softmax.)
#include <doctest/doctest.h>

#include <cmath>

#include "model_io.h"
#include "random.h"
#include "transformer_grad.h"

static TransformerConfig tiny(bool norm_first, bool shared) {
    TransformerConfig c;
    c.d_model = 6;
    c.n_heads = 2;
    c.d_ff = 10;
    c.n_encoder_layers = 2;
    c.n_decoder_layers = 2;
    c.src_vocab = c.tgt_vocab = 9;
    c.norm_first = norm_first;
    c.share_embeddings = shared;
    return c;
}

// Biases, gains and every other parameter moved away from their initial 0 and 1, so that no
// gradient is checked at a special point.
static Transformer perturbed(const TransformerConfig& c, std::uint64_t seed) {
    Transformer m = random_transformer(c, seed);
    Random rng(seed + 100);
    for (const auto& p : named_parameters(m))
        for (double& x : p.second->data) x += 0.1 * rng.normal();
    return m;
}

// |a − n| / max(|a|, |n|, 1e-3). The floor: a central difference is only as good as its
// rounding noise, about ε·|L|/h ≈ 1e-16·2/1e-5 = 2e-11, so an error of 1e-9 (1e-6 · 1e-3, 50×
// that noise) is still a real disagreement, but a gradient that is truly 0 — the key bias
// b_K, see chapter 7 — is not failed for the finite difference's noise.
static double relative_error(double analytic, double numeric) {
    const double scale = std::max({std::fabs(analytic), std::fabs(numeric), 1e-3});
    return std::fabs(analytic - numeric) / scale;
}

TEST_CASE("backward passes match finite differences on every parameter tensor") {
    const std::vector<Example> batch = {{{3, 4, 5, 2}, {5, 4, 3, 2}}, {{6, 7, 2, 0}, {7, 6, 2, 0}}};
    for (bool norm_first : {false, true})
        for (bool shared : {false, true}) {
            CAPTURE(norm_first);
            CAPTURE(shared);
            Transformer m = perturbed(tiny(norm_first, shared), 9);
            Transformer grad;
            batch_gradients(m, batch, 0.1, grad);
            auto params = named_parameters(m);
            auto grads = named_parameters(grad);
            Random pick(3);
            for (std::size_t p = 0; p < params.size(); ++p) {
                Matrix& value = *params[p].second;
                for (int sample = 0; sample < 3; ++sample) {
                    const std::size_t i = pick.next() % value.data.size();
                    const double saved = value.data[i], h = 1e-5;
                    value.data[i] = saved + h;
                    const double up = batch_loss(m, batch, 0.1);
                    value.data[i] = saved - h;
                    const double down = batch_loss(m, batch, 0.1);
                    value.data[i] = saved;
                    const double numeric = (up - down) / (2 * h);
                    const double analytic = grads[p].second->data[i];
                    CHECK_MESSAGE(relative_error(analytic, numeric) <= 1e-6,
                                  params[p].first << "[" << i << "]: backward " << analytic << ", finite difference " << numeric);
                }
            }
        }
}

TEST_CASE("the key bias gets no gradient: softmax ignores a constant added to a whole row") {
    Transformer m = perturbed(tiny(false, false), 4);
    Transformer grad;
    batch_gradients(m, {{{3, 4, 2}, {4, 3, 2}}}, 0.1, grad);
    for (double x : grad.encoder[0].self_attn.b_K.data) CHECK(std::fabs(x) <= 1e-15);
    double other = 0.0;
    for (double x : grad.encoder[0].self_attn.b_Q.data) other = std::max(other, std::fabs(x));
    CHECK(other > 1e-6);
}

