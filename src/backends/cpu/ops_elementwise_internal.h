// Helpers shared by the elementwise op files (ops_elementwise*.cc): dtype masks for supports()
// checks, a broadcast plan that collapses N-d broadcasting into rows of a contiguous inner loop,
// and a parallel unary map.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/dtype_dispatch.h"

namespace trinity::elementwise {

// ---- dtype sets -------------------------------------------------------------------------------

using DTypeMask = uint32_t;
constexpr DTypeMask Bit(DType t) { return DTypeMask{1} << static_cast<int>(t); }
constexpr DTypeMask kFloatTypes =
    Bit(DType::kF32) | Bit(DType::kF64) | Bit(DType::kF16) | Bit(DType::kBF16);
constexpr DTypeMask kSignedIntTypes =
    Bit(DType::kI8) | Bit(DType::kI16) | Bit(DType::kI32) | Bit(DType::kI64);
constexpr DTypeMask kUnsignedIntTypes =
    Bit(DType::kU8) | Bit(DType::kU16) | Bit(DType::kU32) | Bit(DType::kU64);
constexpr DTypeMask kIntTypes = kSignedIntTypes | kUnsignedIntTypes;
constexpr DTypeMask kNumericTypes = kFloatTypes | kIntTypes;
constexpr DTypeMask kBoolType = Bit(DType::kBool);
constexpr DTypeMask kAllTypes = kNumericTypes | kBoolType;

inline bool InMask(DType t, DTypeMask m) { return (Bit(t) & m) != 0; }

// Compile-time InMask for the C++ element type T (false for void), to skip instantiating
// element code for dtypes an op does not take.
template <class T, DTypeMask M>
constexpr bool TypeIn() {
  if constexpr (std::is_void_v<T>)
    return false;
  else
    return (Bit(DTypeOf<T>::value) & M) != 0;
}

// supports(): every listed input whose type is known must be in `mask`.
SupportFn TypesSupport(const std::string& op, DTypeMask mask, std::vector<int> inputs = {0});
// The runtime twin: an error naming the op and dtype when `t` is not in `mask`.
Status CheckType(const KernelContext& ctx, const Tensor& t, DTypeMask mask, const char* what);
// Every present input 0..n-1 must exist (n required inputs) and share one dtype.
Status CheckSameTypeInputs(const KernelContext& ctx, size_t n);

// ---- broadcasting -----------------------------------------------------------------------------

// Output elements as `rows` rows of `inner` contiguous elements. Dims of size 1 are dropped and
// adjacent dims are merged wherever every input stays linear across them, so the common cases
// (same shape, scalar operand, bias over the last dim) become one or few long rows. Each input's
// inner stride is 0 (broadcast) or 1.
struct BroadcastPlan {
  static constexpr int kMaxInputs = 3;
  int num_inputs = 0;
  std::vector<int64_t> dims;                     // collapsed output dims, at least one
  std::vector<int64_t> strides[kMaxInputs];      // per collapsed dim, in elements
  int64_t inner = 1;                             // dims.back()
  int64_t rows = 1;                              // product of the other dims
  int64_t inner_stride[kMaxInputs] = {0, 0, 0};  // strides[k].back()
  int64_t numel = 0;
};

BroadcastPlan MakeBroadcastPlan(const std::vector<int64_t>& out_shape,
                                const std::vector<const std::vector<int64_t>*>& in_shapes);

// Calls fn(offsets, row_begin_element, count) for every row in [row_begin, row_end); offsets[k]
// is input k's element offset at the row start. Uses an odometer, not a division per row.
template <class F>
void ForEachRow(const BroadcastPlan& p, int64_t row_begin, int64_t row_end, F&& fn) {
  const int nd = static_cast<int>(p.dims.size()) - 1;  // outer dims
  std::vector<int64_t> idx(static_cast<size_t>(std::max(nd, 0)), 0);
  int64_t off[BroadcastPlan::kMaxInputs] = {0, 0, 0};
  int64_t r = row_begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = r % p.dims[d];
    r /= p.dims[d];
    for (int k = 0; k < p.num_inputs; ++k) off[k] += idx[d] * p.strides[k][d];
  }
  for (int64_t row = row_begin; row < row_end; ++row) {
    fn(static_cast<const int64_t*>(off), row * p.inner, p.inner);
    for (int d = nd - 1; d >= 0; --d) {
      ++idx[d];
      for (int k = 0; k < p.num_inputs; ++k) off[k] += p.strides[k][d];
      if (idx[d] < p.dims[d]) break;
      for (int k = 0; k < p.num_inputs; ++k) off[k] -= idx[d] * p.strides[k][d];
      idx[d] = 0;
    }
  }
}

// Runs fn(offsets, out_begin, count) over the whole plan in parallel; each call covers `count`
// output elements that are contiguous in the output and linear (stride 0 or 1) in each input.
template <class F>
void ParallelBroadcast(ThreadPool& pool, const BroadcastPlan& p, int64_t grain_elems, F&& fn) {
  if (p.numel == 0) return;
  if (p.rows == 1) {
    pool.ParallelFor(p.inner, grain_elems, [&](int64_t b, int64_t e) {
      int64_t off[BroadcastPlan::kMaxInputs];
      for (int k = 0; k < p.num_inputs; ++k) off[k] = b * p.inner_stride[k];
      fn(static_cast<const int64_t*>(off), b, e - b);
    });
    return;
  }
  const int64_t grain_rows = std::max<int64_t>(1, grain_elems / std::max<int64_t>(1, p.inner));
  pool.ParallelFor(p.rows, grain_rows, [&](int64_t b, int64_t e) { ForEachRow(p, b, e, fn); });
}

// Grain sizes: elements per parallel chunk for cheap and for transcendental element functions.
constexpr int64_t kCheapGrain = 32768;
constexpr int64_t kMathGrain = 4096;

// out[i] = f(in[i]) over contiguous arrays, in parallel.
template <class TI, class TO, class F>
void UnaryMap(ThreadPool& pool, const TI* in, TO* out, int64_t n, int64_t grain, F f) {
  pool.ParallelFor(n, grain, [in, out, &f](int64_t b, int64_t e) {
    // Locals, not closure members: stores through dst cannot then alias the pointers, so the
    // loop vectorises.
    const TI* src = in;
    TO* dst = out;
    const F fn = f;
    for (int64_t i = b; i < e; ++i) dst[i] = fn(src[i]);
  });
}

// Forces an element function into its loop: in these large translation units GCC otherwise
// leaves some per-element lambdas as calls, which blocks vectorisation.
#define TRINITY_ELEM_INLINE __attribute__((always_inline))

// ---- conversions ------------------------------------------------------------------------------

// Float (any width) to integer without UB: NaN -> 0, out-of-range saturates, else truncates.
template <class TO>
TO SaturatingFloatToInt(double d) {
  if (d != d) return TO(0);
  constexpr double lo = static_cast<double>(std::numeric_limits<TO>::lowest());
  constexpr double hi = static_cast<double>(std::numeric_limits<TO>::max());
  if (d <= lo) return std::numeric_limits<TO>::lowest();
  if (d >= hi) return std::numeric_limits<TO>::max();
  return static_cast<TO>(d);
}

}  // namespace trinity::elementwise

// Defined in ops_elementwise_unary.cc; called by RegisterElementwiseOps.
namespace trinity {
void RegisterElementwiseUnaryOps(KernelRegistry& r);
// trinity::ElementwiseChain (ops_elementwise_chain.cc), made by graph/fusion_chain.cc.
void RegisterElementwiseChainOp(KernelRegistry& r);
}  // namespace trinity
