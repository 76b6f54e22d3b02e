// Unary elementwise ops: math functions, activations, IsNaN/IsInf, Not, Clip, Shrink, Cast,
// CastLike and (inference-only) Dropout. 16-bit floats are computed in float.
// The project builds at -O2, whose "very cheap" vectoriser leaves these loops scalar (it will not
// add alias checks or remainder loops). The dynamic cost model vectorises them; it changes no
// semantics (no fast-math), and it comes before every #include so that all
// code in this file, headers included, shares the options (GCC will not inline across a mismatch).
// -fno-trapping-math lets it if-convert float selects (clamps, NaN checks); no kernel reads the
// floating-point exception flags.
#pragma GCC optimize("-fvect-cost-model=dynamic", "-fno-trapping-math")
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/kernel.h"
#include "backends/cpu/ops_elementwise_internal.h"
#include "graph/passes.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

using namespace elementwise;  // NOLINT: this file implements the family the namespace holds

// ---- generic unary kernels --------------------------------------------------------------------

// Registers a floating-point unary op. `make(node)` returns a generic element function callable
// with float and double (attributes are read once per run, not per element).
template <class Make>
void RegisterFloatUnary(KernelRegistry& r, const std::string& name, Make make,
                        int64_t grain = kMathGrain) {
  r.Register(
      name,
      [make, grain](KernelContext& ctx) -> Status {
        if (!ctx.has_input(0)) return ctx.Error("expects input X");
        const Tensor& x = *ctx.input(0);
        TRY_STATUS(CheckType(ctx, x, kFloatTypes, "input"));
        const auto f = make(ctx.node());
        return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
          using T = typename decltype(tag)::type;
          if constexpr (std::is_void_v<T>) {
            return ctx.Unsupported("unsupported dtype");
          } else {
            Tensor out = Tensor::Empty(x.dtype(), x.shape());
            UnaryMap(ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), grain,
                     [&f](T v) TRINITY_ELEM_INLINE { return from_compute<T>(f(to_compute(v))); });
            ctx.set_output(0, std::move(out));
            return Status::Ok();
          }
        });
      },
      TypesSupport(name, kFloatTypes));
}

// Registers a unary op over `mask` whose element function `f` is generic over compute types,
// integers included.
template <DTypeMask kMask, class F>
void RegisterNumericUnary(KernelRegistry& r, const std::string& name, F f) {
  r.Register(
      name,
      [f](KernelContext& ctx) -> Status {
        if (!ctx.has_input(0)) return ctx.Error("expects input X");
        const Tensor& x = *ctx.input(0);
        TRY_STATUS(CheckType(ctx, x, kMask, "input"));
        return visit_dtype(x.dtype(), [&](auto tag) -> Status {
          using T = typename decltype(tag)::type;
          if constexpr (!TypeIn<T, kMask>()) {
            return ctx.Unsupported("unsupported dtype");
          } else {
            Tensor out = Tensor::Empty(x.dtype(), x.shape());
            UnaryMap(ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), kCheapGrain,
                     [&f](T v) TRINITY_ELEM_INLINE { return from_compute<T>(f(to_compute(v))); });
            ctx.set_output(0, std::move(out));
            return Status::Ok();
          }
        });
      },
      TypesSupport(name, kMask));
}

// Element functions shared by several registrations.
template <class C>
[[gnu::always_inline]] inline C WrapNeg(C x) {
  if constexpr (std::is_integral_v<C>)
    return C(uint64_t(0) - uint64_t(x));
  else
    return -x;
}

// exp for float without branches, so loops calling it vectorise (libm's expf does not). Cephes
// polynomial on r = x - n*ln2, |r| <= ln2/2; about 1 ulp. 2^n is applied in two halves so that
// results down to the subnormal range stay exact; overflow gives inf and NaN passes through.
[[gnu::always_inline]] inline float ExpF32(float x) {
  const float xc = std::min(std::max(x, -104.f), 88.7228394f);
  const float t = xc * 1.44269504088896341f + 12582912.f;  // 1.5 * 2^23: round to integer
  const float n = t - 12582912.f;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.f;
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t h = ni >> 1;
  const float s1 = std::bit_cast<float>((h + 127) << 23);
  const float s2 = std::bit_cast<float>((ni - h + 127) << 23);
  float y = p * s1 * s2;
  y = x > 88.7228394f ? std::numeric_limits<float>::infinity() : y;
  return x != x ? x : y;
}

