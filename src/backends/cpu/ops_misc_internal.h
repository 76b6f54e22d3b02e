// Helpers shared by the misc op families (RNNs, quantization, signal processing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/dtype_dispatch.h"

namespace trinity {

void RegisterMiscRnnOps(KernelRegistry& r);     // ops_misc_rnn.cc: RNN, GRU, LSTM
void RegisterMiscQuantOps(KernelRegistry& r);   // ops_misc_quant.cc: (De)QuantizeLinear, ...
void RegisterMiscSignalOps(KernelRegistry& r);  // ops_misc_signal.cc: DFT, STFT, windows, mel

namespace misc {

// Reads a one-element integer tensor (i32 or i64) as a scalar.
inline Result<int64_t> ReadIntScalar(const KernelContext& ctx, const Tensor* t, const char* what) {
  if (t == nullptr) return ctx.Error(std::string(what) + " is missing");
  if (t->numel() != 1) {
    return ctx.Error(std::string(what) + " must hold exactly one value, got " + t->Describe());
  }
  if (t->dtype() == DType::kI64) return t->data<int64_t>()[0];
  if (t->dtype() == DType::kI32) return static_cast<int64_t>(t->data<int32_t>()[0]);
  return ctx.Error(std::string(what) + " must be i32 or i64, got " + t->Describe());
}

// Reads a one-element floating tensor (any float dtype) as a double.
inline Result<double> ReadFloatScalar(const KernelContext& ctx, const Tensor* t, const char* what) {
  if (t == nullptr) return ctx.Error(std::string(what) + " is missing");
  if (t->numel() != 1) {
    return ctx.Error(std::string(what) + " must hold exactly one value, got " + t->Describe());
  }
  return visit_float_dtype(t->dtype(), [&](auto tag) -> Result<double> {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Error(std::string(what) + " must be a float tensor, got " + t->Describe());
    } else {
      return static_cast<double>(to_compute(t->data<T>()[0]));
    }
  });
}

// Copies a float tensor of any float dtype into a vector of C (float or double).
template <class C>
std::vector<C> ToComputeVector(const Tensor& t) {
  std::vector<C> v(static_cast<size_t>(t.numel()));
  visit_float_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_void_v<T>) {
      const T* p = t.data<T>();
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<C>(to_compute(p[i]));
    }
  });
  return v;
}

}  // namespace misc
}  // namespace trinity
