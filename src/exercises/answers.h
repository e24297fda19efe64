// answers.h — a set of answers to the exercises: one function for each, of the exercise's type.
//
// The checker judges a set: yours (the functions of chapters/exercises/, build/exercises), the
// shipped stubs (the tests: each says "not written yet"), the project's own functions (the
// answers: every exercise passes), or the project's with one mistake put in (the tests: each
// mistake is recognised by its own hint).
#pragma once
#include "exercises/your_functions.h"

struct Answers {
    decltype(&exercise::scores) scores;
    decltype(&exercise::softmax_rows) softmax_rows;
    decltype(&exercise::attention) attention;
    decltype(&exercise::causal_mask) causal_mask;
    decltype(&exercise::padding_mask) padding_mask;
    decltype(&exercise::masked_attention) masked_attention;
    decltype(&exercise::split_heads) split_heads;
    decltype(&exercise::merge_heads) merge_heads;
    decltype(&exercise::sinusoidal_encoding) sinusoidal_encoding;
    decltype(&exercise::rope_rotate) rope_rotate;
    decltype(&exercise::alibi_bias) alibi_bias;
    decltype(&exercise::layer_norm) layer_norm;
    decltype(&exercise::layer_norm_backward) layer_norm_backward;
    decltype(&exercise::rms_norm) rms_norm;
    decltype(&exercise::softmax_rows_backward) softmax_rows_backward;
    decltype(&exercise::smoothed_cross_entropy) smoothed_cross_entropy;
    decltype(&exercise::adam_step) adam_step;
    decltype(&exercise::kv_cache_step) kv_cache_step;
    decltype(&exercise::beam_step) beam_step;
    decltype(&exercise::nucleus) nucleus;
    decltype(&exercise::online_softmax_update) online_softmax_update;
    decltype(&exercise::grouped_query_attention) grouped_query_attention;
    decltype(&exercise::kneser_ney_bigram) kneser_ney_bigram;
    decltype(&exercise::quantize_group) quantize_group;
    decltype(&exercise::to_bfloat16) to_bfloat16;
    decltype(&exercise::without_head) without_head;
};

// The project's own functions, each called as the exercise asks (answers.cpp): the reference.
Answers project_answers();

// The functions of namespace exercise as this program was linked with them: yours in
// build/exercises, the shipped stubs in the tests (tests/exercises/start/).
Answers linked_answers();
