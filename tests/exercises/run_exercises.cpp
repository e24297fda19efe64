// run_exercises.cpp — build/exercises: the exercises judged on the functions it was linked
// with, yours from chapters/exercises/ (make exercises; src/exercises/exercise_runner.h says
// what it does).
#include "exercises/exercise_runner.h"

int main(int argc, char** argv) { return run_exercises(argc, argv, linked_answers()); }
