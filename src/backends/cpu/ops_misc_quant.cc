// Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul, QLinearConv.
//
// All quantized arithmetic follows one recipe, shared by the future INT8 NPU backend:
//   * zero points are subtracted first, so the integer kernels see signed int32 values and
//     padding is a true zero;
//   * products accumulate in int32 (exact for the 8-bit inputs these ops take);
//   * requantization multiplies the accumulator by a float scale, rounds half to even
//     (std::nearbyint in the default rounding mode) and saturates to the output range.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "backends/cpu/ops_misc_internal.h"

namespace trinity {
namespace {

bool IsQ8(DType t) { return t == DType::kU8 || t == DType::kI8; }

// round-half-even(v) + zp, saturated to Q. NaN quantizes to the zero point.
template <class Q>
inline Q QuantizeValue(float v, int32_t zp) {
  constexpr float lo = static_cast<float>(std::numeric_limits<Q>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<Q>::max());
  if (std::isnan(v)) {
    return static_cast<Q>(
        std::clamp<int32_t>(zp, static_cast<int32_t>(lo), static_cast<int32_t>(hi)));
  }
  float r = std::nearbyint(v) + static_cast<float>(zp);
  r = std::min(std::max(r, lo), hi);
  return static_cast<Q>(r);
}

// Reads an 8-bit (or i32) tensor element as int32.
inline int32_t LoadInt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kU8:
      return t.data<uint8_t>()[i];
    case DType::kI8:
      return t.data<int8_t>()[i];
    case DType::kI32:
      return t.data<int32_t>()[i];
    default:
      return 0;
  }
}

std::vector<int32_t> LoadInts(const Tensor& t) {
  std::vector<int32_t> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = LoadInt(t, i);
  return v;
}

std::string TypeMsg(const char* what, DType t) {
  return std::string(what) + " dtype " + dtype_name(t) + " is not supported";
}

// ---------------------------------------------------------------------------------------------
// QuantizeLinear / DequantizeLinear: per-tensor, or per-axis (opset 13) with 1-D scale.

// How scale/zero point index into x: x viewed as [outer, channels, inner].
struct AxisLayout {
  int64_t outer = 1, channels = 1, inner = 1;
};

Result<AxisLayout> ResolveQuantAxis(const KernelContext& ctx, const Tensor& x, const Tensor& scale,
                                    const Tensor* zp) {
  AxisLayout l;
  l.inner = x.numel();
  if (zp != nullptr && zp->numel() != scale.numel()) {
    return ctx.Error("zero point " + zp->Describe() + " and scale " + scale.Describe() +
                     " differ in size");
  }
  if (scale.numel() == 1 && scale.rank() <= 1) return l;  // per-tensor
  if (ctx.opset() < 13 || scale.rank() != 1) {
    return ctx.Error("scale must be a scalar" +
                     std::string(ctx.opset() >= 13 ? " or a 1-D tensor" : "") + ", got " +
                     scale.Describe());
  }
  TRY_ASSIGN(const int64_t axis,
             NormalizeAxis(ctx, ctx.node().attr_int("axis", 1), static_cast<int64_t>(x.rank())));
  if (x.dim(axis) != scale.numel()) {
    return ctx.Error("scale " + scale.Describe() + " does not match dimension " +
                     std::to_string(axis) + " of " + x.Describe());
  }
  l.outer = 1;
  for (int64_t d = 0; d < axis; ++d) l.outer *= x.dim(d);
  l.channels = x.dim(axis);
  l.inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < x.rank(); ++d) l.inner *= x.dim(d);
  return l;
}

OpSupport QuantizeSupports(const SupportQuery& q) {
  const DType x = q.input_type(0), zp = q.input_type(2), s = q.input_type(1);
  if (x != DType::kUndefined && x != DType::kF32 && x != DType::kI32) {
    return OpSupport::No("QuantizeLinear: " + TypeMsg("x", x));
  }
  if (s != DType::kUndefined && s != DType::kF32) {
    return OpSupport::No("QuantizeLinear: " + TypeMsg("y_scale", s));
  }
  if (zp != DType::kUndefined && !IsQ8(zp)) {
    return OpSupport::No("QuantizeLinear: " + TypeMsg("y_zero_point", zp));
  }
  if (q.node.attr_int("saturate", 1) != 1) {
    return OpSupport::No("QuantizeLinear: saturate=0 is not supported");
  }
  return OpSupport::Yes();
}

