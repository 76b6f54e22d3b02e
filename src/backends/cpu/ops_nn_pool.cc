// Pooling: MaxPool (with Indices), AveragePool, LpPool, their Global* forms, and MaxUnpool.
//
// One engine handles 1-, 2- and 3-D windows by viewing every input as 3-D (leading spatial dims
// of size 1, kernel 1). Each (batch, channel) plane is independent, so planes are the unit of
// parallel work. For each output position the window's in-bounds kernel range is computed once
// per axis, so the inner loops carry no bounds checks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/ops_nn_common.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

struct Pool3 {
  int64_t in[3], k[3], s[3], d[3], pb[3], pe[3], out[3];
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
};

Pool3 ToPool3(const WindowGeometry& g) {
  Pool3 p;
  const size_t lead = 3 - g.rank();
  for (size_t i = 0; i < 3; ++i) {
    const bool real = i >= lead;
    const size_t j = i - lead;
    p.in[i] = real ? g.in[j] : 1;
    p.k[i] = real ? g.kernel[j] : 1;
    p.s[i] = real ? g.strides[j] : 1;
    p.d[i] = real ? g.dilations[j] : 1;
    p.pb[i] = real ? g.pads_begin[j] : 0;
    p.pe[i] = real ? g.pads_end[j] : 0;
    p.out[i] = real ? g.out[j] : 1;
  }
  return p;
}

// Kernel taps [*k0, *k1) whose position start + k*d lies in [lo, hi).
inline void TapRange(int64_t start, int64_t d, int64_t kernel, int64_t lo, int64_t hi, int64_t* k0,
                     int64_t* k1) {
  *k0 = start >= lo ? 0 : (lo - start + d - 1) / d;
  *k1 = hi <= start ? 0 : std::min(kernel, (hi - start + d - 1) / d);
  if (*k1 < *k0) *k1 = *k0;
}

enum class PoolKind { kMax, kAvg, kLp };

struct PoolParams {
  PoolKind kind = PoolKind::kMax;
  bool count_include_pad = false;
  float p = 2.f;           // LpPool exponent
  bool col_major = false;  // MaxPool storage_order = 1
};

