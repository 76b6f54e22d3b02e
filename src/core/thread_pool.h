// A fixed-size thread pool for data-parallel kernels, built on pthreadpool (the pool XNNPACK
// uses, so our kernels and XNNPACK's share the same threads).
//
// Threading: ParallelFor may be called from one thread at a time per pool (a session owns its
// pool). A ParallelFor issued from inside a chunk runs serially on the caller.
#pragma once

#include <cstdint>
#include <functional>

struct pthreadpool;

namespace trinity {

class ThreadPool {
 public:
  // num_threads includes the calling thread; 1 means everything runs inline.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return num_threads_; }
  // Runs fn(begin, end) over chunks of [0, n), each at least `grain` long.
  void ParallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);
  // The pthreadpool handed to XNNPACK (nullptr when single-threaded).
  pthreadpool* xnn_pool() const { return pool_; }

 private:
  int num_threads_;
  pthreadpool* pool_ = nullptr;
};

}  // namespace trinity
