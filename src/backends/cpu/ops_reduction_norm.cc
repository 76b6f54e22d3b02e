// Normalisations: BatchNormalization (inference), InstanceNormalization, LayerNormalization,
// GroupNormalization, LpNormalization, MeanVarianceNormalization and LRN.
//
// Statistics are computed in two passes (mean, then squared deviations) in the compute type
// (float for 16-bit floats), which stays accurate where E[x^2] - E[x]^2 would cancel.
#include <algorithm>
#include <cmath>

#include "backends/cpu/ops_reduction_internal.h"

namespace trinity::reduction {
namespace {

Status UnsupportedDType(const KernelContext& ctx, const Tensor& t) {
  return ctx.Unsupported(std::string("dtype ") + dtype_name(t.dtype()) + " is not supported");
}

// Calls f.template operator()<T>() for a float dtype of `x`, or fails naming it.
template <class F>
Status ForFloat(const KernelContext& ctx, const Tensor& x, F&& f) {
  return visit_float_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>)
      return UnsupportedDType(ctx, x);
    else
      return f(tag);
  });
}

Status RequireRankAtLeast(const KernelContext& ctx, const Tensor& x, size_t r) {
  if (x.rank() >= r) return Status::Ok();
  return ctx.Error("input must have rank >= " + std::to_string(r) + ", got " + x.Describe());
}

// Reads a per-channel parameter (any float dtype) that must hold exactly `n` values.
Result<std::vector<float>> ReadParam(const KernelContext& ctx, size_t i, const char* what,
                                     int64_t n) {
  if (!ctx.has_input(i)) return ctx.Error(std::string("missing input ") + what);
  TRY_ASSIGN(std::vector<float> v, ReadFloats(ctx, *ctx.input(i), what));
  if (static_cast<int64_t>(v.size()) != n) {
    return ctx.Error(std::string(what) + " has " + std::to_string(v.size()) +
                     " elements, expected " + std::to_string(n));
  }
  return v;
}

// y[c-block] = x * a[c] + b[c] over [N, C, inner].
template <class T>
void ChannelAffine(const T* x, T* y, int64_t n, int64_t c, int64_t inner, const float* a,
                   const float* b, ThreadPool& pool) {
  using C = compute_t<T>;
  pool.ParallelFor(n * c, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, inner)),
                   [&](int64_t lo, int64_t hi) {
                     for (int64_t nc = lo; nc < hi; ++nc) {
                       const C sa = a[nc % c], sb = b[nc % c];
                       const T* s = x + nc * inner;
                       T* d = y + nc * inner;
                       for (int64_t k = 0; k < inner; ++k)
                         d[k] = from_compute<T>(to_compute(s[k]) * sa + sb);
                     }
                   });
}

// ---- BatchNormalization ----------------------------------------------------------------------

OpSupport BatchNormSupport(const SupportQuery& q) {
  if (q.node.attr_int("training_mode", 0) != 0) {
    return OpSupport::No("BatchNormalization: training_mode=1 is not supported (inference only)");
  }
  if (q.node.attr_int("spatial", 1) != 1) {
    return OpSupport::No("BatchNormalization: spatial=0 is not supported");
  }
  for (size_t i = 1; i < q.node.outputs.size(); ++i) {
    if (!q.node.outputs[i].empty()) {
      return OpSupport::No(
          "BatchNormalization: training outputs (running mean/var) are not supported");
    }
  }
  return RequireInputDType(q, 0, kFloatTypes);
}

