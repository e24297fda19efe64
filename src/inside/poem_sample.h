// poem_sample.h — poems as chapter 14 reads them through a trained poet, and the poet's residual
// stream on them.
//
// A poem is read as the poet was trained: its first `context` inputs (<bos> and the tokens
// after it, at most the training window) and the targets after them. Its body starts after the
// first line break (the title's); a clause (句) is a run of characters between punctuation marks
// (the line break among them) or specials, <unk> being a character:
//
//   <bos> 《 静 夜 思 》 \n 床 前 明 月 光 ， 疑 是 地 上 霜 。 \n …   clauses: 床前明月光,
//   疑是地上霜, …
//
// A sample keeps the residual stream before each block (gpt.h: gpt_embed, gpt_blocks): a model
// that differs from the sample's only from block l on (a head taken out there) is run from l,
// and the stream read out at any point is the logit lens.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "inside/head_ablation.h"
#include "model/transformer/tokens.h"  // exports: token ids

struct Gpt;  // model/gpt/gpt.h

using Clauses = std::vector<std::vector<std::size_t>>;  // each clause's positions in the poem

struct PoemReading {
    Tokens inputs, targets;  // targets[t] follows inputs[t]
    Clauses clauses;         // positions in the whole poem (a clause may go past the inputs)
};

// punctuation[id]: whether that token is punctuation (the data file lists which).
Clauses clauses_of(const Tokens& poem, const std::vector<bool>& punctuation);
// A whole poem (<bos> … <eos>, at least two tokens) read to its first `context` inputs.
PoemReading read_poem(const Tokens& poem, std::size_t context,
                      const std::vector<bool>& punctuation);

// The positions whose next token would double a character: the inputs that are characters of
// the body (a clause's positions before the inputs end).
std::vector<std::size_t> body_characters(const PoemReading& poem);

struct PoemSample {
    std::vector<PoemReading> poems;
    std::vector<std::size_t> batch_first;     // the first poem of each batch (and one past)
    std::vector<std::vector<Matrix>> stream;  // [batch][l]: the stream before block l (l = L:
                                              // after the last block)
    HeadOutputSums head_outputs;              // each head's output over every input position
};

// The model run once on the poems, `batch` poems at a time.
PoemSample read_sample(const Gpt& model, std::vector<PoemReading> poems, std::size_t batch = 16);

// What a model makes of the sample: per poem the summed loss of its targets (and how many); and,
// over body_characters, the summed chance it gives the same character next.
struct SampleLosses {
    std::vector<double> poem_sums;
    std::vector<std::size_t> poem_counts;
    double repeat_chances = 0;
    std::size_t repeat_positions = 0;
    double loss() const;    // nats per predicted token
    double repeat() const;  // the mean chance of the same character next
};

// The model's blocks from … to − 1 run on the sample's stream before block `from`, then read out
// (the final norm and the output projection). (0, L) is the whole model; (l, l) reads the
// stream as it stands before block l (the logit lens); (l, L) a model that differs from the
// sample's only from block l on.
SampleLosses sample_losses(const Gpt& model, const PoemSample& sample, std::size_t from,
                           std::size_t to);
