// Resize (opsets 10, 11, 13, 18) and Upsample (7, 9).
//
// Every mode is separable, so each resized axis gets a table of taps (input index, weight) per
// output index, built once from the coordinate transformation, and the tensor is resized one
// axis at a time. Nearest is a plain N-d gather in the input dtype (so integer and bool tensors
// work exactly); linear and cubic run in float (double for f64). The tap formulas follow the
// ONNX reference implementation: a coordinate that is an exact integer k takes its "left"
// neighbour k-1 with ratio 1, pixels outside the input clamp to the edge, exclude_outside zeroes
// and renormalises them, and antialias widens the kernel by 1/scale when downsampling.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/ops_nn_common.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

struct ResizeSpec {
  std::string mode = "nearest";  // nearest | linear | cubic
  std::string coord = "half_pixel";
  std::string nearest = "round_prefer_floor";
  float cubic_a = -0.75f;
  bool exclude_outside = false;
  float extrapolation = 0.f;
  bool antialias = false;
  bool legacy = false;  // Resize-10 / Upsample: asymmetric, ORT's "simple" nearest rounding
};

// Taps of one axis: for output index j, taps [j*n, (j+1)*n) of idx/w; extrap[j] marks outputs
// that take the extrapolation value (tf_crop_and_resize outside the input).
struct AxisTaps {
  int64_t n = 1;
  std::vector<int64_t> idx;
  std::vector<double> w;
  std::vector<uint8_t> extrap;
  bool identity = false;
};

