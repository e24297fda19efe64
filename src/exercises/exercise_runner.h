// exercise_runner.h — build/exercises: the list, the check of one exercise, the next hint.
//
//   build/exercises [list]       every exercise: done, failing or not started
//   build/exercises check [N]    exercise N, or the first one not done
//   build/exercises hint N       the next hint of exercise N (nothing is run)
//   --lang zh|en                 the language (default: the locale's)
// Exit codes: 0 (check: passed), 1 (check: failed or not written yet), 2 bad flags.
#pragma once
#include "exercises/answers.h"

int run_exercises(int argc, char** argv, const Answers& answers);
