// ch12_gpt/one_poem.h — one written poem shown to the reader: the prompt it was written from
// and what the model makes of it, the poem line by line, and its verdict by each table.
#pragma once
#include <cstddef>
#include <string>

#include "ch12_gpt/sounds.h"
#include "verse/poems.h"

class Chapter;

namespace ch12_gpt {

// A poem, a line of it per line, indented; a line too long for the terminal goes on below.
void print_poem(Chapter& ch, const std::string& text);
// What the model will read of a prompt, said: characters it does not know (<unk>), a prompt
// longer than its window, a prompt that opens a title, a prompt with no title (a first verse).
void say_prompt(Chapter& ch, const CharVocabulary& v, const std::string& prompt,
                std::size_t context);
// "from "《春晓》":" — a long prompt by its first characters and its length; a line break as \n.
std::string prompt_heading(const std::string& prompt);
// One written poem judged by each table there is: its rhymes, its tones, its regulated form,
// every clause said, or said to be absent.
void say_judged(Chapter& ch, const std::string& text, const Sounds& sounds);

}  // namespace ch12_gpt
