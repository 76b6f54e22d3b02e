// Broadcasting elementwise ops: arithmetic, comparison, logical, bitwise, Where, PRelu and the
// variadic Max/Min/Sum/Mean. Unary ops, activations, Clip, Cast and Dropout live in
// ops_elementwise_unary.cc.
//
// Every binary op runs through one broadcast plan (ops_elementwise_internal.h) whose inner loop is
// specialised for the four stride combinations (both contiguous, either operand a scalar per row,
// both scalars), so same-shape and scalar-operand cases are single vectorisable loops.
// The project builds at -O2, whose "very cheap" vectoriser leaves these loops scalar (it will not
// add alias checks or remainder loops). The dynamic cost model vectorises them; it changes no
// semantics (no fast-math), and it comes before every #include so that all
// code in this file, headers included, shares the options (GCC will not inline across a mismatch).
// -fno-trapping-math lets it if-convert float selects (clamps, NaN checks); no kernel reads the
// floating-point exception flags.
#pragma GCC optimize("-fvect-cost-model=dynamic", "-fno-trapping-math")
#include <cmath>
#include <cstring>
#include <type_traits>

#include "backends/cpu/kernel.h"
#include "backends/cpu/ops_elementwise_internal.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace elementwise {

SupportFn TypesSupport(const std::string& op, DTypeMask mask, std::vector<int> inputs) {
  return [op, mask, inputs](const SupportQuery& q) {
    for (int i : inputs) {
      const DType t = q.input_type(static_cast<size_t>(i));
      if (t == DType::kUndefined || InMask(t, mask)) continue;
      return OpSupport::No(op + ": input " + std::to_string(i) + " dtype " + dtype_name(t) +
                           " is not supported");
    }
    return OpSupport::Yes();
  };
}

Status CheckType(const KernelContext& ctx, const Tensor& t, DTypeMask mask, const char* what) {
  if (InMask(t.dtype(), mask)) return Status::Ok();
  return ctx.Unsupported(std::string(what) + " dtype " + dtype_name(t.dtype()) +
                         " is not supported");
}

Status CheckSameTypeInputs(const KernelContext& ctx, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    if (ctx.input(i)->dtype() != ctx.input(0)->dtype()) {
      return ctx.Error("input " + std::to_string(i) + " dtype " +
                       dtype_name(ctx.input(i)->dtype()) + " differs from input 0 dtype " +
                       dtype_name(ctx.input(0)->dtype()));
    }
  }
  return Status::Ok();
}

BroadcastPlan MakeBroadcastPlan(const std::vector<int64_t>& out_shape,
                                const std::vector<const std::vector<int64_t>*>& in_shapes) {
  BroadcastPlan p;
  p.num_inputs = static_cast<int>(in_shapes.size());
  p.numel = shape_numel(out_shape);
  std::vector<std::vector<int64_t>> full(in_shapes.size());
  for (size_t k = 0; k < in_shapes.size(); ++k)
    full[k] = BroadcastStrides(*in_shapes[k], out_shape);
  // Drop size-1 dims, then merge dim d into the previous kept dim when, for every input, the
  // previous stride equals this stride times this dim (linear across both; 0 == 0 * n included).
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 1) continue;
    bool merge = !p.dims.empty();
    for (int k = 0; merge && k < p.num_inputs; ++k) {
      merge = p.strides[k].back() == full[k][d] * out_shape[d];
    }
    if (merge) {
      p.dims.back() *= out_shape[d];
      for (int k = 0; k < p.num_inputs; ++k) p.strides[k].back() = full[k][d];
    } else {
      p.dims.push_back(out_shape[d]);
      for (int k = 0; k < p.num_inputs; ++k) p.strides[k].push_back(full[k][d]);
    }
  }
  if (p.dims.empty()) {
    p.dims.push_back(1);
    for (int k = 0; k < p.num_inputs; ++k) p.strides[k].push_back(0);
  }
  p.inner = p.dims.back();
  p.rows = p.inner == 0 ? 0 : p.numel / p.inner;
  for (int k = 0; k < p.num_inputs; ++k) p.inner_stride[k] = p.strides[k].back() != 0 ? 1 : 0;
  return p;
}

}  // namespace elementwise

