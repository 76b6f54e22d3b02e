// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace trinity {

enum class DType : uint8_t {
  kUndefined = 0,
  kF32,
  kF16,
  kBF16,
  kF64,
  kI8,
  kU8,
  kI16,
  kU16,
  kI32,
  kU32,
  kI64,
  kU64,
  kBool,
};

// Bytes per element (0 for kUndefined).
size_t dtype_size(DType t);
// Short name: "f32", "i64", "bool", ...
const char* dtype_name(DType t);
// Parses the short name; kUndefined when unknown.
DType dtype_from_name(const std::string& name);
bool dtype_is_float(DType t);    // f32, f16, bf16, f64
bool dtype_is_signed(DType t);   // floats and signed integers

}  // namespace trinity
