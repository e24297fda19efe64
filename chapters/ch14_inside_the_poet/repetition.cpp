// ch14_inside_the_poet/repetition.cpp — the preference to repeat, path by path.
#include "ch14_inside_the_poet/repetition.h"

#include <cmath>
#include <string>

#include "ch14_inside_the_poet/naming.h"
#include "report/chapter.h"
#include "inside/repeat_paths.h"
#include "text/translate.h"

namespace ch14_inside_the_poet {

void repetition_step(Chapter& ch, const Poet& p, const Measured& m) {
    ch.step(tr("Where the preference to repeat comes from"));
    const RepeatPaths r = repeat_paths(p.model, m.sample);
    if (!r.additive || r.positions == 0) {
        ch.say(r.additive ? tr("The sample has no character of a poem's body to measure at.")
                          : tr("This poet puts its norms after each block (post-norm): the "
                               "stream the output reads is no longer a plain sum of the paths, "
                               "so the preference cannot be split among them."));
        return;
    }
    Table t({tr("path"), tr("logits")});
    const bool tied = p.model.config.share_embeddings;
    t.add({tied ? tr("the embedding, read straight back out through the tied table")
                : tr("the embedding, read out through the poet's own output table"),
           fixed(r.direct, 3)});
    std::size_t top_block = 0, top_head = 0;
    double top = 0;
    for (std::size_t l = 0; l < r.heads.size(); ++l) {
        double attention = r.attention_bias[l];
        for (std::size_t h = 0; h < r.heads[l].size(); ++h) {
            attention += r.heads[l][h];
            ch.measured("repeat_head_" + head_name(l, h), r.heads[l][h]);
            if (std::fabs(r.heads[l][h]) > std::fabs(top))
                top = r.heads[l][h], top_block = l, top_head = h;
        }
        t.add({tr("block {}: attention, its {} heads and W_O's bias", l + 1, r.heads[l].size()),
               fixed(attention, 3)});
        t.add({tr("block {}: the feed-forward net", l + 1), fixed(r.feed_forward[l], 3)});
        ch.measured("repeat_block" + std::to_string(l + 1) + "_attention", attention);
        ch.measured("repeat_block" + std::to_string(l + 1) + "_ffn", r.feed_forward[l]);
    }
    if (r.norm_bias != 0) t.add({tr("the final norm's shift"), fixed(r.norm_bias, 3)});
    t.add({tr("all paths added"), fixed(r.parts(), 3)});
    t.add({tr("the preference, from the logits"), fixed(r.total, 3)});
    ch.say(tr("At the {} positions of the sample's poems whose token is a character of the body: "
              "how far above the row's mean logit the poet puts that same character next, split "
              "among the paths that add up to the stream the output reads (the final norm's "
              "scale, one number per row, shared by all).",
              grouped(r.positions)));
    ch.table(t);
    ch.measured("repeat_preference", r.total);
    ch.measured("repeat_direct", r.direct);
    ch.measured("repeat_parts_gap", r.parts() - r.total);
    if (tied)
        ch.say(tr("The preference is {} logits; the direct path gives {} of it — the tied table "
                  "reading the current character straight back out, which an untied output table "
                  "would not do; the largest single head gives {} (head {}).",
                  fixed(r.total, 2), fixed(r.direct, 2), fixed(top, 2),
                  head_name(top_block, top_head)));
    else
        ch.say(tr("The preference is {} logits; the direct path — the embedding read out through "
                  "this poet's own output table, not the table it was read in with — gives {} of "
                  "it; the largest single head gives {} (head {}).",
                  fixed(r.total, 2), fixed(r.direct, 2), fixed(top, 2),
                  head_name(top_block, top_head)));
}

}  // namespace ch14_inside_the_poet
