// transformer_one_page.h — chapter 6's encoder-decoder, forward, for one source and one decoder
// input, on one page. Read it first.
//
// logits_teacher_forced (transformer.h) computes the same logits, bit for bit
// (tests/test_one_page.cpp), through encode and decode: the same steps for a batch of sequences
// at once, cached for the backward pass and for decoding (chapter 9's KV cache), and shared out
// among threads. This one is the steps alone.
#pragma once
#include "core/matrix.h"

#include "model/transformer/tokens.h"  // exports: token ids

struct Transformer;  // model/transformer/transformer.h

// The logits of one decoder input (decoder_input.size() x tgt_vocab): row t scores the token
// after decoder_input[t], having read the whole source. Throws std::invalid_argument, in one
// line, for chapter 11's tiled attention, which this page leaves to logits_teacher_forced.
Matrix transformer_logits_one_page(const Transformer& model, const Tokens& source,
                                   const Tokens& decoder_input);
