// A process-wide cache of freed host blocks, so that tensors allocated on every run reuse warm
// memory instead of asking the kernel for fresh pages each time.
//
// Why: a model run allocates each intermediate anew. Large blocks come from mmap in glibc, so
// every run paid a page fault (and a kernel zero-fill) per 4 KiB of every intermediate, which
// cost more than cheap ops such as Relu themselves; small 64-byte-aligned blocks take glibc's
// slow memalign path (no thread cache), which dominated tiny models such as the wake-word heads.
// Every request is rounded up to a size class (64-byte steps up to kSmallLimit, then eight
// classes per power of two, at most 1/8 larger) and, when freed, kept in that class's free list
// for the next allocation of the class. The cache holds at most kMaxCachedBytes; beyond that,
// freed blocks go back to the system.
//
// Thread-safe (one mutex; uncontended it costs less than the memalign it replaces).
#pragma once

#include <cstddef>

namespace trinity {

class HostMemoryPool {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kSmallLimit = 16 * 1024;
  static constexpr size_t kMaxCachedBytes = size_t{512} << 20;
#if defined(__SANITIZE_ADDRESS__)
  // Under AddressSanitizer every block goes back to the system, so ASan sees each free and
  // reports a use after it; a cache would hide those.
  static constexpr bool kCaching = false;
#else
  static constexpr bool kCaching = true;
#endif

  static HostMemoryPool& Instance();

  // 64-byte aligned block of at least `bytes` bytes (contents unspecified), or nullptr.
  void* Allocate(size_t bytes);
  // Returns a block from Allocate(bytes) (same `bytes`).
  void Free(void* p, size_t bytes);

  // Bytes held in free lists now (for tests and diagnostics).
  size_t cached_bytes() const;
  // Drops every cached block.
  void Trim();

  // The size class a request of `bytes` is served from (exposed for tests).
  static size_t RoundToClass(size_t bytes);

 private:
  HostMemoryPool() = default;
  struct State;
  State& state() const;
};

}  // namespace trinity