Status BatchNormKernel(KernelContext& ctx) {
  if (ctx.node().attr_int("training_mode", 0) != 0) {
    return ctx.Unsupported("training_mode=1 is not supported (inference only)");
  }
  if (!ctx.has_input(0)) return ctx.Error("missing input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(RequireRankAtLeast(ctx, x, 2));
  const int64_t n = x.dim(0), c = x.dim(1);
  const int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  TRY_ASSIGN(auto scale, ReadParam(ctx, 1, "scale", c));
  TRY_ASSIGN(auto bias, ReadParam(ctx, 2, "B", c));
  TRY_ASSIGN(auto mean, ReadParam(ctx, 3, "mean", c));
  TRY_ASSIGN(auto var, ReadParam(ctx, 4, "var", c));
  const double eps = ctx.node().attr_float("epsilon", 1e-5f);
  std::vector<float> a(static_cast<size_t>(c)), b(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const double s = scale[i] / std::sqrt(static_cast<double>(var[i]) + eps);
    a[i] = static_cast<float>(s);
    b[i] = static_cast<float>(bias[i] - mean[i] * s);
  }
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    ChannelAffine<T>(x.data<T>(), y.data<T>(), n, c, inner, a.data(), b.data(), ctx.pool());
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---- Mean / inverse std-dev of contiguous groups ------------------------------------------------

// Mean and 1/sqrt(var + eps) of `len` contiguous elements.
template <class T>
void GroupStats(const T* x, int64_t len, double eps, float* mean_out, float* inv_out) {
  using C = compute_t<T>;
  C sum = 0;
  for (int64_t k = 0; k < len; ++k) sum += to_compute(x[k]);
  const C mean = len > 0 ? sum / static_cast<C>(len) : C(0);
  C sq = 0;
  for (int64_t k = 0; k < len; ++k) {
    const C d = to_compute(x[k]) - mean;
    sq += d * d;
  }
  const double var = len > 0 ? static_cast<double>(sq) / static_cast<double>(len) : 0.0;
  *mean_out = static_cast<float>(mean);
  *inv_out = static_cast<float>(1.0 / std::sqrt(var + eps));
}

// ---- InstanceNormalization -------------------------------------------------------------------

Status InstanceNormKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(RequireRankAtLeast(ctx, x, 2));
  const int64_t n = x.dim(0), c = x.dim(1);
  const int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  TRY_ASSIGN(auto scale, ReadParam(ctx, 1, "scale", c));
  TRY_ASSIGN(auto bias, ReadParam(ctx, 2, "B", c));
  const double eps = ctx.node().attr_float("epsilon", 1e-5f);
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    ctx.pool().ParallelFor(n * c, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, inner)),
                           [&](int64_t lo, int64_t hi) {
                             for (int64_t nc = lo; nc < hi; ++nc) {
                               float mean, inv;
                               GroupStats<T>(xp + nc * inner, inner, eps, &mean, &inv);
                               const C a = inv * scale[nc % c];
                               const C b = bias[nc % c] - mean * a;
                               const T* s = xp + nc * inner;
                               T* d = yp + nc * inner;
                               for (int64_t k = 0; k < inner; ++k) {
                                 d[k] = from_compute<T>(to_compute(s[k]) * a + b);
                               }
                             }
                           });
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---- LayerNormalization ----------------------------------------------------------------------

// Expands a parameter that broadcasts (numpy rules, unidirectionally) to `norm_shape`.
Result<std::vector<float>> ExpandParam(const KernelContext& ctx, const Tensor& t, const char* what,
                                       const std::vector<int64_t>& norm_shape) {
  TRY_ASSIGN(std::vector<float> v, ReadFloats(ctx, t, what));
  const auto& s = t.shape();
  bool ok = s.size() <= norm_shape.size();
  for (size_t i = 0; ok && i < s.size(); ++i) {
    const int64_t want = norm_shape[norm_shape.size() - s.size() + i];
    ok = s[i] == want || s[i] == 1;
  }
  if (!ok) {
    return ctx.Error(std::string(what) + " shape " + shape_to_string(s) +
                     " does not broadcast to " + shape_to_string(norm_shape));
  }
  const std::vector<int64_t> strides = BroadcastStrides(s, norm_shape);
  const int64_t total = shape_numel(norm_shape);
  std::vector<float> out(static_cast<size_t>(total));
  std::vector<int64_t> idx(norm_shape.size(), 0);
  int64_t off = 0;
  for (int64_t e = 0; e < total; ++e) {
    out[static_cast<size_t>(e)] = v[static_cast<size_t>(off)];
    for (size_t d = norm_shape.size(); d-- > 0;) {
      off += strides[d];
      if (++idx[d] < norm_shape[d]) break;
      off -= strides[d] * norm_shape[d];
      idx[d] = 0;
    }
  }
  return out;
}

