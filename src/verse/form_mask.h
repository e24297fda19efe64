// form_mask.h — the masks that keep the form while a poem is written: which tokens may come
// next, given the tokens so far — the same idea as chapter 3's masks, applied to the logits
// before the softmax (a token masked gets −∞, so weight 0). With any rule on, a verse keeps the
// length the first one set (5 or 7), then its comma or full stop, a couplet per line, and the
// poem ends after 2 or 4.
//   rhyme:   the last character of every second verse after the first couplet in the rhyme
//            group of the first couplet's
//   tones:   the 2nd, 4th and 6th characters alternate, each verse's 2nd opposite its couplet
//            partner's (对) and like the next couplet's first verse's (粘), second verses ending
//            level and first verses (after the first) oblique
//   no_runs: no character right after itself
// and a shape, where one is asked: every verse `length` characters (5 or 7) and the poem
// `couplets` couplets (2: a quatrain, 绝句; 4: regulated verse, 律诗); 0 leaves it to the poet.
#pragma once
#include "model/gpt/gpt_sampling.h"
#include "verse/poems.h"
#include "verse/verse.h"

struct FormRules {
    bool rhyme = false, tones = false, no_runs = false;
    std::size_t length = 0, couplets = 0;
    bool any() const { return rhyme || tones || no_runs || length || couplets; }
};
TokenMask form_mask(const CharVocabulary& v, const Pronunciations& p, FormRules rules);