double CubicCoeff(double x, double a) {
  x = std::abs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

double Transform(const ResizeSpec& s, int64_t o, int64_t in, int64_t out, double scale,
                 double roi_start, double roi_end) {
  const double x = static_cast<double>(o);
  if (s.legacy || s.coord == "asymmetric") return x / scale;
  if (s.coord == "half_pixel") return (x + 0.5) / scale - 0.5;
  if (s.coord == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  // As in the ONNX reference, align_corners and tf_crop_and_resize use the unrounded output
  // length in * scale (they differ from the integer output size when scales are given).
  const double len = static_cast<double>(in) * scale;
  if (s.coord == "align_corners") {
    return len == 1 ? 0.0 : x * static_cast<double>(in - 1) / (len - 1);
  }
  if (s.coord == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  // tf_crop_and_resize
  if (len != 1) {
    return roi_start * static_cast<double>(in - 1) +
           x * (roi_end - roi_start) * static_cast<double>(in - 1) / (len - 1);
  }
  return 0.5 * (roi_start + roi_end) * static_cast<double>(in - 1);
}

int64_t NearestIndex(const ResizeSpec& s, double x, double scale) {
  if (s.legacy) return static_cast<int64_t>(scale < 1.0 ? std::ceil(x) : std::floor(x));
  const double fl = std::floor(x);
  const bool half = x - fl == 0.5;
  if (s.nearest == "floor") return static_cast<int64_t>(fl);
  if (s.nearest == "ceil") return static_cast<int64_t>(std::ceil(x));
  if (s.nearest == "round_prefer_ceil") return static_cast<int64_t>(half ? fl + 1 : std::round(x));
  return static_cast<int64_t>(half ? fl : std::round(x));  // round_prefer_floor
}

AxisTaps BuildTaps(const ResizeSpec& s, int64_t in, int64_t out, double scale, double roi_start,
                   double roi_end) {
  AxisTaps t;
  const bool nearest = s.mode == "nearest";
  const bool cubic = s.mode == "cubic";
  const double aa = s.antialias && !nearest && scale < 1.0 ? scale : 1.0;
  int64_t start = 0;
  if (!nearest) {
    start = static_cast<int64_t>(std::floor((cubic ? -2.0 : -1.0) / aa)) + 1;
    t.n = 2 - 2 * start;
  }
  t.idx.resize(static_cast<size_t>(out * t.n));
  t.w.resize(static_cast<size_t>(out * t.n));
  t.extrap.assign(static_cast<size_t>(out), 0);
  t.identity = in == out;
  for (int64_t j = 0; j < out; ++j) {
    double x = Transform(s, j, in, out, scale, roi_start, roi_end);
    // A NaN/inf roi must not reach the integer conversions below.
    if (!std::isfinite(x)) x = 0;
    x = std::clamp(x, -1e12, 1e12);
    int64_t* idx = &t.idx[static_cast<size_t>(j * t.n)];
    double* w = &t.w[static_cast<size_t>(j * t.n)];
    if (s.coord == "tf_crop_and_resize" && !s.legacy &&
        (x < 0 || x > static_cast<double>(in - 1))) {
      t.extrap[j] = 1;
      t.identity = false;
      for (int64_t k = 0; k < t.n; ++k) idx[k] = 0, w[k] = 0;
      continue;
    }
    if (nearest) {
      idx[0] = std::clamp<int64_t>(NearestIndex(s, x, scale), 0, in - 1);
      w[0] = 1;
      if (idx[0] != j) t.identity = false;
      continue;
    }
    // x = base + ratio with ratio in (0, 1]: an integer x takes its left neighbour.
    double base = std::floor(x);
    double ratio = x - base;
    if (ratio == 0) {
      base -= 1;
      ratio = 1;
    }
    double sum = 0;
    for (int64_t k = 0; k < t.n; ++k) {
      const double arg = (static_cast<double>(start + k) - ratio) * aa;
      w[k] = cubic ? CubicCoeff(arg, s.cubic_a) : std::max(0.0, 1.0 - std::abs(arg));
      sum += w[k];
    }
    if (aa != 1.0 && sum != 0) {
      for (int64_t k = 0; k < t.n; ++k) w[k] /= sum;
    }
    sum = 0;
    for (int64_t k = 0; k < t.n; ++k) {
      const int64_t raw = static_cast<int64_t>(base) + start + k;
      if (s.exclude_outside && (raw < 0 || raw >= in)) w[k] = 0;
      sum += w[k];
      idx[k] = std::clamp<int64_t>(raw, 0, in - 1);
    }
    if (s.exclude_outside && sum != 0) {
      for (int64_t k = 0; k < t.n; ++k) w[k] /= sum;
    }
    for (int64_t k = 0; k < t.n; ++k) {
      if (w[k] != 0 && (idx[k] != j || w[k] != 1.0)) t.identity = false;
    }
  }
  return t;
}

// Nearest: one N-d gather in the native dtype.
template <class T>
void GatherNearest(ThreadPool& pool, const T* x, T* y, const std::vector<int64_t>& in,
                   const std::vector<int64_t>& out, const std::vector<AxisTaps>& taps, T extrap) {
  const size_t r = in.size();
  const std::vector<int64_t> ist = ContiguousStrides(in);
  const int64_t last = out.back();
  const int64_t rows = shape_numel(out) / std::max<int64_t>(1, last);
  pool.ParallelFor(rows, 64, [&](int64_t r0, int64_t r1) {
    std::vector<int64_t> oi(r, 0);
    for (int64_t row = r0; row < r1; ++row) {
      int64_t rem = row, off = 0;
      bool ex = false;
      for (size_t d = r - 1; d-- > 0;) {
        oi[d] = rem % out[d];
        rem /= out[d];
      }
      for (size_t d = 0; d + 1 < r; ++d) {
        ex = ex || taps[d].extrap[oi[d]];
        off += taps[d].idx[oi[d]] * ist[d];
      }
      T* dst = y + row * last;
      const AxisTaps& lt = taps[r - 1];
      for (int64_t j = 0; j < last; ++j) {
        dst[j] = ex || lt.extrap[j] ? extrap : x[off + lt.idx[j]];
      }
    }
  });
}

// One separable pass over [outer, in_len, inner] -> [outer, out_len, inner].
template <class C>
void ResizeAxis(ThreadPool& pool, const C* x, C* y, int64_t outer, int64_t in_len, int64_t out_len,
                int64_t inner, const AxisTaps& t, C extrap) {
  pool.ParallelFor(outer * out_len, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, inner * t.n)),
                   [&](int64_t b, int64_t e) {
                     for (int64_t oj = b; oj < e; ++oj) {
                       const int64_t o = oj / out_len, j = oj % out_len;
                       C* dst = y + oj * inner;
                       if (t.extrap[j]) {
                         std::fill(dst, dst + inner, extrap);
                         continue;
                       }
                       const C* src = x + o * in_len * inner;
                       const int64_t* idx = &t.idx[static_cast<size_t>(j * t.n)];
                       const double* w = &t.w[static_cast<size_t>(j * t.n)];
                       if (inner == 1) {
                         C acc = 0;
                         for (int64_t k = 0; k < t.n; ++k)
                           acc += static_cast<C>(w[k]) * src[idx[k]];
                         dst[0] = acc;
                         continue;
                       }
                       if (t.n == 2 && w[0] != 0 && w[1] != 0) {
                         // Linear: the loop below computes 0 + w0*s0 (exact), then
                         // fma(w1, s1, that); one pass does the same without the zero fill.
                         const C w0 = static_cast<C>(w[0]), w1 = static_cast<C>(w[1]);
                         const C* s0 = src + idx[0] * inner;
                         const C* s1 = src + idx[1] * inner;
                         for (int64_t i = 0; i < inner; ++i) dst[i] = std::fma(w1, s1[i], w0 * s0[i]);
                         continue;
                       }
                       std::fill(dst, dst + inner, C(0));
                       for (int64_t k = 0; k < t.n; ++k) {
                         if (w[k] == 0) continue;
                         const C wk = static_cast<C>(w[k]);
                         const C* s = src + idx[k] * inner;
                         for (int64_t i = 0; i < inner; ++i) dst[i] += wk * s[i];
                       }
                     }
                   });
}

template <class T>
void ResizeSeparable(ThreadPool& pool, const Tensor& x, Tensor& y, const std::vector<int64_t>& out,
                     const std::vector<AxisTaps>& taps, float extrap) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  std::vector<int64_t> cur = x.shape();
  if constexpr (std::is_same_v<T, C>) {
    // f32/f64 compute in their own type: read x and write y directly, with pooled buffers in
    // between (no copies in and out, no zero fill: each pass writes every element).
    std::vector<size_t> axes;
    for (size_t d = 0; d < cur.size(); ++d)
      if (!(taps[d].identity && cur[d] == out[d])) axes.push_back(d);
    if (axes.empty()) {
      std::copy(x.data<T>(), x.data<T>() + x.numel(), y.data<T>());
      return;
    }
    const C* src = x.data<T>();
    Tensor buf[2];
    for (size_t k = 0; k < axes.size(); ++k) {
      const size_t d = axes[k];
      int64_t outer = 1, inner = 1;
      for (size_t i = 0; i < d; ++i) outer *= cur[i];
      for (size_t i = d + 1; i < cur.size(); ++i) inner *= cur[i];
      C* dst = y.data<T>();
      if (k + 1 < axes.size()) {
        buf[k % 2] = Tensor::Empty(x.dtype(), {outer * out[d] * inner});
        dst = buf[k % 2].data<T>();
      }
      ResizeAxis<C>(pool, src, dst, outer, cur[d], out[d], inner, taps[d], static_cast<C>(extrap));
      cur[d] = out[d];
      src = dst;
    }
    return;
  }
  std::vector<C> a(static_cast<size_t>(x.numel())), b;
  const T* xp = x.data<T>();
  for (int64_t i = 0; i < x.numel(); ++i) a[i] = static_cast<C>(to_compute(xp[i]));
  for (size_t d = 0; d < cur.size(); ++d) {
    if (taps[d].identity && cur[d] == out[d]) continue;
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < d; ++i) outer *= cur[i];
    for (size_t i = d + 1; i < cur.size(); ++i) inner *= cur[i];
    b.assign(static_cast<size_t>(outer * out[d] * inner), C(0));
    ResizeAxis<C>(pool, a.data(), b.data(), outer, cur[d], out[d], inner, taps[d],
                  static_cast<C>(extrap));
    cur[d] = out[d];
    a.swap(b);
  }
  T* yp = y.data<T>();
  for (int64_t i = 0; i < y.numel(); ++i) yp[i] = from_compute<T>(a[i]);
}

