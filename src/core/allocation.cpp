// allocation.cpp — glibc's malloc told to keep what is freed (see allocation.h).
#include "core/allocation.h"

#include <cstdlib>  // defines __GLIBC__ on a glibc system
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void reuse_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);  // glibc's maximum: larger blocks still mmap
    mallopt(M_TRIM_THRESHOLD, 1 << 30);           // keep up to 1 GiB of freed heap
#endif
}
