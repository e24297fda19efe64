// ch12_gpt/writing.h — chapter 12's second half: the trained model writes poems.
#pragma once
#include "ch12_gpt/baselines.h"
#include "ch12_gpt/inputs.h"
#include "model/gpt/gpt_sampling.h"

class Chapter;

// The temperature and top-p to write with: of the data file's candidates, the pair whose poems
// are most like the validation poems (in form, copied, doubled, tripled) — measured, not picked.
SamplingSettings sampling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model);
// Poems written from the prompts, then every source's poems measured as verse — held-out poems,
// the Kneser-Ney baselines, the model plain and under each mask — in one table, and told.
void writing_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                  const Baselines& b, const Pronunciations& sounds, const SamplingSettings& s);
// --form rhyme,tones,runs (or none): the rules the prompts are written again under; all three
// when --form is not given. Throws std::invalid_argument for another word.
FormRules rules_from(const Options& o);
