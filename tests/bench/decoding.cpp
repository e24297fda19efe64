// decoding.cpp — make bench's decoding figures (decoding.h).
#include "decoding.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fast/threads.h"
#include "model/gpt/gpt.h"
#include "model/low_precision/lowered_gpt.h"
#include "model/transformer/parameters.h"
#include "peers.h"
#include "report/measure.h"

namespace {

Gpt stories15m_shape(bool small) {
    TransformerConfig c;
    c.d_model = 288, c.n_heads = 6, c.d_ff = 768, c.n_encoder_layers = 0, c.n_decoder_layers = 6;
    c.src_vocab = c.tgt_vocab = 32000, c.max_positions = 256, c.share_embeddings = true;
    c.norm = NormKind::RMS, c.norm_first = true, c.positions = PositionScheme::Rope;
    if (small) c.d_model = 48, c.n_decoder_layers = 2, c.d_ff = 96, c.src_vocab = c.tgt_vocab = 300;
    return random_gpt(c, 15);
}

template <class Logits>
int greedy(const Logits& logits) {
    return static_cast<int>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

// A function that decodes `tokens` tokens from token 1, greedily, in `format`; the model it
// needs is built here, not when it runs.
std::function<void()> decoding(const std::string& format, bool small, std::size_t tokens) {
    Gpt m = stories15m_shape(small);
    if (format == "float64")
        return [m = std::move(m), tokens] {
            GptKV kv = start_gpt(m);
            int token = 1;
            for (std::size_t t = 0; t < tokens; ++t) token = greedy(gpt_step(m, kv, token).data);
        };
    LoweredGpt lowered;
    if (format == "float32")
        lowered = lower(m, WeightFormat::Float32);
    else if (format == "int8")
        lowered = lower(m, WeightFormat::Int8);
    else if (format == "int8x8")
        lowered = lower(m, WeightFormat::Int8, false, true);
    else
        throw std::invalid_argument("format '" + format +
                                    "': float64, float32, int8 or int8x8 was expected");
    return [lowered = std::move(lowered), tokens] {
        LoweredKV kv = start_lowered(lowered);
        int token = 1;
        for (std::size_t t = 0; t < tokens; ++t) token = greedy(lowered_step(lowered, kv, token));
    };
}

}  // namespace

double decode_tokens_per_second(const std::string& format, const DecodingScale& scale) {
    const std::function<void()> run = decoding(format, scale.small, scale.tokens);
    return static_cast<double>(scale.tokens) / best_seconds(run, scale.repeats);
}

void decode_bytes(Json& r, bool small) {
    const Gpt m = stories15m_shape(small);
    r["decode_bytes_per_token_f64"] = 8.0 * static_cast<double>(parameter_count(m));
    r["decode_bytes_per_token_f32"] = static_cast<double>(lower(m, WeightFormat::Float32).bytes());
    r["decode_bytes_per_token_int8"] = static_cast<double>(lower(m, WeightFormat::Int8).bytes());
}

double memory_read_gbs(bool small, int repeats) {
    const std::size_t words = (small ? 1u : 64u) << 17, piece = 1u << 15;  // of 8 bytes
    std::vector<std::uint64_t> memory(words);
    for (std::size_t i = 0; i < words; ++i) memory[i] = i * 0x9E3779B97F4A7C15ull;
    std::vector<std::uint64_t> sums(words / piece);
    const double seconds = best_seconds(
        [&] {
            parallel_for(sums.size(), words, [&](std::size_t k) {
                std::uint64_t x[8] = {};
                const std::uint64_t* w = memory.data() + k * piece;
                for (std::size_t i = 0; i < piece; i += 8)
                    for (std::size_t j = 0; j < 8; ++j) x[j] ^= w[i + j];
                sums[k] = x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6] ^ x[7];
            });
        },
        repeats);
    std::uint64_t all = 0;
    for (const std::uint64_t s : sums) all ^= s;
    if (all == 42) std::cout << "";  // the sums used, so that the loop is not left out
    return 8.0 * static_cast<double>(words) / seconds / 1e9;
}

int decode_child(const std::string& format, const std::string& tokens) {
    std::size_t n = 0, used = 0;
    try {
        n = std::stoul(tokens, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != tokens.size() || n < 1 || n > 256) {
        std::cerr << "error: bench --decode: tokens '" << tokens
                  << "': a whole number from 1 to 256 (the model's positions) was expected\n";
        return 2;
    }
    try {
        const std::function<void()> run = decoding(format, false, n);
        const auto t0 = std::chrono::steady_clock::now();
        run();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        Json r = Json::object();
        r["format"] = format, r["tokens"] = n, r["threads"] = thread_count();
        r["tokens_per_second"] = static_cast<double>(n) / seconds;
        std::cout << r.dump() << "\n";
        return 0;
    } catch (const std::invalid_argument& e) {
        std::cerr << "error: bench --decode: " << e.what() << "\n";
        return 2;
    }
}

int smoke_decode_child(const std::string& build) {
    const std::string child = build + "/bench " + build + " --decode ";
    int wrong = 0;
    try {
        const Json r = Json::parse(output_of(child + "float32 2"));
        if (!(r["tokens_per_second"].get<double>() > 0) || r["tokens"] != 2) throw std::runtime_error(r.dump());
    } catch (const std::exception& e) {
        std::cout << "bench --smoke: --decode float32 2 gave no figure: " << e.what() << "\n";
        ++wrong;
    }
    const std::string refused = output_of(child + "float16 2 2>&1; echo \"exit $?\"");
    if (refused != "error: bench --decode: format 'float16': float64, float32, int8 or int8x8 was "
                   "expected\nexit 2\n") {
        std::cout << "bench --smoke: --decode float16 2 said: " << refused << "\n";
        ++wrong;
    }
    if (wrong == 0)
        std::cout << "bench --smoke: --decode (make bench-llama2c's child): 2 tokens timed, "
                     "a format it has not refused\n";
    return wrong;
}
