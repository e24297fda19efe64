// ch12_gpt/oracle_checks.h — what chapter 12 checks on the oracle's small inputs (--check):
// the model, the optimiser, the baselines' formulas and the verse measures.
#pragma once
#include "ch12_gpt/inputs.h"

class Chapter;

namespace ch12_gpt {

// Two tiny models' logits, losses, gradients and sliding-window losses against PyTorch, and the
// KV cache against the whole pass.
void against_pytorch(Chapter& ch, const Inputs& in);
// Steps of AdamW under the chapter's schedule, against torch.optim.AdamW's losses.
void adamw_check(Chapter& ch, const Inputs& in);
// The unigram and Kneser-Ney losses and discounts against data/oracle/kneser_ney.py.
void baselines_check(Chapter& ch, const Inputs& in);
// Rhyme groups, tones and the verse measures against data/oracle/verse.py.
void verse_check(Chapter& ch, const Inputs& in);

}  // namespace ch12_gpt