namespace {

using namespace elementwise;  // NOLINT: this file implements the family the namespace holds

// ---- the binary loop --------------------------------------------------------------------------

template <class TA, class TB, class TO, class F>
void BinaryLoop(ThreadPool& pool, const BroadcastPlan& p, const TA* a, const TB* b, TO* o, F f,
                int64_t grain) {
  const bool sa = p.inner_stride[0] != 0;
  const bool sb = p.inner_stride[1] != 0;
  ParallelBroadcast(pool, p, grain, [&](const int64_t* off, int64_t ob, int64_t n) {
    const TA* pa = a + off[0];
    const TB* pb = b + off[1];
    TO* po = o + ob;
    if (sa && sb) {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    } else if (sa) {
      const TB vb = *pb;
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], vb);
    } else if (sb) {
      const TA va = *pa;
      for (int64_t i = 0; i < n; ++i) po[i] = f(va, pb[i]);
    } else {
      const TO v = f(*pa, *pb);
      for (int64_t i = 0; i < n; ++i) po[i] = v;
    }
  });
}

struct BinarySetup {
  BroadcastPlan plan;
  Tensor out;
};

Result<BinarySetup> SetupBinary(const KernelContext& ctx, const Tensor& a, const Tensor& b,
                                DType out_type) {
  TRY_ASSIGN(std::vector<int64_t> shape, BroadcastShapes(ctx, a.shape(), b.shape()));
  BinarySetup s;
  s.plan = MakeBroadcastPlan(shape, {&a.shape(), &b.shape()});
  s.out = Tensor::Empty(out_type, std::move(shape));
  return s;
}

template <class T>
constexpr bool kIsSignedInt = std::is_integral_v<T>&& std::is_signed_v<T>;

template <class T>
bool HasZero(const T* v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] == T(0)) return true;
  }
  return false;
}

// ---- op functors: operate on compute_t<T> (float for 16-bit floats) --------------------------
// Integer add/sub/mul wrap (computed in uint64_t) instead of overflowing, which would be UB.

struct AddOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return C(uint64_t(a) + uint64_t(b));
    else
      return a + b;
  }
};
struct SubOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return C(uint64_t(a) - uint64_t(b));
    else
      return a - b;
  }
};
struct MulOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return C(uint64_t(a) * uint64_t(b));
    else
      return a * b;
  }
};
// Integer divisors are checked for zero before the loop; MIN / -1 wraps.
struct DivOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  static constexpr bool kIntDivisor = true;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (kIsSignedInt<C>)
      return b == C(-1) ? C(uint64_t(0) - uint64_t(a)) : C(a / b);
    else
      return a / b;
  }
};
// Mod with fmod=0: the result takes the divisor's sign (integers only).
struct ModOp {
  static constexpr DTypeMask kMask = kIntTypes;
  static constexpr bool kIntDivisor = true;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (kIsSignedInt<C>) {
      if (b == C(-1)) return C(0);
      C r = C(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = C(r + b);
      return r;
    } else {
      return C(a % b);
    }
  }
};
// Mod with fmod=1: C fmod, the result takes the dividend's sign.
struct FModOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  static constexpr bool kIntDivisor = true;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>)
      return std::fmod(a, b);
    else if constexpr (kIsSignedInt<C>)
      return b == C(-1) ? C(0) : C(a % b);
    else
      return C(a % b);
  }
};
// Max/Min propagate NaN like numpy.maximum/minimum.
struct MaxOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      return (b > a || b != b) ? b : a;
    } else {
      return b > a ? b : a;
    }
  }
};
struct MinOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      return (b < a || b != b) ? b : a;
    } else {
      return b < a ? b : a;
    }
  }
};
struct PReluOp {
  static constexpr DTypeMask kMask = kFloatTypes | kSignedIntTypes;
  template <class C>
  C operator()(C x, C slope) const {
    if constexpr (std::is_integral_v<C>)
      return x < 0 ? C(uint64_t(x) * uint64_t(slope)) : x;
    else
      return x < 0 ? x * slope : x;
  }
};
struct BitAndOp {
  static constexpr DTypeMask kMask = kIntTypes | kBoolType;
  template <class C>
  C operator()(C a, C b) const {
    return C(a & b);
  }
};
struct BitOrOp {
  static constexpr DTypeMask kMask = kIntTypes | kBoolType;
  template <class C>
  C operator()(C a, C b) const {
    return C(a | b);
  }
};
struct BitXorOp {
  static constexpr DTypeMask kMask = kIntTypes | kBoolType;
  template <class C>
  C operator()(C a, C b) const {
    return C(a ^ b);
  }
};
// Shifting by the bit width or more gives 0 (C++ would make it UB).
struct ShiftLeftOp {
  static constexpr DTypeMask kMask = kUnsignedIntTypes;
  template <class C>
  C operator()(C a, C b) const {
    return b >= C(sizeof(C) * 8) ? C(0) : C(static_cast<uint64_t>(a) << b);
  }
};
struct ShiftRightOp {
  static constexpr DTypeMask kMask = kUnsignedIntTypes;
  template <class C>
  C operator()(C a, C b) const {
    return b >= C(sizeof(C) * 8) ? C(0) : C(a >> b);
  }
};