template <class Q, class X>
void QuantizeLoop(KernelContext& ctx, const X* x, const float* scale,
                  const std::vector<int32_t>& zp, const AxisLayout& l, Q* y) {
  const int64_t rows = l.outer * l.channels;
  ctx.pool().ParallelFor(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, l.inner)),
                         [&](int64_t b, int64_t e) {
                           for (int64_t r = b; r < e; ++r) {
                             const int64_t c = r % l.channels;
                             const float s = scale[c];
                             const int32_t z = zp.empty() ? 0 : zp[c];
                             const X* src = x + r * l.inner;
                             Q* dst = y + r * l.inner;
                             for (int64_t i = 0; i < l.inner; ++i) {
                               dst[i] = QuantizeValue<Q>(static_cast<float>(src[i]) / s, z);
                             }
                           }
                         });
}

Status RunQuantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* scale = ctx.input(1);
  const Tensor* zp = ctx.input(2);
  if (x == nullptr || scale == nullptr) return ctx.Error("x and y_scale are required");
  if (scale->dtype() != DType::kF32) return ctx.Unsupported(TypeMsg("y_scale", scale->dtype()));
  const DType out_t = zp ? zp->dtype() : DType::kU8;
  if (!IsQ8(out_t)) return ctx.Unsupported(TypeMsg("y_zero_point", out_t));
  if (x->dtype() != DType::kF32 && x->dtype() != DType::kI32) {
    return ctx.Unsupported(TypeMsg("x", x->dtype()));
  }
  TRY_ASSIGN(const AxisLayout l, ResolveQuantAxis(ctx, *x, *scale, zp));
  const std::vector<int32_t> zps = zp ? LoadInts(*zp) : std::vector<int32_t>();
  Tensor y = Tensor::Empty(out_t, x->shape());
  auto run = [&](auto* out) {
    if (x->dtype() == DType::kF32) {
      QuantizeLoop(ctx, x->data<float>(), scale->data<float>(), zps, l, out);
    } else {
      QuantizeLoop(ctx, x->data<int32_t>(), scale->data<float>(), zps, l, out);
    }
  };
  if (out_t == DType::kU8)
    run(y.data<uint8_t>());
  else
    run(y.data<int8_t>());
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport DequantizeSupports(const SupportQuery& q) {
  const DType x = q.input_type(0), s = q.input_type(1);
  if (x != DType::kUndefined && !IsQ8(x) && x != DType::kI32) {
    return OpSupport::No("DequantizeLinear: " + TypeMsg("x", x));
  }
  if (s != DType::kUndefined && s != DType::kF32) {
    return OpSupport::No("DequantizeLinear: " + TypeMsg("x_scale", s));
  }
  return OpSupport::Yes();
}

Status RunDequantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* scale = ctx.input(1);
  const Tensor* zp = ctx.input(2);
  if (x == nullptr || scale == nullptr) return ctx.Error("x and x_scale are required");
  if (!IsQ8(x->dtype()) && x->dtype() != DType::kI32) {
    return ctx.Unsupported(TypeMsg("x", x->dtype()));
  }
  if (scale->dtype() != DType::kF32) return ctx.Unsupported(TypeMsg("x_scale", scale->dtype()));
  if (zp != nullptr && zp->dtype() != x->dtype()) {
    return ctx.Error("x_zero_point " + zp->Describe() + " must have the dtype of x " +
                     x->Describe());
  }
  TRY_ASSIGN(const AxisLayout l, ResolveQuantAxis(ctx, *x, *scale, zp));
  const std::vector<int32_t> zps = zp ? LoadInts(*zp) : std::vector<int32_t>();
  Tensor y = Tensor::Empty(DType::kF32, x->shape());
  float* out = y.data<float>();
  const float* sc = scale->data<float>();
  auto loop = [&](const auto* in) {
    const int64_t rows = l.outer * l.channels;
    ctx.pool().ParallelFor(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, l.inner)),
                           [&](int64_t b, int64_t e) {
                             for (int64_t r = b; r < e; ++r) {
                               const int64_t c = r % l.channels;
                               const float s = sc[c];
                               const int64_t z = zps.empty() ? 0 : zps[c];
                               for (int64_t i = r * l.inner; i < (r + 1) * l.inner; ++i) {
                                 out[i] = static_cast<float>(static_cast<int64_t>(in[i]) - z) * s;
                               }
                             }
                           });
  };
  switch (x->dtype()) {
    case DType::kU8:
      loop(x->data<uint8_t>());
      break;
    case DType::kI8:
      loop(x->data<int8_t>());
      break;
    default:
      loop(x->data<int32_t>());
      break;
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// DynamicQuantizeLinear: u8 with range [min(0, min x), max(0, max x)].
Status RunDynamicQuantizeLinear(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("x is missing");
  if (x->dtype() != DType::kF32) return ctx.Unsupported(TypeMsg("x", x->dtype()));
  const float* in = x->data<float>();
  const int64_t n = x->numel();
  float mn = 0.f, mx = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    mn = std::min(mn, in[i]);
    mx = std::max(mx, in[i]);
  }
  // As ONNX Runtime: a range of zero would divide by zero, so it uses scale 1.
  const float scale = mx == mn ? 1.f : (mx - mn) / 255.f;
  const float zp_f = std::min(255.f, std::max(0.f, 0.f - mn / scale));
  const int32_t zp = static_cast<int32_t>(std::nearbyint(zp_f));
  Tensor y = Tensor::Empty(DType::kU8, x->shape());
  uint8_t* out = y.data<uint8_t>();
  ctx.pool().ParallelFor(n, 16384, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) out[i] = QuantizeValue<uint8_t>(in[i] / scale, zp);
  });
  Tensor ys = Tensor::Empty(DType::kF32, {});
  ys.data<float>()[0] = scale;
  Tensor yz = Tensor::Empty(DType::kU8, {});
  yz.data<uint8_t>()[0] = static_cast<uint8_t>(zp);
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, std::move(ys));
  ctx.set_output(2, std::move(yz));
  return Status::Ok();
}

