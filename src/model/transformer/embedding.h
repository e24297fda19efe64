// embedding.h — from token ids to vectors: a row of the embedding table per token, times
// √d_model, plus a vector for its position (the paper's §3.4, §3.5): the sinusoidal table, or
// (chapter 10) a learned table, or nothing when positions act inside attention (RoPE, ALiBi) or
// not at all.
#pragma once
#include <vector>

#include "core/matrix.h"
#include "model/transformer/config.h"  // exports: PositionScheme, an AddedPositions member
#include "model/transformer/tokens.h"  // exports: token ids

// What is added to each token's embedding for its position.
struct AddedPositions {
    PositionScheme scheme = PositionScheme::Sinusoidal;
    const Matrix* learned = nullptr;  // (max_positions x d_model): row p for position p (Learned)
};

// table (vocab x d_model), ids (n ids) -> (n x d_model). An id outside the table, or a position
// beyond a learned table, throws std::out_of_range naming it.
Matrix embed(const Matrix& table, const Tokens& ids, const AddedPositions& added = {});

// One token at a given position (1 x d_model): what a decoder fed one token at a time embeds.
Matrix embed_at(const Matrix& table, int id, std::size_t position,
                const AddedPositions& added = {});

// A stack of sequences (stacking.h), each with its own positions 0, 1, 2, …
Matrix embed(const Matrix& table, const std::vector<Tokens>& sequences,
             const AddedPositions& added = {});

// Adds dL/d(table) into d_table: row id_t receives dx[t] · √d_model; with a learned position
// table, row p of d_learned receives dx of every token at position p. (The sinusoidal table is
// a constant and has no gradient.)
void embed_backward(const Matrix& dx, const std::vector<Tokens>& sequences, Matrix& d_table,
                    Matrix* d_learned = nullptr);