// tanh for float as a branch-free rational approximation (the one Eigen uses), a few ulp;
// tiny inputs return x so tanh(x) ~ x keeps full relative precision.
[[gnu::always_inline]] inline float TanhF32(float x) {
  const float xc = std::min(std::max(x, -7.90531110763549805f), 7.90531110763549805f);
  const float x2 = xc * xc;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 + -8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  p = p * xc;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  const float y = p / q;
  return std::abs(x) < 0.0004f ? x : (x != x ? x : y);
}

template <class C>
[[gnu::always_inline]] inline C Exp(C x) {
  if constexpr (std::is_same_v<C, float>)
    return ExpF32(x);
  else
    return std::exp(x);
}

template <class C>
[[gnu::always_inline]] inline C Tanh(C x) {
  if constexpr (std::is_same_v<C, float>)
    return TanhF32(x);
  else
    return std::tanh(x);
}

template <class C>
[[gnu::always_inline]] inline C Softplus(C x) {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// 1 / (1 + e^-x): e^-x overflowing to inf gives the correct 0, and for x > 0 the sum is >= 1, so
// this form is accurate everywhere without a branch.
template <class C>
[[gnu::always_inline]] inline C Sigmoid(C x) {
  return C(1) / (C(1) + Exp(-x));
}

// ---- predicates: IsNaN, IsInf, Not, BitwiseNot -----------------------------------------------

template <class Pred>
Status FloatPredicate(KernelContext& ctx, Pred pred) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(CheckType(ctx, x, kFloatTypes, "input"));
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("unsupported dtype");
    } else {
      Tensor out = Tensor::Empty(DType::kBool, x.shape());
      UnaryMap(ctx.pool(), x.data<T>(), out.data<bool>(), x.numel(), kCheapGrain,
               [&pred](T v) TRINITY_ELEM_INLINE { return pred(to_compute(v)); });
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

Status IsInfKernel(KernelContext& ctx) {
  const bool pos = ctx.node().attr_int("detect_positive", 1) != 0;
  const bool neg = ctx.node().attr_int("detect_negative", 1) != 0;
  return FloatPredicate(ctx, [pos, neg](auto v) TRINITY_ELEM_INLINE {
    return std::isinf(v) && ((v > 0 && pos) || (v < 0 && neg));
  });
}

Status NotKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(CheckType(ctx, x, kBoolType, "input"));
  Tensor out = Tensor::Empty(DType::kBool, x.shape());
  // Bools are read as bytes so that any nonzero byte counts as true.
  UnaryMap(ctx.pool(), x.data<uint8_t>(), out.data<bool>(), x.numel(), kCheapGrain,
           [](uint8_t v) { return v == 0; });
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Gelu -------------------------------------------------------------------------------------

OpSupport GeluSupport(const SupportQuery& q) {
  const std::string a = q.node.attr_string("approximate", "none");
  if (a != "none" && a != "tanh") return OpSupport::No("Gelu: approximate='" + a + "' is invalid");
  return TypesSupport("Gelu", kFloatTypes)(q);
}

Status GeluKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(CheckType(ctx, x, kFloatTypes, "input"));
  const std::string approx = ctx.node().attr_string("approximate", "none");
  if (approx != "none" && approx != "tanh") {
    return ctx.Error("approximate must be 'none' or 'tanh', got '" + approx + "'");
  }
  const bool use_tanh = approx == "tanh";
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("unsupported dtype");
    } else {
      using C = compute_t<T>;
      Tensor out = Tensor::Empty(x.dtype(), x.shape());
      if (use_tanh) {
        const C k = static_cast<C>(std::sqrt(2.0 / M_PI));
        UnaryMap(
            ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), kMathGrain,
            [k](T t) TRINITY_ELEM_INLINE {
              const C v = to_compute(t);
              return from_compute<T>(C(0.5) * v * (C(1) + Tanh(k * (v + C(0.044715) * v * v * v))));
            });
      } else {
        const C r = static_cast<C>(M_SQRT1_2);
        UnaryMap(ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), kMathGrain,
                 [r](T t) TRINITY_ELEM_INLINE {
                   const C v = to_compute(t);
                   return from_compute<T>(C(0.5) * v * (C(1) + std::erf(v * r)));
                 });
      }
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// ---- Clip -------------------------------------------------------------------------------------

