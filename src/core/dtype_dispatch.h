// Maps DType to C++ types and dispatches a generic lambda over them.
//
//   return visit_dtype(t.dtype(), [&](auto tag) -> Status {
//     using T = typename decltype(tag)::type;
//     ...
//   });
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/half.h"
#include "trinity/dtype.h"
#include "trinity/status.h"

namespace trinity {

template <class T>
struct TypeTag {
  using type = T;
};

template <class T>
struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::kF32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::kF64; };
template <> struct DTypeOf<Float16> { static constexpr DType value = DType::kF16; };
template <> struct DTypeOf<BFloat16> { static constexpr DType value = DType::kBF16; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::kI8; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::kU8; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::kI16; };
template <> struct DTypeOf<uint16_t> { static constexpr DType value = DType::kU16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::kI32; };
template <> struct DTypeOf<uint32_t> { static constexpr DType value = DType::kU32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::kI64; };
template <> struct DTypeOf<uint64_t> { static constexpr DType value = DType::kU64; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::kBool; };

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// The type arithmetic on T happens in: float for the 16-bit floats, T otherwise.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

template <class T>
inline compute_t<T> to_compute(T v) {
  if constexpr (is_half_v<T>) return static_cast<float>(v);
  else return v;
}
template <class T, class C>
inline T from_compute(C v) {
  if constexpr (is_half_v<T>) return T(static_cast<float>(v));
  else return static_cast<T>(v);
}

// Calls f(TypeTag<T>{}) for every dtype.
template <class F>
auto visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::kF32: return f(TypeTag<float>{});
    case DType::kF64: return f(TypeTag<double>{});
    case DType::kF16: return f(TypeTag<Float16>{});
    case DType::kBF16: return f(TypeTag<BFloat16>{});
    case DType::kI8: return f(TypeTag<int8_t>{});
    case DType::kU8: return f(TypeTag<uint8_t>{});
    case DType::kI16: return f(TypeTag<int16_t>{});
    case DType::kU16: return f(TypeTag<uint16_t>{});
    case DType::kI32: return f(TypeTag<int32_t>{});
    case DType::kU32: return f(TypeTag<uint32_t>{});
    case DType::kI64: return f(TypeTag<int64_t>{});
    case DType::kU64: return f(TypeTag<uint64_t>{});
    case DType::kBool: return f(TypeTag<bool>{});
    default: return f(TypeTag<void>{});  // callers handle void as "unsupported dtype"
  }
}

// Numeric dtypes only (no bool); bool and undefined reach f(TypeTag<void>{}).
template <class F>
auto visit_numeric_dtype(DType t, F&& f) {
  if (t == DType::kBool) return f(TypeTag<void>{});
  return visit_dtype(t, std::forward<F>(f));
}

// Floating dtypes only; the rest reach f(TypeTag<void>{}).
template <class F>
auto visit_float_dtype(DType t, F&& f) {
  switch (t) {
    case DType::kF32: return f(TypeTag<float>{});
    case DType::kF64: return f(TypeTag<double>{});
    case DType::kF16: return f(TypeTag<Float16>{});
    case DType::kBF16: return f(TypeTag<BFloat16>{});
    default: return f(TypeTag<void>{});
  }
}

}  // namespace trinity
