// ch13_precision/speed.h — faster because smaller: decoding timed in each weight format.
#pragma once
struct Gpt;  // model/gpt/gpt.h

class Chapter;

// 64 tokens through the KV cache in each format, each timed once in each of 5 rounds and the
// best kept; the table, a chart, and whether the bytes or the arithmetic set the pace.
void speed_step(Chapter& ch, const Gpt& model);
