#include "core/thread_pool.h"

#include <pthreadpool.h>

#include <algorithm>

namespace trinity {
namespace {

thread_local bool t_in_parallel = false;

struct Job {
  const std::function<void(int64_t, int64_t)>* fn;
  int64_t n;
};

void RunTile(void* ctx, size_t start, size_t tile) {
  auto* job = static_cast<Job*>(ctx);
  const bool was = t_in_parallel;
  t_in_parallel = true;
  const int64_t b = static_cast<int64_t>(start);
  (*job->fn)(b, std::min<int64_t>(job->n, b + static_cast<int64_t>(tile)));
  t_in_parallel = was;
}

}  // namespace

ThreadPool::ThreadPool(int num_threads) : num_threads_(std::max(1, num_threads)) {
  if (num_threads_ > 1) pool_ = pthreadpool_create(static_cast<size_t>(num_threads_));
}

ThreadPool::~ThreadPool() {
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
}

void ThreadPool::ParallelFor(int64_t n, int64_t grain,
                             const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(1, grain);
  if (pool_ == nullptr || t_in_parallel || n <= grain) {
    fn(0, n);
    return;
  }
  // About 4 chunks per thread balances load without much scheduling overhead.
  const int64_t chunks = std::min<int64_t>((n + grain - 1) / grain, int64_t{4} * num_threads_);
  const int64_t tile = (n + chunks - 1) / chunks;
  Job job{&fn, n};
  pthreadpool_parallelize_1d_tile_1d(pool_, RunTile, &job, static_cast<size_t>(n),
                                     static_cast<size_t>(tile), 0);
}

}  // namespace trinity
