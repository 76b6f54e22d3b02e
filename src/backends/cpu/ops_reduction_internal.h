// Shared pieces of the reduction family (ops_reduction*.cc): reduce ops, softmax family,
// normalisations, losses, Einsum and Det. Internal to the CPU backend.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/dtype_dispatch.h"

namespace trinity::reduction {

void RegisterSoftmaxOps(KernelRegistry& r);  // ops_reduction_softmax.cc: softmax family, losses
void RegisterNormOps(KernelRegistry& r);     // ops_reduction_norm.cc: normalisations, LRN
void RegisterEinsumOps(KernelRegistry& r);   // ops_reduction_einsum.cc: Einsum, Det

// Refuses a known dtype of input `i` that is not in `allowed` ("Softmax: input 0 dtype i32 is
// not supported"). Unknown (kUndefined) dtypes are accepted: the kernel checks at run time.
OpSupport RequireInputDType(const SupportQuery& q, size_t i, std::initializer_list<DType> allowed);
// The run-time counterpart: an error naming the op and dtype when t's dtype is not allowed.
Status CheckDType(const KernelContext& ctx, const Tensor& t, const char* what,
                  std::initializer_list<DType> allowed);

inline constexpr std::initializer_list<DType> kFloatTypes = {DType::kF32, DType::kF64, DType::kF16,
                                                             DType::kBF16};

// Reads any floating tensor as floats; an error naming `what` for other dtypes.
Result<std::vector<float>> ReadFloats(const KernelContext& ctx, const Tensor& t, const char* what);

// exp(x) for x <= 0 in float, written so loops over it auto-vectorise (std::exp does not).
// Relative error ~2e-7 over [-87, 0]; results below exp(-87.3) are clamped to ~1e-38, which is
// harmless where it is used (softmax terms are summed with the max term, exp(0) = 1). NaN in,
// NaN out.
inline float ExpNonPositive(float x) {
  x = x < -87.3f ? -87.3f : x;  // NaN compares false and passes through
  constexpr float kMagic =
      12582912.f;  // 1.5 * 2^23: adding it rounds to an integer in the mantissa
  const float t = x * 1.44269504088896341f + kMagic;
  uint32_t bits;
  std::memcpy(&bits, &t, 4);
  const float n = t - kMagic;
  float r = x - n * 0.693359375f;  // ln2 split in two parts (Cephes) for an exact reduction
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.f;
  const uint32_t scale_bits = ((bits - 0x4B400000u) + 127u) << 23;  // 2^n
  float scale;
  std::memcpy(&scale, &scale_bits, 4);
  return y * scale;
}

template <class C>
inline C ExpNonPos(C x) {
  if constexpr (std::is_same_v<C, float>)
    return ExpNonPositive(x);
  else
    return std::exp(x);
}

}  // namespace trinity::reduction
