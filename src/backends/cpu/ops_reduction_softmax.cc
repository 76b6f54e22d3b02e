// Softmax, LogSoftmax, Hardmax, NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
//
// Softmax-like ops see their input as [outer, D, inner] and normalise over D. Before opset 13
// the input is coerced to 2-D at `axis` ([prod(dims[:axis]), prod(dims[axis:])], inner = 1);
// from 13 only dims[axis] is normalised. Softmax subtracts the max before exp, so no term
// overflows; 16-bit floats are computed in float.
#include <algorithm>
#include <cmath>
#include <limits>

#include "backends/cpu/ops_reduction_internal.h"

namespace trinity::reduction {
namespace {

enum class SoftKind { kSoftmax, kLogSoftmax, kHardmax };

struct Layout {
  int64_t outer = 1, d = 1, inner = 1;
};

Result<Layout> SoftmaxLayout(const KernelContext& ctx, const std::vector<int64_t>& shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const bool coerce = ctx.opset() < 13;
  const int64_t def = coerce ? 1 : -1;
  int64_t axis = ctx.node().attr_int("axis", def);
  // A scalar is normalised as one element; before 13, axis == rank coerces to [numel, 1].
  const bool as_is = (rank == 0 && (axis == 0 || axis == -1)) || (coerce && axis == rank);
  if (rank == 0) axis = 0;
  if (!as_is) {
    TRY_ASSIGN(axis, NormalizeAxis(ctx, axis, rank));
  }
  Layout l;
  for (int64_t i = 0; i < rank; ++i) {
    if (i < axis)
      l.outer *= shape[i];
    else if (i == axis || coerce)
      l.d *= shape[i];
    else
      l.inner *= shape[i];
  }
  return l;
}

// One [D] row with stride 1 (the common case: softmax over the last axis).
template <class T, SoftKind K>
void SoftRow(const T* x, T* y, int64_t n, compute_t<T>* tmp) {
  using C = compute_t<T>;
  C m = to_compute(x[0]);
  int64_t arg = 0;
  for (int64_t j = 1; j < n; ++j) {
    const C v = to_compute(x[j]);
    if (v > m) m = v, arg = j;
  }
  if constexpr (K == SoftKind::kHardmax) {
    for (int64_t j = 0; j < n; ++j) y[j] = from_compute<T>(C(j == arg ? 1 : 0));
    return;
  }
  C sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    tmp[j] = ExpNonPos<C>(to_compute(x[j]) - m);
    sum += tmp[j];
  }
  if constexpr (K == SoftKind::kSoftmax) {
    const C inv = C(1) / sum;
    for (int64_t j = 0; j < n; ++j) y[j] = from_compute<T>(tmp[j] * inv);
  } else {
    const C shift = m + std::log(sum);
    for (int64_t j = 0; j < n; ++j) y[j] = from_compute<T>(to_compute(x[j]) - shift);
  }
}

// One [D, inner] block: normalises each of the `inner` columns over D, row by row so every
// loop runs over contiguous memory.
template <class T, SoftKind K>
void SoftBlock(const T* x, T* y, int64_t d, int64_t inner, compute_t<T>* mx, compute_t<T>* sum,
               int64_t* arg) {
  using C = compute_t<T>;
  for (int64_t k = 0; k < inner; ++k) mx[k] = to_compute(x[k]), arg[k] = 0, sum[k] = 0;
  for (int64_t j = 1; j < d; ++j) {
    const T* r = x + j * inner;
    for (int64_t k = 0; k < inner; ++k) {
      const C v = to_compute(r[k]);
      if (v > mx[k]) mx[k] = v, arg[k] = j;
    }
  }
  if constexpr (K == SoftKind::kHardmax) {
    for (int64_t j = 0; j < d; ++j) {
      for (int64_t k = 0; k < inner; ++k)
        y[j * inner + k] = from_compute<T>(C(arg[k] == j ? 1 : 0));
    }
    return;
  }
  for (int64_t j = 0; j < d; ++j) {
    const T* r = x + j * inner;
    for (int64_t k = 0; k < inner; ++k) sum[k] += ExpNonPos<C>(to_compute(r[k]) - mx[k]);
  }
  for (int64_t k = 0; k < inner; ++k) {
    if constexpr (K == SoftKind::kSoftmax)
      sum[k] = C(1) / sum[k];
    else
      sum[k] = mx[k] + std::log(sum[k]);
  }
  for (int64_t j = 0; j < d; ++j) {
    const T* r = x + j * inner;
    T* o = y + j * inner;
    for (int64_t k = 0; k < inner; ++k) {
      const C v = to_compute(r[k]);
      if constexpr (K == SoftKind::kSoftmax)
        o[k] = from_compute<T>(ExpNonPos<C>(v - mx[k]) * sum[k]);
      else
        o[k] = from_compute<T>(v - sum[k]);
    }
  }
}

template <class T, SoftKind K>
void SoftmaxTyped(const Layout& l, const T* x, T* y, ThreadPool& pool) {
  using C = compute_t<T>;
  const int64_t block = l.d * l.inner;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, block));
  pool.ParallelFor(l.outer, grain, [&](int64_t b, int64_t e) {
    if (l.inner == 1) {
      std::vector<C> tmp(static_cast<size_t>(l.d));
      for (int64_t o = b; o < e; ++o) SoftRow<T, K>(x + o * block, y + o * block, l.d, tmp.data());
      return;
    }
    std::vector<C> mx(static_cast<size_t>(l.inner)), sum(mx.size());
    std::vector<int64_t> arg(mx.size());
    for (int64_t o = b; o < e; ++o) {
      SoftBlock<T, K>(x + o * block, y + o * block, l.d, l.inner, mx.data(), sum.data(),
                      arg.data());
    }
  });
}