struct EqualOp {
  static constexpr DTypeMask kMask = kAllTypes;
  template <class C>
  bool operator()(C a, C b) const {
    return a == b;
  }
};
struct LessOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  bool operator()(C a, C b) const {
    return a < b;
  }
};
struct LessOrEqualOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  bool operator()(C a, C b) const {
    return a <= b;
  }
};
struct GreaterOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  bool operator()(C a, C b) const {
    return a > b;
  }
};
struct GreaterOrEqualOp {
  static constexpr DTypeMask kMask = kNumericTypes;
  template <class C>
  bool operator()(C a, C b) const {
    return a >= b;
  }
};

template <class Op>
constexpr bool kHasIntDivisor = requires {
  Op::kIntDivisor;
};

// a (op) b for same-dtype inputs. kCompare ops produce bool, the others the input dtype.
template <class Op, bool kCompare = false>
Result<Tensor> ApplyBinary(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    return ctx.Error(std::string("input dtypes ") + dtype_name(a.dtype()) + " and " +
                     dtype_name(b.dtype()) + " differ");
  }
  TRY_STATUS(CheckType(ctx, a, Op::kMask, "input"));
  return visit_dtype(a.dtype(), [&](auto tag) -> Result<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (!TypeIn<T, Op::kMask>()) {
      return ctx.Unsupported("unsupported dtype");
    } else {
      if constexpr (kHasIntDivisor<Op> && std::is_integral_v<T>) {
        if (HasZero(b.data<T>(), b.numel())) return ctx.Error("integer division by zero");
      }
      using TO = std::conditional_t<kCompare, bool, T>;
      TRY_ASSIGN(BinarySetup s, SetupBinary(ctx, a, b, DTypeOf<TO>::value));
      const Op op{};
      BinaryLoop(
          ctx.pool(), s.plan, a.data<T>(), b.data<T>(), s.out.template data<TO>(),
          [op](T x, T y) {
            if constexpr (kCompare)
              return op(to_compute(x), to_compute(y));
            else
              return from_compute<T>(op(to_compute(x), to_compute(y)));
          },
          kCheapGrain);
      return std::move(s.out);
    }
  });
}

template <class Op, bool kCompare = false>
Status BinaryKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("expects 2 inputs");
  TRY_ASSIGN(Tensor out, (ApplyBinary<Op, kCompare>(ctx, *ctx.input(0), *ctx.input(1))));
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

template <class Op, bool kCompare = false>
void RegisterBinary(KernelRegistry& r, const std::string& name, DTypeMask mask) {
  r.Register(name, BinaryKernel<Op, kCompare>, TypesSupport(name, mask, {0, 1}));
}

// ---- Mod, BitShift, PRelu ---------------------------------------------------------------------

Status ModKernel(KernelContext& ctx) {
  const int64_t fmod = ctx.node().attr_int("fmod", 0);
  if (fmod != 0 && fmod != 1) return ctx.Error("fmod must be 0 or 1, got " + std::to_string(fmod));
  if (fmod == 0 && ctx.has_input(0) && dtype_is_float(ctx.input(0)->dtype())) {
    return ctx.Error("fmod=0 is not allowed for floating-point inputs (the spec requires fmod=1)");
  }
  return fmod == 1 ? BinaryKernel<FModOp>(ctx) : BinaryKernel<ModOp>(ctx);
}

OpSupport ModSupport(const SupportQuery& q) {
  const int64_t fmod = q.node.attr_int("fmod", 0);
  if (fmod != 0 && fmod != 1)
    return OpSupport::No("Mod: fmod=" + std::to_string(fmod) + " is invalid");
  const DTypeMask mask = fmod == 1 ? kNumericTypes : kIntTypes;
  return TypesSupport("Mod (fmod=" + std::to_string(fmod) + ")", mask, {0, 1})(q);
}

