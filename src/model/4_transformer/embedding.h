// embedding.h — from token ids to vectors: a row of the embedding table per token, times
// √d_model, plus the sinusoidal positional encoding of its position (the paper's §3.4, §3.5).
#pragma once
#include "core/matrix.h"
#include <vector>

#include "model/4_transformer/tokens.h"

// table (vocab x d_model), ids (n ids) -> (n x d_model). An id outside the table throws
// std::out_of_range naming it.
Matrix embed(const Matrix& table, const Tokens& ids);

// One token at a given position (1 x d_model): what a decoder fed one token at a time embeds.
Matrix embed_at(const Matrix& table, int id, std::size_t position);

// A stack of sequences (stacking.h), each with its own positions 0, 1, 2, …
Matrix embed(const Matrix& table, const std::vector<Tokens>& sequences);

// Adds dL/d(table) into d_table: row id_t receives dx[t] · √d_model (the positional encoding
// is a constant and has no gradient).
void embed_backward(const Matrix& dx, const Tokens& ids, Matrix& d_table);