template <SoftKind K>
Status RunSoftmaxLike(const KernelContext& ctx, const Tensor& x, const Layout& l, Tensor& y) {
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      if (l.d > 0 && y.numel() > 0) SoftmaxTyped<T, K>(l, x.data<T>(), y.data<T>(), ctx.pool());
      return Status::Ok();
    }
  });
}

template <SoftKind K>
Status SoftmaxKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input 0");
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(Layout l, SoftmaxLayout(ctx, x.shape()));
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(RunSoftmaxLike<K>(ctx, x, l, y));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport FloatInputSupport(const SupportQuery& q) { return RequireInputDType(q, 0, kFloatTypes); }

// ---- Losses ----------------------------------------------------------------------------------

enum class Reduction { kNone, kSum, kMean };

Result<Reduction> ParseReduction(const KernelContext& ctx) {
  const std::string r = ctx.node().attr_string("reduction", "mean");
  if (r == "none") return Reduction::kNone;
  if (r == "sum") return Reduction::kSum;
  if (r == "mean") return Reduction::kMean;
  return ctx.Error("reduction '" + r + "' is not one of none, sum, mean");
}

OpSupport LossSupport(const SupportQuery& q) {
  const std::string r = q.node.attr_string("reduction", "mean");
  if (r != "none" && r != "sum" && r != "mean") {
    return OpSupport::No(q.node.op_type + ": reduction '" + r + "' is not supported");
  }
  OpSupport s = RequireInputDType(q, 0, kFloatTypes);
  if (!s.supported) return s;
  s = RequireInputDType(q, 1, {DType::kI32, DType::kI64});
  if (!s.supported) return s;
  return RequireInputDType(q, 2, kFloatTypes);
}