// Pools one (n, c) plane. `idx` (MaxPool Indices) may be nullptr; `base` is the plane's offset
// in the flattened input, added to every index.
template <class T>
void PoolPlane(const T* x, T* y, int64_t* idx, int64_t base, const Pool3& p, const PoolParams& pp) {
  using C = compute_t<T>;
  using Acc = std::conditional_t<std::is_same_v<C, double>, double, float>;
  int64_t o = 0;
  for (int64_t od = 0; od < p.out[0]; ++od) {
    const int64_t sd = od * p.s[0] - p.pb[0];
    int64_t d0, d1;
    TapRange(sd, p.d[0], p.k[0], 0, p.in[0], &d0, &d1);
    for (int64_t oh = 0; oh < p.out[1]; ++oh) {
      const int64_t sh = oh * p.s[1] - p.pb[1];
      int64_t h0, h1;
      TapRange(sh, p.d[1], p.k[1], 0, p.in[1], &h0, &h1);
      for (int64_t ow = 0; ow < p.out[2]; ++ow, ++o) {
        const int64_t sw = ow * p.s[2] - p.pb[2];
        int64_t w0, w1;
        TapRange(sw, p.d[2], p.k[2], 0, p.in[2], &w0, &w1);
        if (pp.kind == PoolKind::kMax) {
          C best = std::numeric_limits<C>::lowest();
          if constexpr (std::numeric_limits<C>::has_infinity)
            best = -std::numeric_limits<C>::infinity();
          int64_t bi = -1;
          for (int64_t kd = d0; kd < d1; ++kd) {
            const int64_t id = sd + kd * p.d[0];
            for (int64_t kh = h0; kh < h1; ++kh) {
              const int64_t ih = sh + kh * p.d[1];
              const T* row = x + (id * p.in[1] + ih) * p.in[2];
              for (int64_t kw = w0; kw < w1; ++kw) {
                const int64_t iw = sw + kw * p.d[2];
                const C v = to_compute(row[iw]);
                if (v > best || bi < 0) {
                  best = v;
                  bi = pp.col_major ? id + p.in[0] * (ih + p.in[1] * iw)
                                    : (id * p.in[1] + ih) * p.in[2] + iw;
                }
              }
            }
          }
          y[o] = from_compute<T>(best);
          if (idx != nullptr) idx[o] = base + std::max<int64_t>(bi, 0);
          continue;
        }
        Acc sum = 0;
        for (int64_t kd = d0; kd < d1; ++kd) {
          const int64_t id = sd + kd * p.d[0];
          for (int64_t kh = h0; kh < h1; ++kh) {
            const T* row = x + (id * p.in[1] + sh + kh * p.d[1]) * p.in[2];
            if (pp.kind == PoolKind::kAvg) {
              for (int64_t kw = w0; kw < w1; ++kw)
                sum += static_cast<Acc>(to_compute(row[sw + kw * p.d[2]]));
            } else {
              for (int64_t kw = w0; kw < w1; ++kw) {
                sum += std::pow(std::abs(static_cast<Acc>(to_compute(row[sw + kw * p.d[2]]))),
                                static_cast<Acc>(pp.p));
              }
            }
          }
        }
        if (pp.kind == PoolKind::kLp) {
          y[o] = from_compute<T>(std::pow(sum, static_cast<Acc>(1) / static_cast<Acc>(pp.p)));
          continue;
        }
        int64_t count = (d1 - d0) * (h1 - h0) * (w1 - w0);
        if (pp.count_include_pad) {
          // Taps inside the padded extent count, taps past the end padding (ceil_mode) do not.
          int64_t a0, a1, b0, b1, c0, c1;
          TapRange(sd, p.d[0], p.k[0], -p.pb[0], p.in[0] + p.pe[0], &a0, &a1);
          TapRange(sh, p.d[1], p.k[1], -p.pb[1], p.in[1] + p.pe[1], &b0, &b1);
          TapRange(sw, p.d[2], p.k[2], -p.pb[2], p.in[2] + p.pe[2], &c0, &c1);
          count = (a1 - a0) * (b1 - b0) * (c1 - c0);
        }
        y[o] = from_compute<T>(count > 0 ? sum / static_cast<Acc>(count) : Acc(0));
      }
    }
  }
}

bool MaxPoolTypeOk(DType t) {
  switch (t) {
    case DType::kF32:
    case DType::kF64:
    case DType::kF16:
    case DType::kBF16:
    case DType::kI8:
    case DType::kU8:
    case DType::kUndefined:
      return true;
    default:
      return false;
  }
}
bool FloatTypeOk(DType t) { return dtype_is_float(t) || t == DType::kUndefined; }

Status RunPool(KernelContext& ctx, const PoolParams& pp, bool global) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("input X is required");
  if (x->rank() < 3) return ctx.Error("X must have rank >= 3, got " + x->Describe());
  if (x->rank() > 5) return ctx.Unsupported("pooling over more than 3 spatial dims");
  const bool ok = pp.kind == PoolKind::kMax ? MaxPoolTypeOk(x->dtype()) : FloatTypeOk(x->dtype());
  if (!ok)
    return ctx.Unsupported(std::string("dtype ") + dtype_name(x->dtype()) + " is not supported");
  const std::vector<int64_t> in(x->shape().begin() + 2, x->shape().end());
  WindowGeometry g;
  if (global) {
    g.in = g.kernel = in;
    g.strides = g.dilations = std::vector<int64_t>(in.size(), 1);
    g.pads_begin = g.pads_end = std::vector<int64_t>(in.size(), 0);
    g.out = std::vector<int64_t>(in.size(), 1);
  } else {
    if (!ctx.node().has_attr("kernel_shape")) return ctx.Error("kernel_shape is required");
    TRY_ASSIGN(g, ComputeWindow(ctx, in, {}, ctx.node().attr_int("ceil_mode", 0) != 0));
  }
  const Pool3 p = ToPool3(g);
  std::vector<int64_t> yshape = {x->dim(0), x->dim(1)};
  yshape.insert(yshape.end(), g.out.begin(), g.out.end());
  Tensor y = Tensor::Empty(x->dtype(), yshape);
  const bool want_idx = pp.kind == PoolKind::kMax && ctx.num_outputs() > 1 && ctx.output_wanted(1);
  Tensor idx;
  if (want_idx) idx = Tensor::Empty(DType::kI64, yshape);
  const int64_t planes = x->dim(0) * x->dim(1);
  const int64_t in_sz = p.in_size(), out_sz = p.out_size();
  if (planes > 0 && out_sz > 0 && in_sz == 0) return ctx.Error("pooling over an empty input");
  visit_dtype(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T> || is_half_v<T>) {
      if constexpr (!std::is_same_v<T, bool>) {
        const T* xp = x->data<T>();
        T* yp = y.data<T>();
        int64_t* ip = want_idx ? idx.data<int64_t>() : nullptr;
        const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_sz * 4));
        ctx.pool().ParallelFor(planes, grain, [&](int64_t b, int64_t e) {
          for (int64_t pl = b; pl < e; ++pl) {
            PoolPlane<T>(xp + pl * in_sz, yp + pl * out_sz, ip ? ip + pl * out_sz : nullptr,
                         pl * in_sz, p, pp);
          }
        });
      }
    }
  });
  ctx.set_output(0, std::move(y));
  if (want_idx) ctx.set_output(1, std::move(idx));
  return Status::Ok();
}

