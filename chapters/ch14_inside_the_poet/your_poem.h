// ch14_inside_the_poet/your_poem.h — chapter 14 on a poem the reader types (--poem TEXT): where
// each head of the saved poet looks on it, and every head's weights as heatmaps, block by block.
// Nothing else is measured and no corpus is read: the live book's page for the poet.
#pragma once
#include <string>

#include "ch14_inside_the_poet/inputs.h"

class Chapter;

namespace ch14_inside_the_poet {

// The poem read by the model of model_path (a file chapter 12 saved); throws UsageError for a
// poem of no character, DataError for a bad model file.
void your_poem_step(Chapter& ch, const Inputs& in, const std::string& model_path,
                    const std::string& text);

}  // namespace ch14_inside_the_poet
