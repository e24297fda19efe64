// ch14_inside_the_poet/repetition.h — where chapter 12's poet's preference to write a character
// again comes from: the direct path through the tied table against each block and head
// (inside/repeat_paths.h).
#pragma once
#include "ch14_inside_the_poet/measures.h"
#include "io/saved_poet.h"

class Chapter;

namespace ch14_inside_the_poet {

void repetition_step(Chapter& ch, const Poet& p, const Measured& m);

}  // namespace ch14_inside_the_poet
