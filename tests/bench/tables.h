// tables.h — what `make bench` prints from its figures (build/bench.json's keys), and what
// `build/bench BUILD --tables` prints again from the last run's file.
#pragma once
#include "../json.h"

// The four tables: one thread, every core, the peer kernels tried, and decoding in fewer bits.
void print_tables(const Json& r);
