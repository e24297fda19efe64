// example.h — one training example of a sequence-to-sequence task: what goes in, what should
// come out (chapter 7's reversal and numerals tasks draw them).
#pragma once
#include "model/transformer/tokens.h"  // exports: token ids

struct Example {
    Tokens source;  // e.g. digits then <eos>
    Tokens target;  // what the decoder should produce, ending with <eos>
};
