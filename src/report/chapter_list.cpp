// chapter_list.cpp — the chapters in reading order.
#include "report/chapter_list.h"

const std::vector<std::string>& chapter_names() {
    static const std::vector<std::string> names = {
        "ch01_dictionary_lookup", "ch02_self_attention",  "ch03_masked_attention",
        "ch04_multi_head_attention", "ch05_positional_encoding", "ch06_encoder_decoder",
        "ch07_training",          "ch08_cost",            "ch09_decoding",
        "ch10_modern_attention",  "ch11_long_sequences",  "ch12_gpt",
        "ch13_precision",         "ch14_inside_the_poet"};
    return names;
}
