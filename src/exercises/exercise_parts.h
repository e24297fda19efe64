// exercise_parts.h — the exercise lists, by part of the book (exercise_list.cpp joins them).
#pragma once
#include <vector>

#include "exercises/exercise_list.h"

std::vector<Exercise> attention_exercises();  // 1-8: chapters 1-4
std::vector<Exercise> layer_exercises();      // 9-14: chapters 5-7
std::vector<Exercise> later_exercises();      // 15-26: chapters 9-14