OpSupport LayerNormSupport(const SupportQuery& q) {
  if (q.node.attr_int("stash_type", 1) != 1) {
    return OpSupport::No("LayerNormalization: stash_type " +
                         std::to_string(q.node.attr_int("stash_type", 1)) +
                         " is not supported (only 1 = float)");
  }
  return RequireInputDType(q, 0, kFloatTypes);
}

Status LayerNormKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1)) return ctx.Error("missing input X or Scale");
  const Tensor& x = *ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  TRY_ASSIGN(const int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", -1), rank));
  const std::vector<int64_t> norm_shape(x.shape().begin() + axis, x.shape().end());
  const int64_t d = shape_numel(norm_shape);
  const int64_t outer = d == 0 ? 0 : x.numel() / d;
  TRY_ASSIGN(auto scale, ExpandParam(ctx, *ctx.input(1), "Scale", norm_shape));
  std::vector<float> bias(static_cast<size_t>(d), 0.f);
  if (ctx.has_input(2)) {
    TRY_ASSIGN(bias, ExpandParam(ctx, *ctx.input(2), "B", norm_shape));
  }
  const double eps = ctx.node().attr_float("epsilon", 1e-5f);
  std::vector<int64_t> stat_shape(x.shape().begin(), x.shape().begin() + axis);
  stat_shape.resize(x.rank(), 1);
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  Tensor mean = Tensor::Empty(DType::kF32, stat_shape);
  Tensor inv = Tensor::Empty(DType::kF32, stat_shape);
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    float* mp = mean.data<float>();
    float* ip = inv.data<float>();
    ctx.pool().ParallelFor(
        outer, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, d)), [&](int64_t lo, int64_t hi) {
          for (int64_t o = lo; o < hi; ++o) {
            GroupStats<T>(xp + o * d, d, eps, mp + o, ip + o);
            const C m = mp[o], s = ip[o];
            const T* src = xp + o * d;
            T* dst = yp + o * d;
            for (int64_t k = 0; k < d; ++k) {
              dst[k] = from_compute<T>((to_compute(src[k]) - m) * s * scale[k] + bias[k]);
            }
          }
        });
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(mean));
  if (ctx.num_outputs() > 2) ctx.set_output(2, std::move(inv));
  return Status::Ok();
}

// ---- GroupNormalization ------------------------------------------------------------------------

Status GroupNormKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input X");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(RequireRankAtLeast(ctx, x, 2));
  const int64_t n = x.dim(0), c = x.dim(1);
  const int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  const int64_t g = ctx.node().attr_int("num_groups", 0);
  if (g <= 0 || c % g != 0) {
    return ctx.Error("num_groups " + std::to_string(g) + " must be positive and divide channels " +
                     std::to_string(c));
  }
  // Opset 18 scales per group; opset 21 redefined scale and bias as per channel.
  const bool per_channel = ctx.opset() >= 21;
  TRY_ASSIGN(auto scale, ReadParam(ctx, 1, "scale", per_channel ? c : g));
  TRY_ASSIGN(auto bias, ReadParam(ctx, 2, "bias", per_channel ? c : g));
  const double eps = ctx.node().attr_float("epsilon", 1e-5f);
  const int64_t cpg = c / g, len = cpg * inner;
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    ctx.pool().ParallelFor(n * g, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t ng = lo; ng < hi; ++ng) {
        float mean, inv;
        GroupStats<T>(xp + ng * len, len, eps, &mean, &inv);
        for (int64_t ci = 0; ci < cpg; ++ci) {
          const int64_t p = per_channel ? (ng % g) * cpg + ci : ng % g;
          const C a = inv * scale[p];
          const C b = bias[p] - mean * a;
          const T* s = xp + ng * len + ci * inner;
          T* d = yp + ng * len + ci * inner;
          for (int64_t k = 0; k < inner; ++k) d[k] = from_compute<T>(to_compute(s[k]) * a + b);
        }
      }
    });
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---- LpNormalization -------------------------------------------------------------------------

