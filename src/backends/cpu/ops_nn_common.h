// Helpers shared by the neural-network kernels (ops_nn_*.cc): window geometry for
// convolution and pooling, the f32 GEMM, XNNPACK initialisation and registration hooks.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "graph/passes.h"

struct xnn_operator;

namespace trinity {

// Per-family registration, called from RegisterNnOps (ops_nn.cc).
void RegisterNnConvOps(KernelRegistry& r);    // ops_nn_conv.cc
void RegisterNnGemmOps(KernelRegistry& r);    // ops_nn_gemm.cc
void RegisterNnPoolOps(KernelRegistry& r);    // ops_nn_pool.cc
void RegisterNnResizeOps(KernelRegistry& r);  // ops_nn_resize.cc
void RegisterNnDetectOps(KernelRegistry& r);  // ops_nn_detect.cc

// True when XNNPACK initialised (once per process, thread-safe).
bool XnnReady();

// XNNPACK operator cache (see ops_nn_conv.cc for the design): process-wide, keyed by a string
// of every creation parameter plus the weights' identity, capped with LRU eviction.
struct XnnOpDeleter {
  void operator()(xnn_operator* op) const;
};
struct CachedXnnOp {
  std::mutex mu;  // held while setting up and running op
  std::unique_ptr<xnn_operator, XnnOpDeleter> op;
  Tensor keep_w, keep_b;  // keeps mapped-file weights (identified by address) alive
};
class XnnOpCache {
 public:
  static XnnOpCache& Get();
  std::shared_ptr<CachedXnnOp> Find(const std::string& key);
  // Inserts `op` unless another thread inserted first; returns the entry to use.
  std::shared_ptr<CachedXnnOp> Insert(const std::string& key, std::shared_ptr<CachedXnnOp> op);

 private:
  static constexpr size_t kCapacity = 1024;
  struct Entry {
    std::shared_ptr<CachedXnnOp> op;
    uint64_t last_use;
  };
  std::mutex mu_;
  std::map<std::string, Entry> map_;
  uint64_t tick_ = 0;
};
uint64_t HashBytes(const void* data, size_t n);
void AppendKey(std::string* key, int64_t v);
// Appends the identity of a weight tensor (address, and a content hash unless it is immutable:
// a model constant or a mapped file) to the key; true when the cache entry must keep the tensor
// alive (so its address cannot be reused by other bytes while the entry exists).
bool AppendWeightIdentity(std::string* key, const Tensor* t, bool is_constant);
// Whether t is the kernel's input i and that input is a model constant.
inline bool IsConstantInput(const KernelContext& ctx, const Tensor* t, size_t i) {
  return t != nullptr && t == ctx.input(i) && ctx.input_is_constant(i);
}

// C = alpha * op(A) * op(B) + beta * C for row-major f32 matrices; op(A) is M x K, op(B) is
// K x N. With beta == 0, C is not read (so NaNs in it do not leak). Parallel on `pool`
// (may be nullptr for serial).
void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
           ThreadPool* pool);

// Sliding-window geometry over the spatial dims of an N x C x D1 x ... x Dk tensor.
struct WindowGeometry {
  std::vector<int64_t> in;      // input spatial dims
  std::vector<int64_t> kernel;  // kernel spatial dims
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads_begin;
  std::vector<int64_t> pads_end;
  std::vector<int64_t> out;  // output spatial dims
  size_t rank() const { return in.size(); }
};

// Reads kernel_shape (or `kernel` when non-empty), strides, dilations, pads and auto_pad of the
// node and computes the output size (with ceil_mode when `ceil_mode`). Errors name the node.
Result<WindowGeometry> ComputeWindow(const KernelContext& ctx, const std::vector<int64_t>& in,
                                     const std::vector<int64_t>& kernel, bool ceil_mode);

// y[rows x n] = a[rows x k] * op(B) (B is [n][k] when tb, else [k][n]) with XNNPACK's
// fully_connected, its packed weights cached per node (ops_nn_gemm.cc). False when XNNPACK
// refuses; the caller falls back.
bool FcXnnpack(KernelContext& ctx, const float* a, int64_t rows, int64_t k, const Tensor& b,
               bool tb, int64_t n, float* y);

// MaxPool/AveragePool (global or not) over an NHWC f32 tensor (nodes the NHWC layout pass
// marked with kLayoutAttr); see ops_nn_pool_nhwc.cc.
Status RunPoolNhwc(KernelContext& ctx, bool max, bool global);

// True when the layout pass marked the node to read and write NHWC tensors.
inline bool IsNhwcNode(const Node& n) { return n.attr_string(kLayoutAttr, "") == kLayoutNhwc; }

// Checks attribute values that make the node unrunnable whatever the inputs (used by the
// SupportFns): auto_pad spelling. Empty string when fine.
std::string CheckAutoPad(const Node& n);

}  // namespace trinity