// Reads the optional scalar bound input i (opset >= 11) into `v`; absent leaves `v` unchanged.
template <class T>
Status ReadBound(const KernelContext& ctx, size_t i, const char* what, compute_t<T>& v) {
  if (!ctx.has_input(i)) return Status::Ok();
  const Tensor& b = *ctx.input(i);
  if (b.dtype() != ctx.input(0)->dtype()) {
    return ctx.Error(std::string(what) + " dtype " + dtype_name(b.dtype()) +
                     " differs from input dtype " + dtype_name(ctx.input(0)->dtype()));
  }
  if (b.numel() != 1) {
    return ctx.Error(std::string(what) + " must be a scalar, got shape " +
                     shape_to_string(b.shape()));
  }
  v = to_compute(*b.data<T>());
  return Status::Ok();
}

Status ClipKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  const Tensor& x = *ctx.input(0);
  const bool attr_form = ctx.opset() < 11;
  TRY_STATUS(CheckType(ctx, x, attr_form ? kFloatTypes : kNumericTypes, "input"));
  return visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("unsupported dtype");
    } else {
      using C = compute_t<T>;
      C lo = std::numeric_limits<C>::lowest();
      C hi = std::numeric_limits<C>::max();
      if (attr_form) {
        lo = static_cast<C>(ctx.node().attr_float("min", std::numeric_limits<float>::lowest()));
        hi = static_cast<C>(ctx.node().attr_float("max", std::numeric_limits<float>::max()));
      } else {
        TRY_STATUS(ReadBound<T>(ctx, 1, "min", lo));
        TRY_STATUS(ReadBound<T>(ctx, 2, "max", hi));
      }
      Tensor out = Tensor::Empty(x.dtype(), x.shape());
      // max(x, lo) then min(., hi): lo > hi yields hi, as the spec says; NaN passes through.
      UnaryMap(ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), kCheapGrain,
               [lo, hi](T t) TRINITY_ELEM_INLINE {
                 C v = to_compute(t);
                 v = v < lo ? lo : v;
                 v = v > hi ? hi : v;
                 return from_compute<T>(v);
               });
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

OpSupport ClipSupport(const SupportQuery& q) {
  return TypesSupport("Clip", q.opset < 11 ? kFloatTypes : kNumericTypes, {0, 1, 2})(q);
}

// ---- Shrink -----------------------------------------------------------------------------------

Status ShrinkKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(CheckType(ctx, x, kNumericTypes, "input"));
  const double bias = ctx.node().attr_float("bias", 0.f);
  const double lambd = ctx.node().attr_float("lambd", 0.5f);
  return visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("unsupported dtype");
    } else {
      Tensor out = Tensor::Empty(x.dtype(), x.shape());
      UnaryMap(ctx.pool(), x.data<T>(), out.data<T>(), x.numel(), kCheapGrain,
               [bias, lambd](T t) TRINITY_ELEM_INLINE {
                 const double v = static_cast<double>(to_compute(t));
                 const double r = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
                 if constexpr (std::is_integral_v<T>)
                   return SaturatingFloatToInt<T>(r);
                 else
                   return from_compute<T>(static_cast<compute_t<T>>(r));
               });
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// ---- Cast / CastLike --------------------------------------------------------------------------


// float -> bfloat16 by truncation, as the ONNX reference implementation (and so the conformance
// data for opsets <= 18) does; NaN stays a quiet NaN.
inline BFloat16 TruncateToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return BFloat16::FromBits(static_cast<uint16_t>((bits >> 16) | 0x40u));
  return BFloat16::FromBits(static_cast<uint16_t>(bits >> 16));
}

