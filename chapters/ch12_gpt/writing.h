// ch12_gpt/writing.h — chapter 12's second half: the trained model writes poems.
#pragma once
#include "ch12_gpt/baselines.h"
#include "ch12_gpt/inputs.h"
#include "ch12_gpt/sounds.h"  // exports: Sounds
#include "model/gpt/gpt_sampling.h"  // exports: SamplingSettings
#include "verse/form_mask.h"

class Chapter;
struct RepeatTarget;  // verse/repeat_correction.h

namespace ch12_gpt {

// `count` poems written from the prompts in turn (none: from <bos> alone) with the settings,
// poem i drawn with its own generator seeded seed + i, 64 side by side (sample_gpt_batch); and
// poems as text.
std::vector<Tokens> write_poems(const Gpt& model, const CharVocabulary& v,
                                const SamplingSettings& s, const std::vector<std::string>& prompts,
                                std::size_t count, std::uint64_t seed);
std::vector<std::string> texts_of(const Corpus& c, const std::vector<Tokens>& poems);
std::vector<std::string> texts_of(const std::vector<Poem>& poems);
// Doubling: the poets' 叠字 against the model's stutters, on held-out poems and written ones,
// and the repeat correction β fitted on the validation poems (verse/repeat_correction.h).
// plain: the model's poems written with s and no rule kept (writing_step's); heldout: the held-out
// poems' repeat targets the held-out step read (repeat_targets, every kind 0: marked here)
void doubling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model,
                   const SamplingSettings& s, const std::vector<std::string>& plain,
                   std::vector<RepeatTarget> heldout);

// The temperature and top-p to write with: of the data file's candidates, the pair whose poems
// are most like the validation poems (in form, copied, doubled, tripled) — measured, not picked.
SamplingSettings sampling_step(Chapter& ch, const Inputs& in, const Corpus& c, const Gpt& model);
// Poems written from the prompts, then every source's poems measured as verse — held-out poems,
// the Kneser-Ney baselines, the model plain and under each mask — in one table, and told.
// returns the model's poems written with no rule kept (the verse table's "model" row)
std::vector<std::string> writing_step(Chapter& ch, const Inputs& in, const Corpus& c,
                                      const Gpt& model, const Baselines& b, const Sounds& sounds,
                                      const SamplingSettings& s);
// --form rhyme,tones,runs (or none): the rules the prompts are written again under; all three
// when --form is not given. Throws std::invalid_argument for another word.
FormRules rules_from(const Options& o);
// How every poem is drawn, before the temperature and top-p: at most the data file's max_new
// tokens, the model reading at most its training window, <unk> never drawn.
SamplingSettings base_sampling(const Inputs& in);
// --write: a saved model writes from the prompts (--prompt, or the data file's), --poems N each
// (one by default), kept to the --form rules, drawn with `seed`; nothing is trained, checked or
// measured on the corpus — the live book's poet. `about`: which model writes, one sentence.
void write_only_step(Chapter& ch, const Inputs& in, const Gpt& model, const CharVocabulary& v,
                     const Sounds& sounds, const SamplingSettings& s, std::uint64_t seed,
                     const std::string& about);

}  // namespace ch12_gpt