Status BitShiftKernel(KernelContext& ctx) {
  const std::string dir = ctx.node().attr_string("direction", "");
  if (dir == "LEFT") return BinaryKernel<ShiftLeftOp>(ctx);
  if (dir == "RIGHT") return BinaryKernel<ShiftRightOp>(ctx);
  return ctx.Error("direction must be LEFT or RIGHT, got '" + dir + "'");
}

OpSupport BitShiftSupport(const SupportQuery& q) {
  const std::string dir = q.node.attr_string("direction", "");
  if (dir != "LEFT" && dir != "RIGHT")
    return OpSupport::No("BitShift: direction '" + dir + "' is invalid");
  return TypesSupport("BitShift", kUnsignedIntTypes, {0, 1})(q);
}

// PRelu: slope broadcasts to X (unidirectionally), so the output keeps X's shape.
Status PReluKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("expects inputs X and slope");
  TRY_ASSIGN(Tensor out, ApplyBinary<PReluOp>(ctx, *ctx.input(0), *ctx.input(1)));
  if (out.shape() != ctx.input(0)->shape()) {
    return ctx.Error("slope shape " + shape_to_string(ctx.input(1)->shape()) +
                     " does not broadcast to X shape " + shape_to_string(ctx.input(0)->shape()));
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Pow --------------------------------------------------------------------------------------
// The output has the base's dtype; the exponent may be any numeric dtype.

constexpr DTypeMask kPowBaseTypes = kFloatTypes | Bit(DType::kI32) | Bit(DType::kI64);

// Integer power by squaring, wrapping on overflow; negative exponents truncate 1/a^-e.
template <class T>
T IntPow(T base, int64_t e) {
  if (e < 0) {
    if (base == 1) return 1;
    if (base == -1) return (e & 1) ? T(-1) : T(1);
    return 0;
  }
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(base);
  while (e > 0) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<T>(result);
}

template <class TA, class TB>
TA PowElement(TA a, TB b) {
  if constexpr (std::is_integral_v<TA>) {
    if constexpr (std::is_integral_v<TB>) {
      const int64_t e = std::is_unsigned_v<TB> && static_cast<uint64_t>(b) > uint64_t{INT64_MAX}
                            ? INT64_MAX
                            : static_cast<int64_t>(b);
      return IntPow<TA>(a, e);
    } else {
      return SaturatingFloatToInt<TA>(
          std::pow(static_cast<double>(a), static_cast<double>(to_compute(b))));
    }
  } else if constexpr (std::is_same_v<compute_t<TA>, float> && !std::is_integral_v<TB> &&
                       !std::is_same_v<TB, double>) {
    return from_compute<TA>(std::pow(to_compute(a), to_compute(b)));
  } else {
    return from_compute<TA>(
        std::pow(static_cast<double>(to_compute(a)), static_cast<double>(to_compute(b))));
  }
}

// Common f32 exponents as a scalar: x^2 (variance in expanded norms), x^0.5, x^1.
bool PowF32Fast(KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != DType::kF32 || b.dtype() != DType::kF32 || b.numel() != 1 ||
      b.rank() > a.rank()) {
    return false;
  }
  const float e = *b.data<float>();
  if (e != 2.f && e != 0.5f && e != 1.f) return false;
  std::vector<int64_t> shape = a.shape();  // b is a scalar of rank <= a's, so shape is a's
  Tensor out = Tensor::Empty(DType::kF32, shape);
  const float* x = a.data<float>();
  float* y = out.data<float>();
  if (e == 2.f)
    UnaryMap(ctx.pool(), x, y, a.numel(), kCheapGrain, [](float v) { return v * v; });
  else if (e == 0.5f)
    UnaryMap(ctx.pool(), x, y, a.numel(), kCheapGrain, [](float v) { return std::sqrt(v); });
  else
    UnaryMap(ctx.pool(), x, y, a.numel(), kCheapGrain, [](float v) { return v; });
  ctx.set_output(0, std::move(out));
  return true;
}

