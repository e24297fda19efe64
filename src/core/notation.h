// notation.h — the one legend of names this book uses for sizes. Every file writes shapes with
// these names, each with one meaning (as llm.c does at the top of train_gpt2.c). Nothing to
// compile here: it is the page to keep open while reading the others.
//
//   n        number of queries: rows of Q (in self-attention, the length of the sequence)
//   m        number of keys and values: rows of K and V (in self-attention, m = n)
//   n_src    length of a source sequence (the encoder's input)
//   n_tgt    length of a target sequence as fed to the decoder (<bos> + target[:-1])
//   d_model  width of every token vector between layers (the paper's d, 512 in its base model)
//   h        number of heads (n_heads in code)
//   d_k      width of one head's queries and keys (d_model / h in the paper: 64)
//   d_v      width of one head's values (also 64 in the paper; need not equal d_k)
//   d_ff     width of the feed-forward network's hidden layer (2048 in the paper)
//   vocab    number of tokens in a vocabulary (src_vocab, tgt_vocab)
//   k        kernel width of a convolution (chapter 8, the paper's Table 1)
//
// Shapes are written (rows x cols); a vector is a (1 x cols) row. Operations that know nothing
// of attention (matmul, transpose, …) write their shapes as (rows x inner)·(inner x cols).
// Loop counters: i over queries, j over keys, t over positions, c over columns, p over the
// inner dimension of a product.
#pragma once