template <class TO, class TI>
TO CastElement(TI v) {
  if constexpr (std::is_same_v<TO, TI>) {
    return v;
  } else if constexpr (std::is_same_v<TO, bool>) {
    return to_compute(v) != 0;
  } else if constexpr (std::is_same_v<TI, bool>) {
    return from_compute<TO>(compute_t<TO>(v ? 1 : 0));
  } else if constexpr (std::is_same_v<TO, BFloat16>) {
    return TruncateToBf16(static_cast<float>(to_compute(v)));
  } else if constexpr (std::is_integral_v<TO> && !std::is_integral_v<TI>) {
    return SaturatingFloatToInt<TO>(static_cast<double>(to_compute(v)));
  } else {
    return from_compute<TO>(static_cast<compute_t<TO>>(to_compute(v)));
  }
}

Status CastTo(KernelContext& ctx, const Tensor& x, DType to) {
  TRY_STATUS(CheckType(ctx, x, kAllTypes, "input"));
  if (!InMask(to, kAllTypes)) return ctx.Unsupported("target dtype is not supported");
  if (x.dtype() == to) {
    ctx.set_output(0, x);  // shares the bytes: nothing to convert
    return Status::Ok();
  }
  return visit_dtype(x.dtype(), [&](auto ti) -> Status {
    using TI = typename decltype(ti)::type;
    if constexpr (std::is_void_v<TI>) {
      return ctx.Unsupported("unsupported input dtype");
    } else {
      return visit_dtype(to, [&](auto to_tag) -> Status {
        using TO = typename decltype(to_tag)::type;
        if constexpr (std::is_void_v<TO>) {
          return ctx.Unsupported("unsupported target dtype");
        } else {
          Tensor out = Tensor::Empty(to, x.shape());
          UnaryMap(ctx.pool(), x.data<TI>(), out.data<TO>(), x.numel(), kCheapGrain,
                   [](TI v) TRINITY_ELEM_INLINE { return CastElement<TO, TI>(v); });
          ctx.set_output(0, std::move(out));
          return Status::Ok();
        }
      });
    }
  });
}

Status CastKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input X");
  if (!ctx.node().has_attr("to")) return ctx.Error("attribute 'to' is missing");
  const int64_t to = ctx.node().attr_int("to", 0);
  const DType t = DTypeFromOnnxCode(to);
  if (t == DType::kUndefined) {
    return ctx.Unsupported("cast to ONNX data type " + std::to_string(to) + " is not supported");
  }
  return CastTo(ctx, *ctx.input(0), t);
}

OpSupport CastSupport(const SupportQuery& q) {
  const int64_t to = q.node.attr_int("to", 0);
  if (DTypeFromOnnxCode(to) == DType::kUndefined) {
    return OpSupport::No("Cast: target type 'to'=" + std::to_string(to) +
                         " is not supported (string, complex and float8 are not)");
  }
  return TypesSupport("Cast", kAllTypes)(q);
}

Status CastLikeKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1))
    return ctx.Error("expects inputs input and target_type");
  return CastTo(ctx, *ctx.input(0), ctx.input(1)->dtype());
}

// ---- Dropout ----------------------------------------------------------------------------------

// Reads a scalar of any float dtype as double.
Result<double> ReadFloatScalar(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1)
    return ctx.Error(std::string(what) + " must be a scalar, got " + t.Describe());
  return visit_float_dtype(t.dtype(), [&](auto tag) -> Result<double> {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Error(std::string(what) + " must be a float tensor, got " + t.Describe());
    } else {
      return static_cast<double>(to_compute(*t.data<T>()));
    }
  });
}