Status PowKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("expects inputs X and Y");
  const Tensor& a = *ctx.input(0);
  const Tensor& b = *ctx.input(1);
  TRY_STATUS(CheckType(ctx, a, kPowBaseTypes, "base"));
  TRY_STATUS(CheckType(ctx, b, kNumericTypes, "exponent"));
  if (PowF32Fast(ctx, a, b)) return Status::Ok();
  return visit_dtype(a.dtype(), [&](auto ta) -> Status {
    using TA = typename decltype(ta)::type;
    if constexpr (!TypeIn<TA, kPowBaseTypes>()) {
      return ctx.Unsupported("unsupported base dtype");
    } else {
      return visit_dtype(b.dtype(), [&](auto tb) -> Status {
        using TB = typename decltype(tb)::type;
        if constexpr (!TypeIn<TB, kNumericTypes>()) {
          return ctx.Unsupported("unsupported exponent dtype");
        } else {
          TRY_ASSIGN(BinarySetup s, SetupBinary(ctx, a, b, a.dtype()));
          BinaryLoop(
              ctx.pool(), s.plan, a.data<TA>(), b.data<TB>(), s.out.template data<TA>(),
              [](TA x, TB y) { return PowElement<TA, TB>(x, y); }, kMathGrain);
          ctx.set_output(0, std::move(s.out));
          return Status::Ok();
        }
      });
    }
  });
}

// ---- Where ------------------------------------------------------------------------------------

template <class T>
void WhereLoop(ThreadPool& pool, const BroadcastPlan& p, const bool* c, const T* x, const T* y,
               T* o) {
  const int64_t sc = p.inner_stride[0], sx = p.inner_stride[1], sy = p.inner_stride[2];
  ParallelBroadcast(pool, p, kCheapGrain, [&](const int64_t* off, int64_t ob, int64_t n) {
    const bool* pc = c + off[0];
    const T* px = x + off[1];
    const T* py = y + off[2];
    T* po = o + ob;
    if (sc && sx && sy) {
      for (int64_t i = 0; i < n; ++i) po[i] = pc[i] ? px[i] : py[i];
    } else {
      for (int64_t i = 0; i < n; ++i) po[i] = pc[i * sc] ? px[i * sx] : py[i * sy];
    }
  });
}

// Where moves bytes, so it dispatches on element size only.
Status WhereKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("expects inputs condition, X and Y");
  }
  const Tensor& c = *ctx.input(0);
  const Tensor& x = *ctx.input(1);
  const Tensor& y = *ctx.input(2);
  if (c.dtype() != DType::kBool)
    return ctx.Error(std::string("condition must be bool, got ") + dtype_name(c.dtype()));
  if (x.dtype() != y.dtype()) {
    return ctx.Error(std::string("X dtype ") + dtype_name(x.dtype()) + " differs from Y dtype " +
                     dtype_name(y.dtype()));
  }
  TRY_STATUS(CheckType(ctx, x, kAllTypes, "X"));
  TRY_ASSIGN(std::vector<int64_t> s1, BroadcastShapes(ctx, c.shape(), x.shape()));
  TRY_ASSIGN(std::vector<int64_t> shape, BroadcastShapes(ctx, s1, y.shape()));
  const BroadcastPlan p = MakeBroadcastPlan(shape, {&c.shape(), &x.shape(), &y.shape()});
  Tensor out = Tensor::Empty(x.dtype(), std::move(shape));
  const bool* pc = c.data<bool>();
  switch (dtype_size(x.dtype())) {
    case 1:
      WhereLoop(ctx.pool(), p, pc, x.data<uint8_t>(), y.data<uint8_t>(), out.data<uint8_t>());
      break;
    case 2:
      WhereLoop(ctx.pool(), p, pc, x.data<uint16_t>(), y.data<uint16_t>(), out.data<uint16_t>());
      break;
    case 4:
      WhereLoop(ctx.pool(), p, pc, x.data<uint32_t>(), y.data<uint32_t>(), out.data<uint32_t>());
      break;
    case 8:
      WhereLoop(ctx.pool(), p, pc, x.data<uint64_t>(), y.data<uint64_t>(), out.data<uint64_t>());
      break;
    default:
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- variadic Max / Min / Sum / Mean ----------------------------------------------------------

template <class T>
void ScaleInPlace(ThreadPool& pool, Tensor& t, double s) {
  T* p = t.data<T>();
  using C = compute_t<T>;
  const C cs = static_cast<C>(s);
  UnaryMap(pool, p, p, t.numel(), kCheapGrain,
           [cs](T v) { return from_compute<T>(to_compute(v) * cs); });
}

// Folds the inputs left to right with broadcasting; Mean divides the sum by the input count.
template <class Op>
Status VariadicKernel(KernelContext& ctx, bool mean) {
  const size_t n = ctx.num_inputs();
  if (n == 0) return ctx.Error("expects at least one input");
  TRY_STATUS(CheckSameTypeInputs(ctx, n));
  TRY_STATUS(CheckType(ctx, *ctx.input(0), Op::kMask, "input"));
  if (n == 1) {
    ctx.set_output(0, *ctx.input(0));  // shares the bytes: the value is unchanged
    return Status::Ok();
  }
  TRY_ASSIGN(Tensor acc, ApplyBinary<Op>(ctx, *ctx.input(0), *ctx.input(1)));
  for (size_t i = 2; i < n; ++i) {
    TRY_ASSIGN(acc, ApplyBinary<Op>(ctx, acc, *ctx.input(i)));
  }
  if (mean) {
    Status st = visit_float_dtype(acc.dtype(), [&](auto tag) -> Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_void_v<T>) {
        return ctx.Unsupported("Mean needs a floating-point dtype");
      } else {
        ScaleInPlace<T>(ctx.pool(), acc, 1.0 / static_cast<double>(n));
        return Status::Ok();
      }
    });
    TRY_STATUS(st);
  }
  ctx.set_output(0, std::move(acc));
  return Status::Ok();
}

