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

// Maps an ONNX TensorProto.DataType code to a DType; kUndefined when not one we store.
inline DType DTypeFromOnnxCode(int64_t code) {
  switch (code) {
    case 1:
      return DType::kF32;
    case 2:
      return DType::kU8;
    case 3:
      return DType::kI8;
    case 4:
      return DType::kU16;
    case 5:
      return DType::kI16;
    case 6:
      return DType::kI32;
    case 7:
      return DType::kI64;
    case 9:
      return DType::kBool;
    case 10:
      return DType::kF16;
    case 11:
      return DType::kF64;
    case 12:
      return DType::kU32;
    case 13:
      return DType::kU64;
    case 16:
      return DType::kBF16;
    default:
      return DType::kUndefined;
  }
}

}  // namespace misc
}  // namespace trinity
