// heads.h — the heads of multi-head attention: the loop chapter 4 teaches, written once. Every
// path that attends with several heads calls it: the fused and batched model (multi_head.h),
// decoding through the KV cache, both models' forward passes on one page, and chapter 13's
// model in float32.
//
//   for each sequence s of a stack, and each head i:
//       j      = the key/value head it reads (grouped-query attention, below)
//       head_i = softmax(Q_i·K_jᵀ/√d_k + mask_s (+ ALiBi's bias for head i))·V_j
//   concat = [head_0 … head_h−1], sequence below sequence
//
// Q_i is head i's block of columns of Q (n x h·d_k), columns i·d_k … (i+1)·d_k − 1, within
// sequence s's rows: PyTorch's view(n, h, d_k).transpose(0, 1). K and V may have fewer heads
// (n_kv) than Q.
//
// Grouped-query attention (chapter 10; Ainslie et al. 2023): n_kv key/value heads serve the
// n_heads query heads, n_kv dividing n_heads, each shared by n_heads / n_kv neighbours: query
// head i reads key/value head i / (n_heads / n_kv) — kv_head() below, the one place this rule
// is written. n_kv = n_heads is multi-head attention, n_kv = 1 multi-query attention.
#pragma once
#include <cstddef>
#include <vector>

#include "core/matrix.h"
#include "model/multi_head/attending.h"  // exports: the loop reads stacks; InAttention

struct AttentionResult;  // model/attention/attention.h
struct AttentionGrads;

// How the heads' arithmetic is done: in float64 (every model but chapter 13's), in float32, or
// in float32 with every result rounded to float16 (model/attention/attention_float32.h).
enum class HeadArithmetic { Float64, Float32, Float16Results };

// What later chapters switch on inside the heads; every default is chapter 4's attention.
struct HeadOptions {
    std::size_t n_heads = 1;
    std::size_t n_kv_heads = 1;                 // grouped-query attention: fewer key/value heads
    InAttention positions = InAttention::None;  // ALiBi biases each head's scores (RoPE has
                                                // already rotated Q and K: multi_head.h)
    std::size_t q_first = 0;                    // the queries' first position (ALiBi, decoding)
    std::size_t tile = 0;                       // > 0: block by block (chapter 11), no weights kept
    HeadArithmetic arithmetic = HeadArithmetic::Float64;

    // Query head i reads key/value head i / (n_heads / n_kv_heads).
    std::size_t kv_head(std::size_t i) const { return i / (n_heads / n_kv_heads); }
};

// The loop, over a stack of sequences (stacking.h) and each sequence's heads: Q (n x h·d_k),
// K (m x n_kv·d_k), V (m x n_kv·d_v) already projected, q and kv saying which rows belong to
// which sequence, masks[s] sequence s's additive mask (its queries x its keys) or empty, the same
// in each of its heads. -> concat (n x h·d_v); each head's result (its weights, for a reader)
// goes into heads when given, sequence by sequence and head by head.
Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Stacking& q,
                    const Stacking& kv, const std::vector<Matrix>& masks,
                    const HeadOptions& options, std::vector<AttentionResult>* heads = nullptr);
// One sequence: the same loop on a stack of one.
Matrix attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, const Matrix& mask,
                    const HeadOptions& options, std::vector<AttentionResult>* heads = nullptr);

// Its backward pass (float64 only): dQ, dK, dV from d(concat) and the heads' results; a
// key/value head shared by several query heads gathers the gradient of each.
AttentionGrads attend_heads_backward(const Matrix& d_concat, const Matrix& Q, const Matrix& K,
                                     const Matrix& V, const Stacking& q, const Stacking& kv,
                                     const std::vector<Matrix>& masks, const HeadOptions& options,
                                     const std::vector<AttentionResult>& heads);