OpSupport DynamicQuantizeSupports(const SupportQuery& q) {
  const DType x = q.input_type(0);
  if (x != DType::kUndefined && x != DType::kF32) {
    return OpSupport::No("DynamicQuantizeLinear: " + TypeMsg("x", x));
  }
  return OpSupport::Yes();
}

// ---------------------------------------------------------------------------------------------
// Integer matrix multiply with numpy broadcasting, on zero-point-shifted int32 operands.

struct MatMulPlan {
  std::vector<int64_t> out_shape;
  int64_t m = 0, k = 0, n = 0, batches = 1;
  std::vector<int64_t> a_off, b_off;  // element offset of each batch's matrix
};

Result<MatMulPlan> PlanMatMul(const KernelContext& ctx, std::vector<int64_t> a,
                              std::vector<int64_t> b) {
  if (a.empty() || b.empty()) return ctx.Error("MatMul inputs must have rank >= 1");
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  MatMulPlan p;
  p.m = a[a.size() - 2];
  p.k = a.back();
  p.n = b.back();
  if (b[b.size() - 2] != p.k) {
    return ctx.Error("inner dimensions differ: A " + shape_to_string(a) + ", B " +
                     shape_to_string(b));
  }
  const std::vector<int64_t> ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  TRY_ASSIGN(const std::vector<int64_t> batch, BroadcastShapes(ctx, ab, bb));
  const std::vector<int64_t> as = BroadcastStrides(ab, batch), bs = BroadcastStrides(bb, batch);
  p.batches = shape_numel(batch);
  for (int64_t i = 0; i < p.batches; ++i) {
    int64_t rem = i, ao = 0, bo = 0;
    for (size_t d = batch.size(); d-- > 0;) {
      const int64_t idx = rem % batch[d];
      rem /= batch[d];
      ao += idx * as[d];
      bo += idx * bs[d];
    }
    p.a_off.push_back(ao * p.m * p.k);
    p.b_off.push_back(bo * p.k * p.n);
  }
  p.out_shape = batch;
  if (!a_vec) p.out_shape.push_back(p.m);
  if (!b_vec) p.out_shape.push_back(p.n);
  return p;
}

// C[m, n] = A[m, k] * B[k, n], all int32 row-major. The inner loop runs along B's rows so the
// compiler vectorises it.
void GemmI32(const int32_t* a, const int32_t* b, int32_t* c, int64_t m0, int64_t m1, int64_t k,
             int64_t n) {
  for (int64_t i = m0; i < m1; ++i) {
    int32_t* crow = c + i * n;
    std::fill(crow, crow + n, 0);
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t av = a[i * k + kk];
      if (av == 0) continue;
      const int32_t* brow = b + kk * n;
      for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
    }
  }
}

// 8-bit products are at most 2^16 in magnitude, so int32 sums are exact up to this length.
constexpr int64_t kMaxI32Reduction = 32768;

