// allocation.h — how a program of this book asks the C library to manage its memory.
#pragma once

// Every operation here returns a fresh Matrix, so a forward pass allocates and frees its
// temporaries (a 64 x 37,000 logits matrix, each layer's products) again on every call. glibc
// serves each large block with a new mmap, which the kernel hands over page by page, zero-filled,
// and returns it on free: thousands of page faults per pass, and on some virtual machines a
// pass that takes several times as long (tests/bench/README.md). Called once at the start of a program, this keeps freed blocks in the heap to be
// reused — blocks of up to 32 MiB (glibc's largest threshold) come from the heap, and freed
// memory is never handed back while the program runs — so after the first pass the same
// memory is used again and the page faults stop. The arithmetic is unchanged.
void reuse_freed_memory();
