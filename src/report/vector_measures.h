// vector_measures.h — what chapters measure of a matrix's rows: how long each is (ch02 finds the
// longest token vector; ch05 shows that every sinusoidal row has the same length), and how far
// each lies from the next (ch05: the binary code's jumps against the sinusoids' even steps).
#pragma once
#include "core/matrix.h"

// the L2 norm of each row: (rows x 1)
Matrix row_norms(const Matrix& m);
// the Euclidean distance from each row to the next: ((rows − 1) x 1)
Matrix neighbour_distances(const Matrix& m);