// Inference Dropout is the identity. Training mode with a nonzero ratio needs random masks, which
// an inference runtime does not produce; it is refused rather than silently ignored.
Status DropoutKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("expects input data");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(CheckType(ctx, x, kFloatTypes, "input"));
  double ratio = ctx.node().attr_float("ratio", 0.5f);
  bool training = false;
  if (ctx.opset() >= 12) {
    ratio = 0.5;
    if (ctx.has_input(1)) {
      TRY_ASSIGN(ratio, ReadFloatScalar(ctx, *ctx.input(1), "ratio"));
    }
    if (ctx.has_input(2)) {
      const Tensor& tm = *ctx.input(2);
      if (tm.dtype() != DType::kBool || tm.numel() != 1) {
        return ctx.Error("training_mode must be a bool scalar, got " + tm.Describe());
      }
      training = *tm.data<uint8_t>() != 0;
    }
  }
  if (training && ratio != 0.0) {
    return ctx.Unsupported("training_mode=true with ratio " + std::to_string(ratio) +
                           " is not supported: Trinity runs inference only");
  }
  ctx.set_output(0, x);  // identity: shares the bytes
  if (ctx.num_outputs() > 1 && ctx.output_wanted(1)) {
    // The mask is bool from opset 10; before that it has the input's dtype. All kept: ones.
    const DType mt = ctx.opset() >= 10 ? DType::kBool : x.dtype();
    Tensor mask = Tensor::Empty(mt, x.shape());
    Status st = visit_dtype(mt, [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_void_v<T>) {
        return ctx.Unsupported("unsupported mask dtype");
      } else {
        T* m = mask.data<T>();
        const T one = from_compute<T>(compute_t<T>(1));
        for (int64_t i = 0; i < mask.numel(); ++i) m[i] = one;
        return Status::Ok();
      }
    });
    TRY_STATUS(st);
    ctx.set_output(1, std::move(mask));
  }
  return Status::Ok();
}

// A wired training_mode input (opset >= 12) may be true at run time, and training dropout is not
// implemented, so such nodes are refused up front unless the input is a constant false.
OpSupport DropoutSupport(const SupportQuery& q) {
  if (q.opset >= 12 && q.node.inputs.size() > 2 && !q.node.inputs[2].empty()) {
    const Tensor* tm = q.constant_input(2);
    const bool constant_false = tm && tm->dtype() == DType::kBool && tm->numel() == 1 && !*tm->data<bool>();
    if (!constant_false) {
      return OpSupport::No("Dropout: training_mode is not a constant false (Trinity runs inference only)");
    }
  }
  return TypesSupport("Dropout", kFloatTypes)(q);
}

}  // namespace

