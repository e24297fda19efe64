// decoding.h — make bench's decoding figures: chapter 12's decoder at the shape of llama2.c's
// stories15M (dim 288, 6 layers, 6 heads, sequence 256, vocabulary 32,000, the classifier shared
// with the embedding), seeded random weights, greedy tokens with the key/value cache, in each
// way of storing the weights (chapter 13). Our feed-forward net has 2 matrices (768 wide) where
// llama's has 3, so a token reads 13.9 million weights here against llama's 15.2 million.
#pragma once
#include <cstddef>
#include <string>

#include "../json.h"

// How much of it a run does: make bench's 256 tokens, best of 5; --smoke's few tokens, once, on a
// small model of the same kind.
struct DecodingScale {
    bool small = false;
    std::size_t tokens = 256;
    int repeats = 5;
};

// The formats, as --decode names them: float64 (the chapters' own arithmetic), float32 (float32
// weights and arithmetic), int8 (8-bit groups against float32 activations), int8x8 (8-bit groups
// against 8-bit activations).
constexpr const char* decoding_formats[] = {"float64", "float32", "int8", "int8x8"};

// Tokens per second in `format` on the current thread count, the model built before the clock
// starts. Throws std::invalid_argument for a format not in decoding_formats.
double decode_tokens_per_second(const std::string& format, const DecodingScale& scale);

// The bytes a token reads (every weight once) in float64, float32 and int8: r's
// decode_bytes_per_token_{f64,f32,int8}.
void decode_bytes(Json& r, bool small);

// The ceiling decoding meets: how fast a plain loop reads memory on the current thread count, in
// GB/s — 64 MB (small: 1 MB, in the cache) shared out in pieces as a product's panels are, each
// 8-byte word xor-ed into one of 8 sums, best of `repeats`. float32 decoding reads 55.5 MB a
// token, more than the caches hold: its tokens/s times that, against this, is how near the
// memory's speed it runs.
double memory_read_gbs(bool small, int repeats);

// `build/bench BUILD --decode FORMAT TOKENS`: the model built, then FORMAT decoded once for
// TOKENS tokens on OMP_NUM_THREADS threads; prints {"format", "tokens", "threads",
// "tokens_per_second"} as one JSON line. For tests/bench/llama2c_in_turns.sh, which runs it in
// turns with llama2.c's own programs. Exit 2 with one line for a format or count it cannot use.
int decode_child(const std::string& format, const std::string& tokens);

// make test's run of the bench (--smoke): the child once for 2 tokens (a figure, above 0) and
// once for a format it has not (exit 2, one line). Prints what was wrong; 0 if nothing, else 1.
int smoke_decode_child(const std::string& build);
