// gpt_one_page.h — chapter 12's GPT, forward, for one sequence, on one page. Read it first.
//
// gpt_logits (gpt.h) computes the same logits, bit for bit (tests/test_one_page.cpp), for a
// batch of sequences at once: the same steps, stacked, cached for the backward pass and for
// decoding, and shared out among threads. This one is the steps alone.
#pragma once
#include "core/matrix.h"

#include "model/transformer/tokens.h"  // exports: token ids

struct Gpt;  // model/gpt/gpt.h

// The logits of one sequence (tokens.size() x vocab): row t scores the token after tokens[t].
// Throws std::invalid_argument, in one line, for a switch this page leaves to gpt_logits
// (post-norm blocks, chapter 11's tiled attention).
Matrix gpt_logits_one_page(const Gpt& model, const Tokens& tokens);