void RunMatMulPlan(KernelContext& ctx, const MatMulPlan& p, const int32_t* a, const int32_t* b,
                   int32_t* c) {
  const int64_t rows = p.batches * p.m;
  const int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(1, p.k * p.n));
  ctx.pool().ParallelFor(rows, grain, [&](int64_t r0, int64_t r1) {
    while (r0 < r1) {
      const int64_t bi = r0 / p.m, i0 = r0 % p.m;
      const int64_t i1 = std::min(p.m, i0 + (r1 - r0));
      GemmI32(a + p.a_off[bi], b + p.b_off[bi], c + bi * p.m * p.n, i0, i1, p.k, p.n);
      r0 += i1 - i0;
    }
  });
}

// A - zero point, where the zero point is a scalar or one value per row of A (shape [M] for
// 2-D A, or A's shape with the last dim 1).
Result<std::vector<int32_t>> ShiftRows(const KernelContext& ctx, const Tensor& a, const Tensor* zp,
                                       const char* what) {
  std::vector<int32_t> v = LoadInts(a);
  if (zp == nullptr) return v;
  if (zp->dtype() != a.dtype()) {
    return ctx.Error(std::string(what) + " " + zp->Describe() + " must have the dtype of " +
                     a.Describe());
  }
  const int64_t k = a.rank() == 0 ? 1 : a.dim(a.rank() - 1);
  const std::vector<int32_t> z = LoadInts(*zp);
  if (z.size() == 1) {
    for (auto& e : v) e -= z[0];
    return v;
  }
  std::vector<int64_t> row_shape = a.shape();
  if (!row_shape.empty()) row_shape.back() = 1;
  const bool per_row_2d = a.rank() == 2 && zp->rank() == 1 && zp->dim(0) == a.dim(0);
  if (k == 0 || (!per_row_2d && zp->shape() != row_shape)) {
    return ctx.Error(std::string(what) + " " + zp->Describe() +
                     " must be a scalar or hold one value per row of " + a.Describe());
  }
  for (size_t i = 0; i < v.size(); ++i) v[i] -= z[i / static_cast<size_t>(k)];
  return v;
}

// B - zero point, where the zero point is a scalar or one value per column of B (shape [N], or
// B's shape with the second-to-last dim 1).
Result<std::vector<int32_t>> ShiftCols(const KernelContext& ctx, const Tensor& b, const Tensor* zp,
                                       const char* what) {
  std::vector<int32_t> v = LoadInts(b);
  if (zp == nullptr) return v;
  if (zp->dtype() != b.dtype()) {
    return ctx.Error(std::string(what) + " " + zp->Describe() + " must have the dtype of " +
                     b.Describe());
  }
  const std::vector<int32_t> z = LoadInts(*zp);
  if (z.size() == 1) {
    for (auto& e : v) e -= z[0];
    return v;
  }
  if (b.rank() < 2) {
    return ctx.Error(std::string(what) + " must be a scalar for 1-D " + b.Describe());
  }
  const int64_t n = b.dim(b.rank() - 1), k = b.dim(b.rank() - 2);
  std::vector<int64_t> col_shape = b.shape();
  col_shape[col_shape.size() - 2] = 1;
  const bool per_col = zp->rank() == 1 && zp->dim(0) == n;
  if (!per_col && zp->shape() != col_shape) {
    return ctx.Error(std::string(what) + " " + zp->Describe() +
                     " must be a scalar or hold one value per column of " + b.Describe());
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t col = static_cast<int64_t>(i) % n;
    const int64_t batch = static_cast<int64_t>(i) / (n * k);
    v[i] -= z[per_col ? col : batch * n + col];
  }
  return v;
}

OpSupport Q8InputsSupport(const SupportQuery& q, std::initializer_list<size_t> idx) {
  for (size_t i : idx) {
    const DType t = q.input_type(i);
    if (t != DType::kUndefined && !IsQ8(t)) {
      return OpSupport::No(q.node.op_type + ": input " + std::to_string(i) + " " +
                           TypeMsg("", t).substr(1) + " (u8/i8 only)");
    }
  }
  return OpSupport::Yes();
}

Status CheckQ8(const KernelContext& ctx, const Tensor* t, const char* what) {
  if (t == nullptr) return ctx.Error(std::string(what) + " is missing");
  if (!IsQ8(t->dtype())) return ctx.Unsupported(TypeMsg(what, t->dtype()) + " (u8/i8 only)");
  return Status::Ok();
}