Status MaxPoolKernel(KernelContext& ctx) {
  if (IsNhwcNode(ctx.node())) return RunPoolNhwc(ctx, /*max=*/true, /*global=*/false);
  PoolParams pp;
  pp.kind = PoolKind::kMax;
  const int64_t so = ctx.node().attr_int("storage_order", 0);
  if (so != 0 && so != 1)
    return ctx.Error("storage_order must be 0 or 1, got " + std::to_string(so));
  pp.col_major = so == 1;
  return RunPool(ctx, pp, false);
}

Status AveragePoolKernel(KernelContext& ctx) {
  if (IsNhwcNode(ctx.node())) return RunPoolNhwc(ctx, /*max=*/false, /*global=*/false);
  PoolParams pp;
  pp.kind = PoolKind::kAvg;
  pp.count_include_pad = ctx.node().attr_int("count_include_pad", 0) != 0;
  return RunPool(ctx, pp, false);
}

Result<PoolParams> LpParams(const KernelContext& ctx) {
  PoolParams pp;
  pp.kind = PoolKind::kLp;
  const Attribute* a = ctx.node().attr("p");
  // p is an int from opset 2 (a float in opset 1).
  pp.p =
      a == nullptr ? 2.f : (a->kind == Attribute::Kind::kFloat ? a->f : static_cast<float>(a->i));
  if (!(pp.p > 0.f)) return ctx.Error("p must be positive");
  return pp;
}

Status LpPoolKernel(KernelContext& ctx) {
  TRY_ASSIGN(PoolParams pp, LpParams(ctx));
  return RunPool(ctx, pp, false);
}

Status GlobalLpPoolKernel(KernelContext& ctx) {
  TRY_ASSIGN(PoolParams pp, LpParams(ctx));
  return RunPool(ctx, pp, true);
}

OpSupport PoolSupports(const SupportQuery& q) {
  const bool max = q.node.op_type == "MaxPool" || q.node.op_type == "GlobalMaxPool";
  const DType t = q.input_type(0);
  if (!(max ? MaxPoolTypeOk(t) : FloatTypeOk(t))) {
    return OpSupport::No(q.node.op_type + ": dtype " + dtype_name(t) + " is not supported");
  }
  if (std::string why = CheckAutoPad(q.node); !why.empty()) return OpSupport::No(why);
  if (q.node.attr_ints("kernel_shape").size() > 3) {
    return OpSupport::No(q.node.op_type + ": more than 3 spatial dims are not supported");
  }
  return OpSupport::Yes();
}

