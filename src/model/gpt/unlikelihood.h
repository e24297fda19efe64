// unlikelihood.h — a training-side try against stutters (chapter 12): the loss also pays for the
// chance of reading the token just read straight back out.
//
// At each position the model has read token c and predicts the next one. Where the next token is
// not c, the loss gains weight · −log(1 − p_c), p = softmax(logits): the more probability the
// model keeps on repeating c, the more it pays, without bound as p_c → 1. Where the next token
// is c — a doubling the training text itself holds (叠字) — nothing is added: real doublings are
// still learned, by the cross-entropy alone. (Welleck et al., 2019, "token-level unlikelihood",
// with the one candidate of the token just read.)
//
//   d/dlogit_j [−log(1 − p_c)] = p_c/(1 − p_c) · (δ_jc − p_j)
//
// log(1 − p_c) is taken as log Σ_{j≠c} e^{z_j} − log Σ_j e^{z_j}, which stays finite however close
// p_c comes to 1 (1 − p_c itself would round to 0).
#pragma once
#include "core/matrix.h"
#include "model/transformer/tokens.h"  // exports: token ids

// logits: one row per position; read: the token each row has just read; targets: the token that
// follows it (a row whose target is pad_id is skipped, as the cross-entropy skips it).
// Returns Σ over the rows of −log(1 − p_read), and when d_logits is given adds
// weight · gradient_scale · the gradient of each term to it (the shape of logits).
double unlikelihood_sum(const Matrix& logits, const Tokens& read, const Tokens& targets,
                        int pad_id, double weight = 1.0, double gradient_scale = 1.0,
                        Matrix* d_logits = nullptr);
