#include "core/host_memory_pool.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace trinity {

struct HostMemoryPool::State {
  mutable std::mutex mu;
  std::vector<std::vector<void*>> small_lists =  // class size / 64 -> free blocks
      std::vector<std::vector<void*>>(kSmallLimit / kAlignment + 1);
  std::map<size_t, std::vector<void*>> large_lists;  // class size -> free blocks
  std::vector<void*>& list(size_t cls) {
    return cls <= kSmallLimit ? small_lists[cls / kAlignment] : large_lists[cls];
  }
  size_t cached = 0;
};

HostMemoryPool& HostMemoryPool::Instance() {
  static HostMemoryPool pool;
  return pool;
}

HostMemoryPool::State& HostMemoryPool::state() const {
  // Leaked on purpose: tensors freed by static destructors after main() still find the pool.
  static State* s = new State;
  return *s;
}

size_t HostMemoryPool::RoundToClass(size_t bytes) {
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded <= kSmallLimit) return rounded;
  // Eight classes per power of two: waste is below 1/8 of the request.
  size_t top = size_t{1} << (63 - __builtin_clzll(rounded));
  const size_t step = top / 8;
  return (rounded + step - 1) / step * step;
}

void* HostMemoryPool::Allocate(size_t bytes) {
  const size_t cls = RoundToClass(bytes == 0 ? 1 : bytes);
  if (cls < bytes) return nullptr;  // overflow
  {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    std::vector<void*>& free = s.list(cls);
    if (!free.empty()) {
      void* p = free.back();
      free.pop_back();
      s.cached -= cls;
      return p;
    }
  }
  return std::aligned_alloc(kAlignment, cls);
}

void HostMemoryPool::Free(void* p, size_t bytes) {
  if (p == nullptr) return;
  const size_t cls = RoundToClass(bytes == 0 ? 1 : bytes);
  if (kCaching) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.cached + cls <= kMaxCachedBytes) {
      s.list(cls).push_back(p);
      s.cached += cls;
      return;
    }
  }
  std::free(p);
}

size_t HostMemoryPool::cached_bytes() const {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.cached;
}

void HostMemoryPool::Trim() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  for (auto& blocks : s.small_lists) {
    for (void* p : blocks) std::free(p);
    blocks.clear();
  }
  for (auto& [_, blocks] : s.large_lists)
    for (void* p : blocks) std::free(p);
  s.large_lists.clear();
  s.cached = 0;
}

}  // namespace trinity
