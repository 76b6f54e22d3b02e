// Helpers shared by the tensor-manipulation kernels (ops_shape*.cc). These ops move bytes and
// never look at values, so most of them work on element size rather than dtype.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/dtype_dispatch.h"

namespace trinity::shape_ops {

// Registration of each file's kernels; RegisterShapeOps calls all of them.
void RegisterViewOps(KernelRegistry& r);   // ops_shape.cc
void RegisterCopyOps(KernelRegistry& r);   // ops_shape_copy.cc
void RegisterIndexOps(KernelRegistry& r);  // ops_shape_index.cc
void RegisterSortOps(KernelRegistry& r);   // ops_shape_sort.cc

// Calls f(TypeTag<U>{}) with the unsigned integer type as wide as one element, so byte-moving
// loops copy whole elements. Every Trinity dtype is 1, 2, 4 or 8 bytes wide.
template <class F>
auto visit_size(size_t esz, F&& f) {
  switch (esz) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    default:
      return f(TypeTag<uint64_t>{});
  }
}

// A new output tensor, or an error naming the shape (negative dims, absurd sizes).
Result<Tensor> NewTensor(const KernelContext& ctx, DType dtype, const std::vector<int64_t>& shape);

// Copies the elements of a strided view of `src` into contiguous `dst`. `shape` is the output
// shape and `strides` the source step per output dim, in elements (may be 0 or negative).
// Dims are coalesced first; a transposed innermost pair takes a cache-blocked path.
void StridedCopy(void* dst, const void* src, std::vector<int64_t> shape,
                 std::vector<int64_t> strides, size_t esz, ThreadPool* pool);

// The integer values of an optional 1-D (or scalar) int tensor input; empty when absent.
Result<std::vector<int64_t>> ReadIntsInput(const KernelContext& ctx, size_t i, const char* what);

// Reads a scalar (or one-element) integer tensor of any integer dtype.
Result<int64_t> ReadIntScalar(const KernelContext& ctx, const Tensor& t, const char* what);

// Reads element i of any numeric tensor as a double.
double ReadAsDouble(const Tensor& t, int64_t i);
// Writes v (converted) into element i of a tensor of any dtype.
void WriteFromDouble(Tensor& t, int64_t i, double v);

// Addition and multiplication that wrap around for integers (no signed-overflow UB).
template <class C>
inline C WrapAdd(C a, C b) {
  if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
    using UC = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<UC>(a) + static_cast<UC>(b));
  } else {
    return static_cast<C>(a + b);
  }
}
template <class C>
inline C WrapMul(C a, C b) {
  if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
    using UC = std::make_unsigned_t<C>;
    // Promote through unsigned long long so narrow types do not promote to signed int.
    return static_cast<C>(static_cast<UC>(static_cast<unsigned long long>(static_cast<UC>(a)) *
                                          static_cast<unsigned long long>(static_cast<UC>(b))));
  } else {
    return static_cast<C>(a * b);
  }
}

// Decimal text of an integer, for error messages.
inline std::string Num(int64_t v) { return std::to_string(v); }

// Product of shape[begin:end).
inline int64_t Prod(const std::vector<int64_t>& s, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end && i < s.size(); ++i) p *= s[i];
  return p;
}

// A refusal when dtype t is known and not numeric (bool).
inline OpSupport RequireNumeric(const SupportQuery& q, size_t input, const char* what) {
  const DType t = q.input_type(input);
  if (t == DType::kBool) {
    return OpSupport::No(q.node.op_type + ": " + what + " of dtype bool is not supported");
  }
  return OpSupport::Yes();
}

}  // namespace trinity::shape_ops