Status RunMatMulInteger(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  TRY_STATUS(CheckQ8(ctx, a, "A"));
  TRY_STATUS(CheckQ8(ctx, b, "B"));
  TRY_ASSIGN(const MatMulPlan p, PlanMatMul(ctx, a->shape(), b->shape()));
  if (p.k > kMaxI32Reduction)
    return ctx.Unsupported("inner dimension too large for int32 accumulation");
  TRY_ASSIGN(const std::vector<int32_t> av, ShiftRows(ctx, *a, ctx.input(2), "a_zero_point"));
  TRY_ASSIGN(const std::vector<int32_t> bv, ShiftCols(ctx, *b, ctx.input(3), "b_zero_point"));
  Tensor y = Tensor::Empty(DType::kI32, p.out_shape);
  RunMatMulPlan(ctx, p, av.data(), bv.data(), y.data<int32_t>());
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// Reads a float scale tensor: a scalar, or `count` values when per-channel is allowed.
Result<std::vector<float>> ReadScales(const KernelContext& ctx, const Tensor* s, const char* what,
                                      int64_t count) {
  if (s == nullptr) return ctx.Error(std::string(what) + " is missing");
  if (s->dtype() != DType::kF32) return ctx.Unsupported(TypeMsg(what, s->dtype()));
  if (s->numel() == 1) return std::vector<float>(1, s->data<float>()[0]);
  if (count > 0 && s->rank() == 1 && s->numel() == count) {
    return std::vector<float>(s->data<float>(), s->data<float>() + count);
  }
  return ctx.Error(std::string(what) + " " + s->Describe() + " must be a scalar" +
                   (count > 0 ? " or hold " + std::to_string(count) + " values" : ""));
}

// Requantizes int32 accumulators: out = sat(round(acc * mult) + zp).
template <class Q>
void Requantize(const int32_t* acc, int64_t n, float mult, int32_t zp, Q* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = QuantizeValue<Q>(static_cast<float>(acc[i]) * mult, zp);
}

Result<int32_t> ReadZeroPoint(const KernelContext& ctx, const Tensor* zp, DType want,
                              const char* what) {
  if (zp == nullptr) return 0;
  if (zp->dtype() != want) {
    return ctx.Error(std::string(what) + " " + zp->Describe() + " must be " + dtype_name(want));
  }
  if (zp->numel() != 1)
    return ctx.Error(std::string(what) + " must be a scalar, got " + zp->Describe());
  return LoadInt(*zp, 0);
}

Status RunQLinearMatMul(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(3);
  const Tensor* yzp = ctx.input(7);
  TRY_STATUS(CheckQ8(ctx, a, "a"));
  TRY_STATUS(CheckQ8(ctx, b, "b"));
  TRY_STATUS(CheckQ8(ctx, yzp, "y_zero_point"));
  TRY_ASSIGN(const MatMulPlan p, PlanMatMul(ctx, a->shape(), b->shape()));
  if (p.k > kMaxI32Reduction)
    return ctx.Unsupported("inner dimension too large for int32 accumulation");
  const bool a2d = a->rank() == 2, b2d = b->rank() == 2;
  TRY_ASSIGN(const std::vector<float> as, ReadScales(ctx, ctx.input(1), "a_scale", a2d ? p.m : 0));
  TRY_ASSIGN(const std::vector<float> bs, ReadScales(ctx, ctx.input(4), "b_scale", b2d ? p.n : 0));
  TRY_ASSIGN(const std::vector<float> ys, ReadScales(ctx, ctx.input(6), "y_scale", 0));
  TRY_ASSIGN(const std::vector<int32_t> av, ShiftRows(ctx, *a, ctx.input(2), "a_zero_point"));
  TRY_ASSIGN(const std::vector<int32_t> bv, ShiftCols(ctx, *b, ctx.input(5), "b_zero_point"));
  TRY_ASSIGN(const int32_t zp, ReadZeroPoint(ctx, yzp, yzp->dtype(), "y_zero_point"));
  std::vector<int32_t> acc(static_cast<size_t>(p.batches * p.m * p.n));
  RunMatMulPlan(ctx, p, av.data(), bv.data(), acc.data());
  Tensor y = Tensor::Empty(yzp->dtype(), p.out_shape);
  auto write = [&](auto* out) {
    for (int64_t r = 0; r < p.batches * p.m; ++r) {
      const float sa = as[as.size() == 1 ? 0 : r % p.m];
      for (int64_t j = 0; j < p.n; ++j) {
        const float mult = sa * bs[bs.size() == 1 ? 0 : j] / ys[0];
        Requantize(acc.data() + r * p.n + j, 1, mult, zp, out + r * p.n + j);
      }
    }
  };
  if (yzp->dtype() == DType::kU8)
    write(y.data<uint8_t>());
  else
    write(y.data<int8_t>());
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Integer convolution (N-D, groups, dilations, pads, auto_pad) via im2col + int32 GEMM.

struct ConvGeom {
  int64_t batch = 0, c_in = 0, c_out = 0, group = 1;
  std::vector<int64_t> in_sp, k_sp, out_sp, strides, dilations, pad_begin;
  int64_t in_size = 1, k_size = 1, out_size = 1;
};

Result<ConvGeom> PlanConv(const KernelContext& ctx, const Tensor& x, const Tensor& w) {
  const Node& node = ctx.node();
  if (x.rank() < 3) return ctx.Error("X must have rank >= 3, got " + x.Describe());
  if (w.rank() != x.rank()) {
    return ctx.Error("W " + w.Describe() + " must have the rank of X " + x.Describe());
  }
  const size_t s = x.rank() - 2;
  ConvGeom g;
  g.batch = x.dim(0);
  g.c_in = x.dim(1);
  g.c_out = w.dim(0);
  g.group = node.attr_int("group", 1);
  if (g.group <= 0 || g.c_in % g.group != 0 || g.c_out % g.group != 0 ||
      w.dim(1) * g.group != g.c_in) {
    return ctx.Error("group " + std::to_string(g.group) + " does not fit X " + x.Describe() +
                     " and W " + w.Describe());
  }
  g.k_sp.assign(w.shape().begin() + 2, w.shape().end());
  const std::vector<int64_t> ks = node.attr_ints("kernel_shape", g.k_sp);
  if (ks != g.k_sp) return ctx.Error("kernel_shape does not match W " + w.Describe());
  g.strides = node.attr_ints("strides", std::vector<int64_t>(s, 1));
  g.dilations = node.attr_ints("dilations", std::vector<int64_t>(s, 1));
  std::vector<int64_t> pads = node.attr_ints("pads", std::vector<int64_t>(2 * s, 0));
  if (g.strides.size() != s || g.dilations.size() != s || pads.size() != 2 * s) {
    return ctx.Error("strides, dilations and pads must have " + std::to_string(s) + ", " +
                     std::to_string(s) + " and " + std::to_string(2 * s) + " values");
  }
  const std::string auto_pad = node.attr_string("auto_pad", "NOTSET");
  g.in_sp.assign(x.shape().begin() + 2, x.shape().end());
  for (size_t d = 0; d < s; ++d) {
    if (g.strides[d] <= 0 || g.dilations[d] <= 0 || pads[d] < 0 || pads[d + s] < 0) {
      return ctx.Error("strides and dilations must be positive and pads non-negative");
    }
    const int64_t ext = (g.k_sp[d] - 1) * g.dilations[d] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t out = (g.in_sp[d] + g.strides[d] - 1) / g.strides[d];
      const int64_t total = std::max<int64_t>(0, (out - 1) * g.strides[d] + ext - g.in_sp[d]);
      pads[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[d + s] = total - pads[d];
    } else if (auto_pad == "VALID") {
      pads[d] = pads[d + s] = 0;
    } else if (auto_pad != "NOTSET") {
      return ctx.Error("auto_pad '" + auto_pad + "' is not valid");
    }
    const int64_t out = (g.in_sp[d] + pads[d] + pads[d + s] - ext) / g.strides[d] + 1;
    if (g.in_sp[d] + pads[d] + pads[d + s] < ext || out <= 0) {
      return ctx.Error("kernel " + shape_to_string(g.k_sp) + " does not fit input " + x.Describe() +
                       " with the given pads and dilations");
    }
    g.out_sp.push_back(out);
    g.pad_begin.push_back(pads[d]);
    g.in_size *= g.in_sp[d];
    g.k_size *= g.k_sp[d];
    g.out_size *= out;
  }
  if (w.dim(1) * g.k_size > kMaxI32Reduction) {
    return ctx.Unsupported("kernel volume too large for int32 accumulation");
  }
  return g;
}

// Runs the convolution of zero-point-shifted int32 x and w; y is [batch, c_out, out_size].
void ConvI32(KernelContext& ctx, const ConvGeom& g, const int32_t* x, const int32_t* w,
             int32_t* y) {
  const int64_t cg = g.c_in / g.group, mg = g.c_out / g.group;
  const int64_t rows = cg * g.k_size;
  const size_t s = g.in_sp.size();
  // For each spatial dim, the input index each (kernel tap, output position) reads, or -1.
  std::vector<std::vector<int64_t>> src(s);
  for (size_t d = 0; d < s; ++d) {
    src[d].resize(static_cast<size_t>(g.k_sp[d] * g.out_sp[d]));
    for (int64_t k = 0; k < g.k_sp[d]; ++k) {
      for (int64_t o = 0; o < g.out_sp[d]; ++o) {
        const int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
        src[d][k * g.out_sp[d] + o] = (i >= 0 && i < g.in_sp[d]) ? i : -1;
      }
    }
  }
  std::vector<int32_t> col(static_cast<size_t>(rows * g.out_size));
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t gi = 0; gi < g.group; ++gi) {
      const int32_t* xin = x + (n * g.c_in + gi * cg) * g.in_size;
      // im2col, one row per (channel, kernel tap).
      ctx.pool().ParallelFor(rows, std::max<int64_t>(1, 8192 / g.out_size),
                             [&](int64_t r0, int64_t r1) {
                               std::vector<int64_t> kidx(s), oidx(s);
                               for (int64_t r = r0; r < r1; ++r) {
                                 const int64_t c = r / g.k_size;
                                 int64_t kr = r % g.k_size;
                                 for (size_t d = s; d-- > 0;) {
                                   kidx[d] = kr % g.k_sp[d];
                                   kr /= g.k_sp[d];
                                 }
                                 const int32_t* xc = xin + c * g.in_size;
                                 int32_t* dst = col.data() + r * g.out_size;
                                 std::fill(oidx.begin(), oidx.end(), 0);
                                 for (int64_t o = 0; o < g.out_size; ++o) {
                                   int64_t off = 0;
                                   bool valid = true;
                                   for (size_t d = 0; d < s; ++d) {
                                     const int64_t i = src[d][kidx[d] * g.out_sp[d] + oidx[d]];
                                     if (i < 0) {
                                       valid = false;
                                       break;
                                     }
                                     off = off * g.in_sp[d] + i;
                                   }
                                   dst[o] = valid ? xc[off] : 0;
                                   for (size_t d = s; d-- > 0;) {
                                     if (++oidx[d] < g.out_sp[d]) break;
                                     oidx[d] = 0;
                                   }
                                 }
                               }
                             });
      const int32_t* wg = w + gi * mg * rows;
      int32_t* yg = y + (n * g.c_out + gi * mg) * g.out_size;
      ctx.pool().ParallelFor(
          mg, std::max<int64_t>(1, 65536 / (rows * g.out_size + 1)),
          [&](int64_t m0, int64_t m1) { GemmI32(wg, col.data(), yg, m0, m1, rows, g.out_size); });
    }
  }
}

