// Helpers shared by the neural-network kernels (ops_nn_*.cc): window geometry for
// convolution and pooling, the f32 GEMM, XNNPACK initialisation and registration hooks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"

namespace trinity {

// Per-family registration, called from RegisterNnOps (ops_nn.cc).
void RegisterNnConvOps(KernelRegistry& r);    // ops_nn_conv.cc
void RegisterNnGemmOps(KernelRegistry& r);    // ops_nn_gemm.cc
void RegisterNnPoolOps(KernelRegistry& r);    // ops_nn_pool.cc
void RegisterNnResizeOps(KernelRegistry& r);  // ops_nn_resize.cc
void RegisterNnDetectOps(KernelRegistry& r);  // ops_nn_detect.cc

// True when XNNPACK initialised (once per process, thread-safe).
bool XnnReady();

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

// Checks attribute values that make the node unrunnable whatever the inputs (used by the
// SupportFns): auto_pad spelling. Empty string when fine.
std::string CheckAutoPad(const Node& n);

}  // namespace trinity
