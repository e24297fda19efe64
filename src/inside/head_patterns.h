// head_patterns.h — where each head of a trained poet looks (chapter 14): its attention weights
// on poems, summed up by what the keys are.
//
// For every query position q ≥ 1 of a poem's inputs (q = 0, <bos>, can look only at itself),
// each head's weights w(q, ·) over the keys 0 … q give, averaged over the poems' queries:
//   previous       w(q, q − 1): the token just before
//   bos            w(q, 0): <bos>, where a head with nothing to find can put its weight (an
//                  "attention sink", Xiao et al. 2023)
//   punctuation    Σ w(q, k) over keys that are punctuation (the line break among them)
//   clause start   w on the latest punctuation key at or before q: where the clause being
//                  written began (a head there can count how far into the line it is)
//   entropy        −Σ w ln w, in nats: 0 for a head that looks at one key, ln(q + 1) for one
//                  that spreads evenly
// and over the queries where they are defined:
//   previous line  from the k-th character of a couplet's second verse (an even clause, the
//                  2nd, 4th, …), w on the k-th character of its first verse (the same place of
//                  the couplet's other half: 对仗, parallelism pairs them). Within a couplet only:
//                  a first verse and the couplet before it are not a pair.
//   rhyme          from the character that predicts a rhyme (the last but one of an even
//                  clause, the 4th, 6th, …), w on the last character of the even clause before
//                  (the rhyme before it)
// Each mean is over queries pooled across poems (a long poem weighs more).
#pragma once
#include <cstddef>
#include <vector>

#include "inside/poem_sample.h"

struct Gpt;  // model/gpt/gpt.h

struct HeadPatterns {
    // per head, layer-major (layer l, head i at l·h + i)
    std::vector<double> previous, bos, punctuation, clause_start, previous_line, rhyme, entropy;
    std::size_t queries = 0, start_queries = 0, line_queries = 0,
                rhyme_queries = 0;  // what
                                    // each is over
};

// punctuation[id]: whether that token is punctuation (as poem_sample.h reads clauses).
HeadPatterns head_patterns(const Gpt& model, const std::vector<PoemReading>& poems,
                           const std::vector<bool>& punctuation, std::size_t batch = 16);

// The same measures of one head that spreads its weight evenly (1/(q + 1) on each key before
// it): what each measure reads from a head that does not choose, the yardstick for the others.
HeadPatterns even_spread(const std::vector<PoemReading>& poems,
                         const std::vector<bool>& punctuation);

// Each head's weights on one sequence: [l·h + i] (n x n).
std::vector<Matrix> attention_weights(const Gpt& model, const Tokens& inputs);