// W - zero point, where the zero point is a scalar or one value per output channel.
Result<std::vector<int32_t>> ShiftPerChannel(const KernelContext& ctx, const Tensor& w,
                                             const Tensor* zp, const char* what) {
  std::vector<int32_t> v = LoadInts(w);
  if (zp == nullptr) return v;
  if (zp->dtype() != w.dtype()) {
    return ctx.Error(std::string(what) + " " + zp->Describe() + " must have the dtype of " +
                     w.Describe());
  }
  const std::vector<int32_t> z = LoadInts(*zp);
  const int64_t m = w.dim(0);
  if (z.size() != 1 && !(zp->rank() == 1 && zp->dim(0) == m)) {
    return ctx.Error(std::string(what) + " " + zp->Describe() +
                     " must be a scalar or hold one value per output channel");
  }
  const int64_t per = m == 0 ? 0 : w.numel() / m;
  for (size_t i = 0; i < v.size(); ++i) v[i] -= z.size() == 1 ? z[0] : z[i / per];
  return v;
}

OpSupport ConvSupport(const SupportQuery& q, std::initializer_list<size_t> q8_inputs) {
  const std::string ap = q.node.attr_string("auto_pad", "NOTSET");
  if (ap != "NOTSET" && ap != "VALID" && ap != "SAME_UPPER" && ap != "SAME_LOWER") {
    return OpSupport::No(q.node.op_type + ": auto_pad '" + ap + "' is not valid");
  }
  return Q8InputsSupport(q, q8_inputs);
}