bool IsEmptyInput(const Tensor* t) { return t == nullptr || t->numel() == 0; }

Result<std::vector<double>> ReadFloats(const KernelContext& ctx, const Tensor& t,
                                       const char* what) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  Status st = visit_float_dtype(t.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, void>) {
      return ctx.Error(std::string(what) + " must be a float tensor, got " + t.Describe());
    } else {
      for (int64_t i = 0; i < t.numel(); ++i)
        v[i] = static_cast<double>(to_compute(t.data<T>()[i]));
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  return v;
}

bool ValidCoord(const std::string& c) {
  return c == "half_pixel" || c == "pytorch_half_pixel" || c == "align_corners" ||
         c == "asymmetric" || c == "tf_half_pixel_for_nn" || c == "tf_crop_and_resize";
}
bool ValidNearest(const std::string& n) {
  return n == "round_prefer_floor" || n == "round_prefer_ceil" || n == "floor" || n == "ceil";
}

// Resizes X given per-axis scales (or sizes, when `sizes` is non-empty) and roi.
Status RunResize(KernelContext& ctx, const ResizeSpec& spec, std::vector<double> scales,
                 std::vector<int64_t> sizes, std::vector<double> roi) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("input X is required");
  const size_t r = x->rank();
  if (r == 0) return ctx.Error("X must not be a scalar");
  const bool nearest = spec.mode == "nearest";
  if (!nearest && !dtype_is_float(x->dtype())) {
    return ctx.Unsupported(spec.mode + " mode on dtype " + dtype_name(x->dtype()));
  }
  // axes (opset 18): scales/sizes/roi name only these axes.
  std::vector<int64_t> axes;
  if (ctx.opset() >= 18 && ctx.node().has_attr("axes")) {
    for (int64_t a : ctx.node().attr_ints("axes")) {
      TRY_ASSIGN(int64_t na, NormalizeAxis(ctx, a, static_cast<int64_t>(r)));
      if (std::find(axes.begin(), axes.end(), na) != axes.end())
        return ctx.Error("axes repeats an axis");
      axes.push_back(na);
    }
  } else {
    for (size_t i = 0; i < r; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  const size_t na = axes.size();
  std::vector<double> full_scale(r, 1.0), roi_s(r, 0.0), roi_e(r, 1.0);
  std::vector<int64_t> out = x->shape();
  if (!roi.empty() && spec.coord == "tf_crop_and_resize") {
    if (roi.size() != 2 * na) {
      return ctx.Error("roi has " + std::to_string(roi.size()) + " values, expected " +
                       std::to_string(2 * na));
    }
    for (size_t i = 0; i < na; ++i) {
      roi_s[axes[i]] = roi[i];
      roi_e[axes[i]] = roi[i + na];
    }
  }
  if (!sizes.empty()) {
    if (sizes.size() != na) {
      return ctx.Error("sizes has " + std::to_string(sizes.size()) + " values, expected " +
                       std::to_string(na));
    }
    for (int64_t s : sizes) {
      if (s < 0) return ctx.Error("sizes value " + std::to_string(s) + " is negative");
    }
    double policy_scale = 1.0;
    const std::string policy = ctx.opset() >= 18
                                   ? ctx.node().attr_string("keep_aspect_ratio_policy", "stretch")
                                   : "stretch";
    if (policy == "stretch") {
      for (size_t i = 0; i < na; ++i) out[axes[i]] = sizes[i];
    } else if (policy == "not_larger" || policy == "not_smaller") {
      double& sc = policy_scale;
      sc = policy == "not_larger" ? std::numeric_limits<double>::infinity() : 0.0;
      for (size_t i = 0; i < na; ++i) {
        if (x->dim(axes[i]) == 0) return ctx.Error("keep_aspect_ratio_policy on an empty dim");
        const double q = static_cast<double>(sizes[i]) / static_cast<double>(x->dim(axes[i]));
        sc = policy == "not_larger" ? std::min(sc, q) : std::max(sc, q);
      }
      for (size_t i = 0; i < na; ++i) {
        const double o = std::round(sc * static_cast<double>(x->dim(axes[i])));
        if (!(o >= 0 && o < static_cast<double>(int64_t{1} << 40))) {
          return ctx.Error("output size out of range");
        }
        out[axes[i]] = static_cast<int64_t>(o);
      }
    } else {
      return ctx.Error("keep_aspect_ratio_policy '" + policy +
                       "' is not stretch, not_larger or not_smaller");
    }
    for (size_t i = 0; i < r; ++i) {
      full_scale[i] =
          x->dim(i) == 0 ? 1.0 : static_cast<double>(out[i]) / static_cast<double>(x->dim(i));
    }
    if (policy != "stretch") {
      // The reference maps coordinates with the one aspect-preserving scale.
      for (size_t i = 0; i < na; ++i) full_scale[axes[i]] = policy_scale;
    }
  } else {
    if (scales.size() != na) {
      return ctx.Error("scales has " + std::to_string(scales.size()) + " values, expected " +
                       std::to_string(na));
    }
    for (size_t i = 0; i < na; ++i) {
      if (!(scales[i] > 0) || !std::isfinite(scales[i])) {
        return ctx.Error("scales value " + std::to_string(scales[i]) + " must be positive");
      }
      full_scale[axes[i]] = scales[i];
      const double o = std::floor(static_cast<double>(x->dim(axes[i])) * scales[i]);
      if (o > static_cast<double>(int64_t{1} << 40)) return ctx.Error("output size too large");
      out[axes[i]] = static_cast<int64_t>(o);
    }
  }
  if (shape_numel(out) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Empty(x->dtype(), out);
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  if (x->numel() == 0) return ctx.Error("cannot resize an empty input to a non-empty output");
  std::vector<AxisTaps> taps(r);
  for (size_t d = 0; d < r; ++d) {
    taps[d] = BuildTaps(spec, x->dim(d), out[d], full_scale[d], roi_s[d], roi_e[d]);
  }
  Status st = visit_dtype(x->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, void>) {
      return ctx.Unsupported("undefined dtype");
    } else {
      if (nearest) {
        T ex{};
        if constexpr (std::is_same_v<T, bool>)
          ex = spec.extrapolation != 0.f;
        else
          ex = from_compute<T>(static_cast<compute_t<T>>(spec.extrapolation));
        GatherNearest<T>(ctx.pool(), x->data<T>(), y.data<T>(), x->shape(), out, taps, ex);
      } else if constexpr (std::is_floating_point_v<T> || is_half_v<T>) {
        ResizeSeparable<T>(ctx.pool(), *x, y, out, taps, spec.extrapolation);
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

Result<ResizeSpec> ReadSpec(const KernelContext& ctx, bool upsample) {
  const Node& n = ctx.node();
  ResizeSpec s;
  s.mode = n.attr_string("mode", "nearest");
  if (s.mode == "bilinear") s.mode = "linear";
  if (upsample || ctx.opset() < 11) {
    s.legacy = true;
    if (s.mode != "nearest" && s.mode != "linear")
      return ctx.Error("mode '" + s.mode + "' is not nearest or linear");
    return s;
  }
  if (s.mode != "nearest" && s.mode != "linear" && s.mode != "cubic") {
    return ctx.Error("mode '" + s.mode + "' is not nearest, linear or cubic");
  }
  s.coord = n.attr_string("coordinate_transformation_mode", "half_pixel");
  if (!ValidCoord(s.coord))
    return ctx.Unsupported("coordinate_transformation_mode '" + s.coord + "'");
  s.nearest = n.attr_string("nearest_mode", "round_prefer_floor");
  if (!ValidNearest(s.nearest)) return ctx.Error("nearest_mode '" + s.nearest + "' is not valid");
  s.cubic_a = n.attr_float("cubic_coeff_a", -0.75f);
  s.exclude_outside = n.attr_int("exclude_outside", 0) != 0;
  s.extrapolation = n.attr_float("extrapolation_value", 0.f);
  s.antialias = ctx.opset() >= 18 && n.attr_int("antialias", 0) != 0;
  return s;
}

Status ResizeKernel(KernelContext& ctx) {
  TRY_ASSIGN(ResizeSpec spec, ReadSpec(ctx, false));
  std::vector<double> scales, roi;
  std::vector<int64_t> sizes;
  if (ctx.opset() < 11) {
    if (IsEmptyInput(ctx.input(1))) return ctx.Error("scales input is required");
    TRY_ASSIGN(scales, ReadFloats(ctx, *ctx.input(1), "scales"));
    return RunResize(ctx, spec, scales, sizes, roi);
  }
  if (!IsEmptyInput(ctx.input(1))) {
    TRY_ASSIGN(roi, ReadFloats(ctx, *ctx.input(1), "roi"));
  }
  const bool has_scales = !IsEmptyInput(ctx.input(2));
  const bool has_sizes = !IsEmptyInput(ctx.input(3));
  if (has_scales == has_sizes) return ctx.Error("exactly one of scales and sizes must be given");
  if (has_scales) {
    TRY_ASSIGN(scales, ReadFloats(ctx, *ctx.input(2), "scales"));
  }
  if (has_sizes) {
    TRY_ASSIGN(sizes, ReadInts(ctx, *ctx.input(3), "sizes"));
  }
  return RunResize(ctx, spec, scales, sizes, roi);
}

Status UpsampleKernel(KernelContext& ctx) {
  TRY_ASSIGN(ResizeSpec spec, ReadSpec(ctx, true));
  std::vector<double> scales;
  if (ctx.has_input(1)) {
    TRY_ASSIGN(scales, ReadFloats(ctx, *ctx.input(1), "scales"));
  } else {
    for (float f : ctx.node().attr_floats("scales")) scales.push_back(f);
  }
  for (double s : scales) {
    if (s < 1) return ctx.Error("Upsample scales must be >= 1, got " + std::to_string(s));
  }
  return RunResize(ctx, spec, scales, {}, {});
}

OpSupport ResizeSupports(const SupportQuery& q) {
  std::string mode = q.node.attr_string("mode", "nearest");
  const DType t = q.input_type(0);
  if (mode != "nearest" && t != DType::kUndefined && !dtype_is_float(t)) {
    return OpSupport::No(q.node.op_type + ": mode " + mode + " on dtype " + dtype_name(t) +
                         " is not supported");
  }
  if (q.node.op_type == "Resize" && q.opset >= 11) {
    const std::string c = q.node.attr_string("coordinate_transformation_mode", "half_pixel");
    if (!ValidCoord(c)) {
      return OpSupport::No("Resize: coordinate_transformation_mode '" + c + "' is not supported");
    }
  }
  return OpSupport::Yes();
}

}  // namespace

void RegisterNnResizeOps(KernelRegistry& r) {
  r.Register("Resize", ResizeKernel, ResizeSupports);
  r.Register("Upsample", UpsampleKernel, ResizeSupports);
}

}  // namespace trinity
