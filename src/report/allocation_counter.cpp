// allocation_counter.cpp — operator new and delete that count. Each block carries its size in a
// header of 16 bytes in front of it (keeping malloc's 16-byte alignment), so delete knows how
// much it frees.
#include "report/allocation_counter.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t header = 16;
std::atomic<std::size_t> in_use{0}, high_water{0};

void* counted_new(std::size_t size) {
    void* block = std::malloc(size + header);
    if (!block) throw std::bad_alloc();
    *static_cast<std::size_t*>(block) = size;
    const std::size_t now = in_use.fetch_add(size) + size;
    std::size_t seen = high_water.load();
    while (now > seen && !high_water.compare_exchange_weak(seen, now)) {
    }
    return static_cast<char*>(block) + header;
}

void counted_delete(void* p) noexcept {
    if (!p) return;
    void* block = static_cast<char*>(p) - header;
    in_use.fetch_sub(*static_cast<std::size_t*>(block));
    std::free(block);
}

}  // namespace

void* operator new(std::size_t size) { return counted_new(size); }
void* operator new[](std::size_t size) { return counted_new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return counted_new(size);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t& t) noexcept {
    return operator new(size, t);
}
void operator delete(void* p) noexcept { counted_delete(p); }
void operator delete[](void* p) noexcept { counted_delete(p); }
void operator delete(void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_delete(p); }

std::size_t bytes_in_use() { return in_use.load(); }

std::size_t peak_bytes_of(const std::function<void()>& work) {
    const std::size_t before = in_use.load();
    high_water.store(before);
    work();
    return high_water.load() - before;
}