// MaxUnpool: scatters X into zeros at the flat positions given by I.
Status MaxUnpoolKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* ind = ctx.input(1);
  const Tensor* oshape = ctx.input(2);
  if (x == nullptr || ind == nullptr) return ctx.Error("inputs X and I are required");
  if (x->rank() < 3) return ctx.Error("X must have rank >= 3, got " + x->Describe());
  if (ind->shape() != x->shape()) {
    return ctx.Error("I " + ind->Describe() + " must have the shape of X " + x->Describe());
  }
  if (ind->dtype() != DType::kI64) return ctx.Error("I must be int64, got " + ind->Describe());
  // Indices address the default unpooled shape; an explicit output_shape (the ONNX reference
  // behaviour) places that result in the leading corner of a larger zero tensor.
  const std::vector<int64_t> in(x->shape().begin() + 2, x->shape().end());
  if (!ctx.node().has_attr("kernel_shape")) return ctx.Error("kernel_shape is required");
  const size_t r = in.size();
  const std::vector<int64_t> k = ctx.node().attr_ints("kernel_shape");
  std::vector<int64_t> s = ctx.node().attr_ints("strides", std::vector<int64_t>(r, 1));
  std::vector<int64_t> pads = ctx.node().attr_ints("pads", std::vector<int64_t>(2 * r, 0));
  if (s.empty()) s.assign(r, 1);
  if (pads.empty()) pads.assign(2 * r, 0);
  if (k.size() != r || s.size() != r || pads.size() != 2 * r) {
    return ctx.Error("kernel_shape/strides/pads do not match " + std::to_string(r) +
                     " spatial dims");
  }
  std::vector<int64_t> ishape = {x->dim(0), x->dim(1)};
  for (size_t i = 0; i < r; ++i) {
    const int64_t o = (in[i] - 1) * s[i] + k[i] - pads[i] - pads[i + r];
    if (o < 0 || k[i] <= 0 || s[i] <= 0) {
      return ctx.Error("invalid unpooled size in dim " + std::to_string(i));
    }
    ishape.push_back(o);
  }
  std::vector<int64_t> yshape = ishape;
  if (oshape != nullptr) {
    TRY_ASSIGN(yshape, ReadInts(ctx, *oshape, "output_shape"));
    if (yshape.size() != x->rank()) {
      return ctx.Error("output_shape " + shape_to_string(yshape) + " must have rank " +
                       std::to_string(x->rank()));
    }
    for (size_t d = 0; d < yshape.size(); ++d) {
      if (yshape[d] < ishape[d]) {
        return ctx.Error("output_shape " + shape_to_string(yshape) +
                         " is smaller than the unpooled shape " + shape_to_string(ishape));
      }
    }
  }
  const int64_t total = shape_numel(ishape);
  if (total < 0 || shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Zeros(x->dtype(), yshape);
  const size_t es = dtype_size(x->dtype());
  const auto* src = static_cast<const uint8_t*>(x->raw_data());
  auto* dst = static_cast<uint8_t*>(y.raw_data());
  const int64_t* ip = ind->data<int64_t>();
  const std::vector<int64_t> ist = ContiguousStrides(ishape), yst = ContiguousStrides(yshape);
  for (int64_t i = 0; i < x->numel(); ++i) {
    if (ip[i] < 0 || ip[i] >= total) {
      return ctx.Error("indices value " + std::to_string(ip[i]) + " out of range [0, " +
                       std::to_string(total) + ")");
    }
    int64_t off = 0;
    for (size_t d = 0; d < ishape.size(); ++d) off += (ip[i] / ist[d]) % ishape[d] * yst[d];
    std::memcpy(dst + off * es, src + i * es, es);
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace

void RegisterNnPoolOps(KernelRegistry& r) {
  r.Register("MaxPool", MaxPoolKernel, PoolSupports);
  r.Register("AveragePool", AveragePoolKernel, PoolSupports);
  r.Register("LpPool", LpPoolKernel, PoolSupports);
  r.Register(
      "GlobalMaxPool",
      [](KernelContext& ctx) {
        if (IsNhwcNode(ctx.node())) return RunPoolNhwc(ctx, /*max=*/true, /*global=*/true);
        return RunPool(ctx, {PoolKind::kMax}, true);
      },
      PoolSupports);
  r.Register(
      "GlobalAveragePool",
      [](KernelContext& ctx) {
        if (IsNhwcNode(ctx.node())) return RunPoolNhwc(ctx, /*max=*/false, /*global=*/true);
        return RunPool(ctx, {PoolKind::kAvg}, true);
      },
      PoolSupports);
  r.Register("GlobalLpPool", GlobalLpPoolKernel, PoolSupports);
  r.Register("MaxUnpool", MaxUnpoolKernel);
}

}  // namespace trinity