// The loss from log-probabilities `lp` ([N, C, D...] flattened as N, C, D) and targets: per
// element -lp[n, t, d] * w[t], zero where t == ignore_index.
template <class T>
Status NllCore(const KernelContext& ctx, const T* lp, const std::vector<int64_t>& in_shape,
               const Tensor& target, const Tensor* weight, Tensor& out) {
  if (in_shape.size() < 2) {
    return ctx.Error("input must have rank >= 2 ([N, C, ...]), got " + shape_to_string(in_shape));
  }
  std::vector<int64_t> want{in_shape[0]};
  want.insert(want.end(), in_shape.begin() + 2, in_shape.end());
  if (target.shape() != want) {
    return ctx.Error("target shape " + shape_to_string(target.shape()) + " does not match " +
                     shape_to_string(want) + " from input " + shape_to_string(in_shape));
  }
  const int64_t n = in_shape[0], c = in_shape[1];
  const int64_t d = c == 0 ? 0 : (n == 0 ? 0 : shape_numel(in_shape) / (n * c));
  std::vector<float> w;
  if (weight != nullptr) {
    TRY_ASSIGN(w, ReadFloats(ctx, *weight, "weight"));
    if (weight->rank() != 1 || weight->dim(0) != c) {
      return ctx.Error("weight shape " + shape_to_string(weight->shape()) + " is not [" +
                       std::to_string(c) + "]");
    }
  }
  TRY_ASSIGN(std::vector<int64_t> t, ReadInts(ctx, target, "target"));
  TRY_ASSIGN(Reduction red, ParseReduction(ctx));
  const int64_t ignore = ctx.node().attr_int("ignore_index", std::numeric_limits<int64_t>::min());
  const bool has_ignore = ctx.node().has_attr("ignore_index");
  std::vector<double> loss(t.size());
  double wsum = 0, lsum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const size_t e = static_cast<size_t>(i * d + j);
      const int64_t cls = t[e];
      if (has_ignore && cls == ignore) continue;
      if (cls < 0 || cls >= c) {
        return ctx.Error("target value " + std::to_string(cls) + " out of range [0, " +
                         std::to_string(c) + ")");
      }
      const double wt = w.empty() ? 1.0 : w[static_cast<size_t>(cls)];
      loss[e] = -static_cast<double>(to_compute(lp[(i * c + cls) * d + j])) * wt;
      wsum += wt;
      lsum += loss[e];
    }
  }
  if (red == Reduction::kNone) {
    out = Tensor::Empty(DTypeOf<T>::value, want);
    T* o = out.data<T>();
    for (size_t e = 0; e < loss.size(); ++e)
      o[e] = from_compute<T>(static_cast<compute_t<T>>(loss[e]));
    return Status::Ok();
  }
  out = Tensor::Empty(DTypeOf<T>::value, {});
  const double v = red == Reduction::kSum ? lsum : lsum / wsum;  // all ignored: 0/0 = NaN
  out.data<T>()[0] = from_compute<T>(static_cast<compute_t<T>>(v));
  return Status::Ok();
}

Status NllKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("missing input or target");
  const Tensor& x = *ctx.input(0);
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      Tensor out;
      TRY_STATUS(NllCore<T>(ctx, x.data<T>(), x.shape(), *ctx.input(1), ctx.input(2), out));
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// SoftmaxCrossEntropyLoss = NLL(LogSoftmax(scores, axis 1)); output 1 is the log-probabilities.
Status SceKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("missing scores or labels");
  const Tensor& x = *ctx.input(0);
  if (x.rank() < 2) return ctx.Error("scores must have rank >= 2, got " + x.Describe());
  Layout l;
  l.outer = x.dim(0);
  l.d = x.dim(1);
  l.inner = l.outer * l.d == 0 ? 0 : x.numel() / (l.outer * l.d);
  Tensor lp = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(RunSoftmaxLike<SoftKind::kLogSoftmax>(ctx, x, l, lp));
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      Tensor out;
      TRY_STATUS(NllCore<T>(ctx, lp.data<T>(), x.shape(), *ctx.input(1), ctx.input(2), out));
      ctx.set_output(0, std::move(out));
      if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(lp));
      return Status::Ok();
    }
  });
}

}  // namespace

void RegisterSoftmaxOps(KernelRegistry& r) {
  r.Register("Softmax", SoftmaxKernel<SoftKind::kSoftmax>, FloatInputSupport);
  r.Register("LogSoftmax", SoftmaxKernel<SoftKind::kLogSoftmax>, FloatInputSupport);
  r.Register("Hardmax", SoftmaxKernel<SoftKind::kHardmax>, FloatInputSupport);
  r.Register("NegativeLogLikelihoodLoss", NllKernel, LossSupport);
  r.Register("SoftmaxCrossEntropyLoss", SceKernel, LossSupport);
}

}  // namespace trinity::reduction