OpSupport LpNormSupport(const SupportQuery& q) {
  const int64_t p = q.node.attr_int("p", 2);
  if (p != 1 && p != 2) {
    return OpSupport::No("LpNormalization: p=" + std::to_string(p) + " is not supported (1 or 2)");
  }
  return RequireInputDType(q, 0, kFloatTypes);
}

Status LpNormKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input");
  const Tensor& x = *ctx.input(0);
  const int64_t p = ctx.node().attr_int("p", 2);
  if (p != 1 && p != 2) return ctx.Error("p=" + std::to_string(p) + " must be 1 or 2");
  const int64_t rank = static_cast<int64_t>(x.rank());
  TRY_ASSIGN(const int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", -1), rank));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= x.dim(i);
  for (int64_t i = axis + 1; i < rank; ++i) inner *= x.dim(i);
  const int64_t d = x.dim(axis);
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    std::vector<C> norm(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
      std::fill(norm.begin(), norm.end(), C(0));
      const T* s = xp + o * d * inner;
      T* dst = yp + o * d * inner;
      for (int64_t j = 0; j < d; ++j) {
        for (int64_t k = 0; k < inner; ++k) {
          const C v = to_compute(s[j * inner + k]);
          norm[k] += p == 1 ? std::abs(v) : v * v;
        }
      }
      // A zero norm means an all-zero vector; leave it zero rather than produce NaN.
      for (C& v : norm) v = p == 2 ? std::sqrt(v) : v;
      for (C& v : norm) v = v == C(0) ? C(0) : C(1) / v;
      for (int64_t j = 0; j < d; ++j) {
        for (int64_t k = 0; k < inner; ++k) {
          dst[j * inner + k] = from_compute<T>(to_compute(s[j * inner + k]) * norm[k]);
        }
      }
    }
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---- MeanVarianceNormalization -----------------------------------------------------------------

OpSupport MvnSupport(const SupportQuery& q) {
  if (q.opset < 9) {
    return OpSupport::No("MeanVarianceNormalization: opset " + std::to_string(q.opset) +
                         " (across_channels form) is not supported");
  }
  return RequireInputDType(q, 0, kFloatTypes);
}

// y = (x - mean) / (std + 1e-9) over `axes` (default [0, 2, 3]), as the ONNX function body.
Status MvnKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input");
  const Tensor& x = *ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  std::vector<bool> red(x.rank(), false);
  for (int64_t a : ctx.node().attr_ints("axes", {0, 2, 3})) {
    TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, a, rank));
    red[static_cast<size_t>(ax)] = true;
  }
  // Group id of each element = its index in the kept dims, walked with an odometer.
  std::vector<int64_t> gstride(x.rank(), 0);
  int64_t groups = 1;
  for (size_t i = x.rank(); i-- > 0;) {
    if (!red[i]) gstride[i] = groups, groups *= x.dim(i);
  }
  std::vector<int64_t> gid(static_cast<size_t>(x.numel()));
  {
    std::vector<int64_t> idx(x.rank(), 0);
    int64_t g = 0;
    for (int64_t e = 0; e < x.numel(); ++e) {
      gid[static_cast<size_t>(e)] = g;
      for (size_t d = x.rank(); d-- > 0;) {
        g += gstride[d];
        if (++idx[d] < x.dim(d)) break;
        g -= gstride[d] * x.dim(d);
        idx[d] = 0;
      }
    }
  }
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    std::vector<double> mean(static_cast<size_t>(groups), 0.0), var(mean.size(), 0.0);
    std::vector<int64_t> cnt(mean.size(), 0);
    for (size_t e = 0; e < gid.size(); ++e)
      mean[gid[e]] += static_cast<double>(to_compute(xp[e])), ++cnt[gid[e]];
    for (size_t i = 0; i < mean.size(); ++i) mean[i] /= std::max<int64_t>(1, cnt[i]);
    for (size_t e = 0; e < gid.size(); ++e) {
      const double dv = static_cast<double>(to_compute(xp[e])) - mean[gid[e]];
      var[gid[e]] += dv * dv;
    }
    for (size_t i = 0; i < var.size(); ++i)
      var[i] = 1.0 / (std::sqrt(var[i] / std::max<int64_t>(1, cnt[i])) + 1e-9);
    for (size_t e = 0; e < gid.size(); ++e) {
      const double v = (static_cast<double>(to_compute(xp[e])) - mean[gid[e]]) * var[gid[e]];
      yp[e] = from_compute<T>(static_cast<compute_t<T>>(v));
    }
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---- LRN ---------------------------------------------------------------------------------------