SupportFn VariadicSupport(const std::string& op, DTypeMask mask) {
  return [op, mask](const SupportQuery& q) {
    std::vector<int> all;
    for (size_t i = 0; i < q.node.inputs.size(); ++i) all.push_back(static_cast<int>(i));
    return TypesSupport(op, mask, all)(q);
  };
}

}  // namespace

void RegisterElementwiseOps(KernelRegistry& r) {
  RegisterBinary<AddOp>(r, "Add", kNumericTypes);
  RegisterBinary<SubOp>(r, "Sub", kNumericTypes);
  RegisterBinary<MulOp>(r, "Mul", kNumericTypes);
  RegisterBinary<DivOp>(r, "Div", kNumericTypes);
  r.Register("Mod", ModKernel, ModSupport);
  r.Register("Pow", PowKernel, [](const SupportQuery& q) {
    OpSupport s = TypesSupport("Pow", kPowBaseTypes, {0})(q);
    return s.supported ? TypesSupport("Pow", kNumericTypes, {1})(q) : s;
  });
  r.Register("BitShift", BitShiftKernel, BitShiftSupport);
  RegisterBinary<BitAndOp>(r, "And", kBoolType);
  RegisterBinary<BitOrOp>(r, "Or", kBoolType);
  RegisterBinary<BitXorOp>(r, "Xor", kBoolType);
  RegisterBinary<BitAndOp>(r, "BitwiseAnd", kIntTypes);
  RegisterBinary<BitOrOp>(r, "BitwiseOr", kIntTypes);
  RegisterBinary<BitXorOp>(r, "BitwiseXor", kIntTypes);
  RegisterBinary<EqualOp, true>(r, "Equal", kAllTypes);
  RegisterBinary<LessOp, true>(r, "Less", kNumericTypes);
  RegisterBinary<LessOrEqualOp, true>(r, "LessOrEqual", kNumericTypes);
  RegisterBinary<GreaterOp, true>(r, "Greater", kNumericTypes);
  RegisterBinary<GreaterOrEqualOp, true>(r, "GreaterOrEqual", kNumericTypes);
  r.Register("PRelu", PReluKernel, TypesSupport("PRelu", PReluOp::kMask, {0, 1}));
  r.Register("Where", WhereKernel, TypesSupport("Where", kAllTypes, {1, 2}));
  r.Register(
      "Max", [](KernelContext& c) { return VariadicKernel<MaxOp>(c, false); },
      VariadicSupport("Max", kNumericTypes));
  r.Register(
      "Min", [](KernelContext& c) { return VariadicKernel<MinOp>(c, false); },
      VariadicSupport("Min", kNumericTypes));
  r.Register(
      "Sum", [](KernelContext& c) { return VariadicKernel<AddOp>(c, false); },
      VariadicSupport("Sum", kFloatTypes));
  r.Register(
      "Mean", [](KernelContext& c) { return VariadicKernel<AddOp>(c, true); },
      VariadicSupport("Mean", kFloatTypes));
  RegisterElementwiseUnaryOps(r);
  RegisterElementwiseChainOp(r);
}

}  // namespace trinity