void RegisterElementwiseUnaryOps(KernelRegistry& r) {
  // Ops over integers too.
  RegisterNumericUnary<kNumericTypes>(r, "Abs", [](auto x) TRINITY_ELEM_INLINE {
    using C = decltype(x);
    if constexpr (std::is_unsigned_v<C>)
      return x;
    else
      return x < C(0) ? WrapNeg(x) : x;
  });
  RegisterNumericUnary<kFloatTypes | kSignedIntTypes>(
      r, "Neg", [](auto x) TRINITY_ELEM_INLINE { return WrapNeg(x); });
  RegisterNumericUnary<kNumericTypes>(r, "Sign", [](auto x) TRINITY_ELEM_INLINE {
    using C = decltype(x);
    return x > C(0) ? C(1) : (x < C(0) ? C(-1) : x);  // keeps 0 and NaN
  });
  RegisterNumericUnary<kFloatTypes | kSignedIntTypes>(r, "Relu", [](auto x) TRINITY_ELEM_INLINE {
    using C = decltype(x);
    return x < C(0) ? C(0) : x;  // NaN passes through
  });
  RegisterNumericUnary<kIntTypes>(r, "BitwiseNot",
                                  [](auto x) TRINITY_ELEM_INLINE { return decltype(x)(~x); });

  // Math functions.
  const auto plain = [](auto fn) { return [fn](const Node&) { return fn; }; };
  RegisterFloatUnary(r, "Exp", plain([](auto x) TRINITY_ELEM_INLINE { return Exp(x); }));
  RegisterFloatUnary(r, "Log", plain([](auto x) TRINITY_ELEM_INLINE { return std::log(x); }));
  RegisterFloatUnary(r, "Sqrt", plain([](auto x) TRINITY_ELEM_INLINE { return std::sqrt(x); }),
                     kCheapGrain);
  RegisterFloatUnary(r, "Reciprocal",
                     plain([](auto x) TRINITY_ELEM_INLINE { return decltype(x)(1) / x; }),
                     kCheapGrain);
  RegisterFloatUnary(r, "Floor", plain([](auto x) TRINITY_ELEM_INLINE { return std::floor(x); }),
                     kCheapGrain);
  RegisterFloatUnary(r, "Ceil", plain([](auto x) TRINITY_ELEM_INLINE { return std::ceil(x); }),
                     kCheapGrain);
  // nearbyint rounds half to even in the default rounding mode, as Round requires.
  RegisterFloatUnary(
      r, "Round", plain([](auto x) TRINITY_ELEM_INLINE { return std::nearbyint(x); }), kCheapGrain);
  RegisterFloatUnary(r, "Sin", plain([](auto x) TRINITY_ELEM_INLINE { return std::sin(x); }));
  RegisterFloatUnary(r, "Cos", plain([](auto x) TRINITY_ELEM_INLINE { return std::cos(x); }));
  RegisterFloatUnary(r, "Tan", plain([](auto x) TRINITY_ELEM_INLINE { return std::tan(x); }));
  RegisterFloatUnary(r, "Asin", plain([](auto x) TRINITY_ELEM_INLINE { return std::asin(x); }));
  RegisterFloatUnary(r, "Acos", plain([](auto x) TRINITY_ELEM_INLINE { return std::acos(x); }));
  RegisterFloatUnary(r, "Atan", plain([](auto x) TRINITY_ELEM_INLINE { return std::atan(x); }));
  RegisterFloatUnary(r, "Sinh", plain([](auto x) TRINITY_ELEM_INLINE { return std::sinh(x); }));
  RegisterFloatUnary(r, "Cosh", plain([](auto x) TRINITY_ELEM_INLINE { return std::cosh(x); }));
  RegisterFloatUnary(r, "Asinh", plain([](auto x) TRINITY_ELEM_INLINE { return std::asinh(x); }));
  RegisterFloatUnary(r, "Acosh", plain([](auto x) TRINITY_ELEM_INLINE { return std::acosh(x); }));
  RegisterFloatUnary(r, "Atanh", plain([](auto x) TRINITY_ELEM_INLINE { return std::atanh(x); }));
  RegisterFloatUnary(r, "Erf", plain([](auto x) TRINITY_ELEM_INLINE { return std::erf(x); }));

  // Activations.
  RegisterFloatUnary(r, "Sigmoid", plain([](auto x) TRINITY_ELEM_INLINE { return Sigmoid(x); }));
  RegisterFloatUnary(r, "Tanh", plain([](auto x) TRINITY_ELEM_INLINE { return Tanh(x); }));
  RegisterFloatUnary(r, "Softplus", plain([](auto x) TRINITY_ELEM_INLINE { return Softplus(x); }));
  RegisterFloatUnary(r, "Softsign", plain([](auto x) TRINITY_ELEM_INLINE {
                       return x / (decltype(x)(1) + std::abs(x));
                     }),
                     kCheapGrain);
  RegisterFloatUnary(r, "Mish",
                     plain([](auto x) TRINITY_ELEM_INLINE { return x * std::tanh(Softplus(x)); }));
  // ONNX's x * clamp(x / 6 + 0.5, 0, 1), as ONNX Runtime rounds it. A HardSwish that the
  // FuseHardSwish pass made from x * Clip(x + 3, 0, 6) / 6 carries kSpelledHardSwishAttr and
  // computes that spelling instead, so the fusion is bit-identical to the ops it replaced.
  RegisterFloatUnary(
      r, "HardSwish",
      [](const Node& n) {
        const bool spelled = n.attr_int(kSpelledHardSwishAttr, 0) != 0;
        return [spelled](auto x) TRINITY_ELEM_INLINE {
          using C = decltype(x);
          if (spelled) return x * std::min(std::max(x + C(3), C(0)), C(6)) / C(6);
          const C h = x / C(6) + C(0.5);
          return x * (h < C(0) ? C(0) : (h > C(1) ? C(1) : h));
        };
      },
      kCheapGrain);
  RegisterFloatUnary(
      r, "LeakyRelu",
      [](const Node& n) {
        const float alpha = n.attr_float("alpha", 0.01f);
        // max(x, 0) + alpha * min(x, 0): branch-free, so GCC vectorises it; it compiled
        // `x < 0 ? alpha * x : x` to a per-element branch that mispredicts on real data.
        // Exact: one of the two terms is always zero.
        return [alpha](auto x) TRINITY_ELEM_INLINE {
          using C = decltype(x);
          return std::max(x, C(0)) + C(alpha) * std::min(x, C(0));
        };
      },
      kCheapGrain);
  RegisterFloatUnary(r, "Elu", [](const Node& n) {
    const float alpha = n.attr_float("alpha", 1.f);
    return [alpha](auto x) TRINITY_ELEM_INLINE {
      using C = decltype(x);
      return x < C(0) ? C(alpha) * (std::exp(x) - C(1)) : x;
    };
  });
  RegisterFloatUnary(r, "Selu", [](const Node& n) {
    const float alpha = n.attr_float("alpha", 1.67326319217681884765625f);
    const float gamma = n.attr_float("gamma", 1.05070102214813232421875f);
    return [alpha, gamma](auto x) TRINITY_ELEM_INLINE {
      using C = decltype(x);
      return x <= C(0) ? C(gamma) * (C(alpha) * std::exp(x) - C(alpha)) : C(gamma) * x;
    };
  });
  RegisterFloatUnary(r, "Celu", [](const Node& n) {
    const float alpha = n.attr_float("alpha", 1.f);
    return [alpha](auto x) TRINITY_ELEM_INLINE {
      using C = decltype(x);
      const C neg = C(alpha) * (std::exp(x / C(alpha)) - C(1));
      return (x > C(0) ? x : C(0)) + (neg < C(0) ? neg : C(0));
    };
  });
  RegisterFloatUnary(
      r, "HardSigmoid",
      [](const Node& n) {
        const float alpha = n.attr_float("alpha", 0.2f);
        const float beta = n.attr_float("beta", 0.5f);
        return [alpha, beta](auto x) TRINITY_ELEM_INLINE {
          using C = decltype(x);
          const C v = C(alpha) * x + C(beta);
          return v < C(0) ? C(0) : (v > C(1) ? C(1) : v);
        };
      },
      kCheapGrain);
  RegisterFloatUnary(
      r, "ThresholdedRelu",
      [](const Node& n) {
        const float alpha = n.attr_float("alpha", 1.f);
        return [alpha](auto x) TRINITY_ELEM_INLINE {
          using C = decltype(x);
          return x > C(alpha) ? x : C(0);
        };
      },
      kCheapGrain);
  r.Register("Gelu", GeluKernel, GeluSupport);

  // Predicates.
  r.Register(
      "IsNaN", [](KernelContext& c) { return FloatPredicate(c, [](auto v) { return v != v; }); },
      TypesSupport("IsNaN", kFloatTypes));
  r.Register("IsInf", IsInfKernel, TypesSupport("IsInf", kFloatTypes));
  r.Register("Not", NotKernel, TypesSupport("Not", kBoolType));

  // Attribute- and input-driven ops.
  r.Register("Clip", ClipKernel, ClipSupport);
  r.Register("Shrink", ShrinkKernel, TypesSupport("Shrink", kNumericTypes));
  r.Register("Cast", CastKernel, CastSupport);
  r.Register("CastLike", CastLikeKernel, TypesSupport("CastLike", kAllTypes, {0, 1}));
  r.Register("Dropout", DropoutKernel, DropoutSupport);
}

}  // namespace trinity