Status LrnKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("missing input");
  const Tensor& x = *ctx.input(0);
  TRY_STATUS(RequireRankAtLeast(ctx, x, 2));
  const int64_t size = ctx.node().attr_int("size", 0);
  if (size <= 0) return ctx.Error("size " + std::to_string(size) + " must be positive");
  const float alpha = ctx.node().attr_float("alpha", 1e-4f);
  const float beta = ctx.node().attr_float("beta", 0.75f);
  const float bias = ctx.node().attr_float("bias", 1.0f);
  const int64_t n = x.dim(0), c = x.dim(1);
  const int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  const int64_t lo_w = (size - 1) / 2, hi_w = size - 1 - lo_w;  // floor / ceil of (size-1)/2
  Tensor y = Tensor::Empty(x.dtype(), x.shape());
  TRY_STATUS(ForFloat(ctx, x, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* xp = x.data<T>();
    T* yp = y.data<T>();
    ctx.pool().ParallelFor(n * c, 1, [&](int64_t lo, int64_t hi) {
      std::vector<C> sq(static_cast<size_t>(inner));
      for (int64_t nc = lo; nc < hi; ++nc) {
        const int64_t b = nc / c, ch = nc % c;
        std::fill(sq.begin(), sq.end(), C(0));
        for (int64_t k = std::max<int64_t>(0, ch - lo_w); k <= std::min(c - 1, ch + hi_w); ++k) {
          const T* s = xp + (b * c + k) * inner;
          for (int64_t i = 0; i < inner; ++i) sq[i] += to_compute(s[i]) * to_compute(s[i]);
        }
        const T* s = xp + nc * inner;
        T* d = yp + nc * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const C den = std::pow(C(bias) + C(alpha) / C(size) * sq[i], C(beta));
          d[i] = from_compute<T>(to_compute(s[i]) / den);
        }
      }
    });
    return Status::Ok();
  }));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport FloatInput(const SupportQuery& q) { return RequireInputDType(q, 0, kFloatTypes); }

}  // namespace

void RegisterNormOps(KernelRegistry& r) {
  r.Register("BatchNormalization", BatchNormKernel, BatchNormSupport);
  r.Register("InstanceNormalization", InstanceNormKernel, FloatInput);
  r.Register("LayerNormalization", LayerNormKernel, LayerNormSupport);
  r.Register("GroupNormalization", GroupNormKernel, FloatInput);
  r.Register("LpNormalization", LpNormKernel, LpNormSupport);
  r.Register("MeanVarianceNormalization", MvnKernel, MvnSupport);
  r.Register("LRN", LrnKernel, FloatInput);
}

}  // namespace trinity::reduction