Status RunConvInteger(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  TRY_STATUS(CheckQ8(ctx, x, "x"));
  TRY_STATUS(CheckQ8(ctx, w, "w"));
  TRY_ASSIGN(const ConvGeom g, PlanConv(ctx, *x, *w));
  TRY_ASSIGN(const int32_t xzp, ReadZeroPoint(ctx, ctx.input(2), x->dtype(), "x_zero_point"));
  std::vector<int32_t> xv = LoadInts(*x);
  for (auto& e : xv) e -= xzp;
  TRY_ASSIGN(const std::vector<int32_t> wv, ShiftPerChannel(ctx, *w, ctx.input(3), "w_zero_point"));
  std::vector<int64_t> out_shape = {g.batch, g.c_out};
  out_shape.insert(out_shape.end(), g.out_sp.begin(), g.out_sp.end());
  Tensor y = Tensor::Empty(DType::kI32, out_shape);
  ConvI32(ctx, g, xv.data(), wv.data(), y.data<int32_t>());
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

Status RunQLinearConv(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(3);
  const Tensor* yzp = ctx.input(7);
  TRY_STATUS(CheckQ8(ctx, x, "x"));
  TRY_STATUS(CheckQ8(ctx, w, "w"));
  TRY_STATUS(CheckQ8(ctx, yzp, "y_zero_point"));
  TRY_ASSIGN(const ConvGeom g, PlanConv(ctx, *x, *w));
  TRY_ASSIGN(const std::vector<float> xs, ReadScales(ctx, ctx.input(1), "x_scale", 0));
  TRY_ASSIGN(const std::vector<float> ws, ReadScales(ctx, ctx.input(4), "w_scale", g.c_out));
  TRY_ASSIGN(const std::vector<float> ys, ReadScales(ctx, ctx.input(6), "y_scale", 0));
  TRY_ASSIGN(const int32_t xzp, ReadZeroPoint(ctx, ctx.input(2), x->dtype(), "x_zero_point"));
  TRY_ASSIGN(const int32_t zp, ReadZeroPoint(ctx, yzp, yzp->dtype(), "y_zero_point"));
  TRY_ASSIGN(const std::vector<int32_t> wv, ShiftPerChannel(ctx, *w, ctx.input(5), "w_zero_point"));
  const Tensor* bias = ctx.input(8);
  if (bias != nullptr && (bias->dtype() != DType::kI32 || bias->numel() != g.c_out)) {
    return ctx.Error("B must be i32 with " + std::to_string(g.c_out) + " values, got " +
                     bias->Describe());
  }
  std::vector<int32_t> xv = LoadInts(*x);
  for (auto& e : xv) e -= xzp;
  std::vector<int32_t> acc(static_cast<size_t>(g.batch * g.c_out * g.out_size));
  ConvI32(ctx, g, xv.data(), wv.data(), acc.data());
  std::vector<int64_t> out_shape = {g.batch, g.c_out};
  out_shape.insert(out_shape.end(), g.out_sp.begin(), g.out_sp.end());
  Tensor y = Tensor::Empty(yzp->dtype(), out_shape);
  auto write = [&](auto* out) {
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t m = 0; m < g.c_out; ++m) {
        int32_t* a = acc.data() + (n * g.c_out + m) * g.out_size;
        if (bias != nullptr) {
          // Saturating add: a model's bias may be anything, overflow must not be UB.
          const int64_t bv = bias->data<int32_t>()[m];
          for (int64_t i = 0; i < g.out_size; ++i) {
            a[i] = static_cast<int32_t>(std::clamp<int64_t>(a[i] + bv, INT32_MIN, INT32_MAX));
          }
        }
        const float mult = xs[0] * ws[ws.size() == 1 ? 0 : m] / ys[0];
        Requantize(a, g.out_size, mult, zp, out + (n * g.c_out + m) * g.out_size);
      }
    }
  };
  if (yzp->dtype() == DType::kU8)
    write(y.data<uint8_t>());
  else
    write(y.data<int8_t>());
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace

void RegisterMiscQuantOps(KernelRegistry& r) {
  r.Register("QuantizeLinear", RunQuantizeLinear, QuantizeSupports);
  r.Register("DequantizeLinear", RunDequantizeLinear, DequantizeSupports);
  r.Register("DynamicQuantizeLinear", RunDynamicQuantizeLinear, DynamicQuantizeSupports);
  r.Register("MatMulInteger", RunMatMulInteger, [](const SupportQuery& q) {
    return Q8InputsSupport(q, {0, 1, 2, 3});
  });
  r.Register("QLinearMatMul", RunQLinearMatMul, [](const SupportQuery& q) {
    return Q8InputsSupport(q, {0, 2, 3, 5, 7});
  });
  r.Register("ConvInteger", RunConvInteger, [](const SupportQuery& q) {
    return ConvSupport(q, {0, 1, 2, 3});
  });
  r.Register("QLinearConv", RunQLinearConv, [](const SupportQuery& q) {
    return ConvSupport(q, {0, 2, 3, 5, 7});
  });
}

}  // namespace trinity
