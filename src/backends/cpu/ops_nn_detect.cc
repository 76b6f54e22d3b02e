// Sampling and detection ops: GridSample (opset 16, 4-D), RoiAlign (10, 16) and
// NonMaxSuppression (10, 11). The formulas follow the ONNX reference implementation (which
// matches ONNX Runtime), including its edge rules: RoiAlign's clamping of samples near the
// border and "max" mode taking the largest weighted corner, and NMS's keeping of a box whose
// area is zero.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "backends/cpu/ops_nn_common.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

bool FloatOk(DType t) { return dtype_is_float(t) || t == DType::kUndefined; }

template <class T>
std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<double>(to_compute(t.data<T>()[i]));
  return v;
}

Result<std::vector<double>> FloatsOf(const KernelContext& ctx, const Tensor& t, const char* what) {
  std::vector<double> v;
  bool ok = visit_float_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, void>) {
      return false;
    } else {
      v = AsDoubles<T>(t);
      return true;
    }
  });
  if (!ok) return ctx.Error(std::string(what) + " must be a float tensor, got " + t.Describe());
  return v;
}

// ---------------------------------------------------------------------------------------------
// GridSample

double Reflect(double x, double lo, double hi) {
  const double rng = hi - lo;
  if (rng <= 0) return lo;
  if (x < lo) {
    const double dx = lo - x;
    const int64_t n = static_cast<int64_t>(dx / rng);
    const double r = dx - static_cast<double>(n) * rng;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double dx = x - hi;
    const int64_t n = static_cast<int64_t>(dx / rng);
    const double r = dx - static_cast<double>(n) * rng;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

void CubicCoeffs(double x, double c[4]) {
  constexpr double a = -0.75;
  x = std::abs(x);
  c[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  c[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  c[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

enum class Pad { kZeros, kBorder, kReflection };

struct GridParams {
  int mode = 0;  // 0 bilinear, 1 nearest, 2 bicubic
  Pad pad = Pad::kZeros;
  bool align = false;
};

// Pixel (r, c) of an H x W image under the padding mode.
inline double PixelAt(const double* img, int64_t h, int64_t w, int64_t r, int64_t c, Pad pad,
                      const double border[4]) {
  if (pad == Pad::kZeros) {
    return (c >= 0 && c < w && r >= 0 && r < h) ? img[r * w + c] : 0.0;
  }
  if (pad == Pad::kBorder) {
    c = std::clamp<int64_t>(c, 0, w - 1);
    r = std::clamp<int64_t>(r, 0, h - 1);
  } else {
    c = static_cast<int64_t>(Reflect(static_cast<double>(c), border[0], border[2]));
    r = static_cast<int64_t>(Reflect(static_cast<double>(r), border[1], border[3]));
    c = std::clamp<int64_t>(c, 0, w - 1);
    r = std::clamp<int64_t>(r, 0, h - 1);
  }
  return img[r * w + c];
}

double SampleGrid(const double* img, int64_t h, int64_t w, double gx, double gy,
                  const GridParams& p) {
  const double border[4] = {p.align ? 0.0 : -0.5, p.align ? 0.0 : -0.5,
                            p.align ? static_cast<double>(w - 1) : static_cast<double>(w) - 0.5,
                            p.align ? static_cast<double>(h - 1) : static_cast<double>(h) - 0.5};
  double x = p.align ? (gx + 1) / 2.0 * static_cast<double>(w - 1)
                     : ((gx + 1) * static_cast<double>(w) - 1) / 2.0;
  double y = p.align ? (gy + 1) / 2.0 * static_cast<double>(h - 1)
                     : ((gy + 1) * static_cast<double>(h) - 1) / 2.0;
  if (!std::isfinite(x) || !std::isfinite(y)) return 0.0;
  // Keep far-away coordinates in a range where integer conversion is defined.
  x = std::clamp(x, -1e9, 1e9);
  y = std::clamp(y, -1e9, 1e9);
  if (p.mode == 1) {
    x = std::nearbyint(x);
    y = std::nearbyint(y);
  }
  if (p.pad == Pad::kBorder) {
    x = std::clamp(x, 0.0, static_cast<double>(w - 1));
    y = std::clamp(y, 0.0, static_cast<double>(h - 1));
  } else if (p.pad == Pad::kReflection) {
    x = Reflect(x, border[0], border[2]);
    y = Reflect(y, border[1], border[3]);
  }
  if (p.mode == 1) {
    return PixelAt(img, h, w, static_cast<int64_t>(y), static_cast<int64_t>(x), p.pad, border);
  }
  if (p.mode == 0) {
    const double x1 = std::floor(x), y1 = std::floor(y);
    const int64_t ix = static_cast<int64_t>(x1), iy = static_cast<int64_t>(y1);
    const double p11 = PixelAt(img, h, w, iy, ix, p.pad, border);
    const double p12 = PixelAt(img, h, w, iy, ix + 1, p.pad, border);
    const double p21 = PixelAt(img, h, w, iy + 1, ix, p.pad, border);
    const double p22 = PixelAt(img, h, w, iy + 1, ix + 1, p.pad, border);
    const double dx2 = x1 + 1 - x, dx1 = x - x1, dy2 = y1 + 1 - y, dy1 = y - y1;
    return dy2 * (dx2 * p11 + dx1 * p12) + dy1 * (dx2 * p21 + dx1 * p22);
  }
  const double x0 = std::floor(x) - 1, y0 = std::floor(y) - 1;
  const int64_t ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0);
  double cx[4], cy[4];
  CubicCoeffs(x - x0 - 1, cx);
  CubicCoeffs(y - y0 - 1, cy);
  double out = 0;
  for (int i = 0; i < 4; ++i) {
    double row = 0;
    for (int j = 0; j < 4; ++j) row += cx[j] * PixelAt(img, h, w, iy + i, ix + j, p.pad, border);
    out += cy[i] * row;
  }
  return out;
}

Status GridSampleKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* grid = ctx.input(1);
  if (x == nullptr || grid == nullptr) return ctx.Error("inputs X and grid are required");
  if (x->rank() != 4) return ctx.Unsupported("only 4-D X is supported, got " + x->Describe());
  if (grid->rank() != 4 || grid->dim(0) != x->dim(0) || grid->dim(3) != 2) {
    return ctx.Error("grid " + grid->Describe() + " must be [N, H_out, W_out, 2] with N of X " +
                     x->Describe());
  }
  if (!dtype_is_float(x->dtype()))
    return ctx.Unsupported(std::string("dtype ") + dtype_name(x->dtype()));
  GridParams p;
  const std::string mode = ctx.node().attr_string("mode", "bilinear");
  const std::string pad = ctx.node().attr_string("padding_mode", "zeros");
  p.align = ctx.node().attr_int("align_corners", 0) != 0;
  if (mode == "bilinear" || mode == "linear")
    p.mode = 0;
  else if (mode == "nearest")
    p.mode = 1;
  else if (mode == "bicubic" || mode == "cubic")
    p.mode = 2;
  else
    return ctx.Error("mode '" + mode + "' is not bilinear, nearest or bicubic");
  if (pad == "zeros")
    p.pad = Pad::kZeros;
  else if (pad == "border")
    p.pad = Pad::kBorder;
  else if (pad == "reflection")
    p.pad = Pad::kReflection;
  else
    return ctx.Error("padding_mode '" + pad + "' is not zeros, border or reflection");
  const int64_t n = x->dim(0), c = x->dim(1), h = x->dim(2), w = x->dim(3);
  const int64_t oh = grid->dim(1), ow = grid->dim(2);
  Tensor y = Tensor::Empty(x->dtype(), {n, c, oh, ow});
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  if (h == 0 || w == 0) return ctx.Error("X has an empty spatial dim: " + x->Describe());
  TRY_ASSIGN(std::vector<double> xv, FloatsOf(ctx, *x, "X"));
  TRY_ASSIGN(std::vector<double> gv, FloatsOf(ctx, *grid, "grid"));
  std::vector<double> out(static_cast<size_t>(y.numel()));
  ctx.pool().ParallelFor(n * c, 1, [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; ++nc) {
      const int64_t ni = nc / c;
      const double* img = xv.data() + nc * h * w;
      const double* g = gv.data() + ni * oh * ow * 2;
      double* o = out.data() + nc * oh * ow;
      for (int64_t i = 0; i < oh * ow; ++i) o[i] = SampleGrid(img, h, w, g[2 * i], g[2 * i + 1], p);
    }
  });
  visit_float_dtype(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, void>) {
      for (int64_t i = 0; i < y.numel(); ++i)
        y.data<T>()[i] = from_compute<T>(static_cast<compute_t<T>>(out[i]));
    }
  });
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// RoiAlign

Status RoiAlignKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* rois = ctx.input(1);
  const Tensor* bi = ctx.input(2);
  if (x == nullptr || rois == nullptr || bi == nullptr)
    return ctx.Error("inputs X, rois and batch_indices are required");
  if (x->rank() != 4) return ctx.Error("X must be 4-D, got " + x->Describe());
  if (rois->rank() != 2 || rois->dim(1) != 4)
    return ctx.Error("rois must be [num_rois, 4], got " + rois->Describe());
  if (bi->rank() != 1 || bi->dim(0) != rois->dim(0)) {
    return ctx.Error("batch_indices " + bi->Describe() + " must be [num_rois] with rois " +
                     rois->Describe());
  }
  if (!dtype_is_float(x->dtype()))
    return ctx.Unsupported(std::string("dtype ") + dtype_name(x->dtype()));
  const Node& node = ctx.node();
  const std::string mode = node.attr_string("mode", "avg");
  if (mode != "avg" && mode != "max") return ctx.Error("mode '" + mode + "' is not avg or max");
  const int64_t ph = node.attr_int("output_height", 1), pw = node.attr_int("output_width", 1);
  const int64_t sampling = node.attr_int("sampling_ratio", 0);
  const double scale = node.attr_float("spatial_scale", 1.f);
  if (ph <= 0 || pw <= 0 || sampling < 0)
    return ctx.Error("output_height/width must be positive and sampling_ratio >= 0");
  const std::string ctm = node.attr_string("coordinate_transformation_mode",
                                           ctx.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel") {
    return ctx.Error("coordinate_transformation_mode '" + ctm +
                     "' is not half_pixel or output_half_pixel");
  }
  const bool half = ctm == "half_pixel";
  TRY_ASSIGN(std::vector<int64_t> batch, ReadInts(ctx, *bi, "batch_indices"));
  TRY_ASSIGN(std::vector<double> xv, FloatsOf(ctx, *x, "X"));
  TRY_ASSIGN(std::vector<double> rv, FloatsOf(ctx, *rois, "rois"));
  const int64_t n = x->dim(0), c = x->dim(1), h = x->dim(2), w = x->dim(3), nr = rois->dim(0);
  for (int64_t b : batch) {
    if (b < 0 || b >= n) {
      return ctx.Error("batch_indices value " + std::to_string(b) + " out of range [0, " +
                       std::to_string(n) + ")");
    }
  }
  Tensor y = Tensor::Empty(x->dtype(), {nr, c, ph, pw});
  std::vector<double> out(static_cast<size_t>(y.numel()), 0.0);
  ctx.pool().ParallelFor(nr, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const double off = half ? 0.5 : 0.0;
      double sw = rv[r * 4] * scale - off, sh = rv[r * 4 + 1] * scale - off;
      const double ew = rv[r * 4 + 2] * scale - off, eh = rv[r * 4 + 3] * scale - off;
      double rw = ew - sw, rh = eh - sh;
      if (!std::isfinite(rw) || !std::isfinite(rh) || !std::isfinite(sw) || !std::isfinite(sh)) {
        rw = rh = sw = sh = 0;  // non-finite rois sample nothing (keeps conversions defined)
      }
      if (!half) {
        rw = std::max(rw, 1.0);
        rh = std::max(rh, 1.0);
      }
      const double bh = rh / static_cast<double>(ph), bw = rw / static_cast<double>(pw);
      const int64_t gh =
          sampling > 0 ? sampling : static_cast<int64_t>(std::ceil(std::clamp(rh / ph, 0.0, 1e6)));
      const int64_t gw =
          sampling > 0 ? sampling : static_cast<int64_t>(std::ceil(std::clamp(rw / pw, 0.0, 1e6)));
      const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
      for (int64_t ch = 0; ch < c; ++ch) {
        const double* img = xv.data() + (batch[r] * c + ch) * h * w;
        double* o = out.data() + (r * c + ch) * ph * pw;
        for (int64_t py = 0; py < ph; ++py) {
          for (int64_t px = 0; px < pw; ++px) {
            double acc = 0;
            bool first = true;
            for (int64_t iy = 0; iy < gh; ++iy) {
              const double yy = sh + py * bh + (iy + 0.5) * bh / static_cast<double>(gh);
              for (int64_t ix = 0; ix < gw; ++ix) {
                const double xx = sw + px * bw + (ix + 0.5) * bw / static_cast<double>(gw);
                double v = 0;
                if (!(yy < -1.0 || yy > h || xx < -1.0 || xx > w)) {
                  double yc = std::max(yy, 0.0), xc = std::max(xx, 0.0);
                  int64_t yl = static_cast<int64_t>(yc), xl = static_cast<int64_t>(xc), yhi, xhi;
                  if (yl >= h - 1) {
                    yhi = yl = h - 1;
                    yc = static_cast<double>(yl);
                  } else {
                    yhi = yl + 1;
                  }
                  if (xl >= w - 1) {
                    xhi = xl = w - 1;
                    xc = static_cast<double>(xl);
                  } else {
                    xhi = xl + 1;
                  }
                  const double ly = yc - yl, lx = xc - xl, hy = 1 - ly, hx = 1 - lx;
                  const double v1 = hy * hx * img[yl * w + xl], v2 = hy * lx * img[yl * w + xhi];
                  const double v3 = ly * hx * img[yhi * w + xl], v4 = ly * lx * img[yhi * w + xhi];
                  v = mode == "avg" ? v1 + v2 + v3 + v4
                                    : std::max(std::max(v1, v2), std::max(v3, v4));
                }
                if (mode == "avg")
                  acc += v;
                else
                  acc = first ? v : std::max(acc, v);
                first = false;
              }
            }
            o[py * pw + px] = mode == "avg" ? acc / count : acc;
          }
        }
      }
    }
  });
  visit_float_dtype(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, void>) {
      for (int64_t i = 0; i < y.numel(); ++i)
        y.data<T>()[i] = from_compute<T>(static_cast<compute_t<T>>(out[i]));
    }
  });
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// NonMaxSuppression

struct Box {
  double y1, x1, y2, x2;
};

bool Suppress(const Box& a, const Box& b, double thr) {
  const double area_a = (a.y2 - a.y1) * (a.x2 - a.x1);
  const double area_b = (b.y2 - b.y1) * (b.x2 - b.x1);
  if (area_a <= 0 || area_b <= 0) return false;
  const double ih = std::max(0.0, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
  const double iw = std::max(0.0, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
  const double inter = ih * iw;
  if (inter <= 0) return false;
  return inter / (area_a + area_b - inter) > thr;
}

Status NmsKernel(KernelContext& ctx) {
  const Tensor* boxes = ctx.input(0);
  const Tensor* scores = ctx.input(1);
  if (boxes == nullptr || scores == nullptr)
    return ctx.Error("inputs boxes and scores are required");
  if (boxes->rank() != 3 || boxes->dim(2) != 4)
    return ctx.Error("boxes must be [batch, boxes, 4], got " + boxes->Describe());
  if (scores->rank() != 3 || scores->dim(0) != boxes->dim(0) || scores->dim(2) != boxes->dim(1)) {
    return ctx.Error("scores " + scores->Describe() +
                     " must be [batch, classes, boxes] for boxes " + boxes->Describe());
  }
  int64_t max_out = 0;
  double iou = 0, score_thr = 0;
  bool has_score_thr = false;
  if (ctx.input(2) != nullptr && ctx.input(2)->numel() > 0) {
    TRY_ASSIGN(auto v, ReadInts(ctx, *ctx.input(2), "max_output_boxes_per_class"));
    max_out = v[0];
  }
  if (ctx.input(3) != nullptr && ctx.input(3)->numel() > 0) {
    TRY_ASSIGN(auto v, FloatsOf(ctx, *ctx.input(3), "iou_threshold"));
    iou = v[0];
  }
  if (ctx.input(4) != nullptr && ctx.input(4)->numel() > 0) {
    TRY_ASSIGN(auto v, FloatsOf(ctx, *ctx.input(4), "score_threshold"));
    score_thr = v[0];
    has_score_thr = true;
  }
  const int64_t cpb = ctx.node().attr_int("center_point_box", 0);
  if (cpb != 0 && cpb != 1) return ctx.Error("center_point_box must be 0 or 1");
  TRY_ASSIGN(std::vector<double> bv, FloatsOf(ctx, *boxes, "boxes"));
  TRY_ASSIGN(std::vector<double> sv, FloatsOf(ctx, *scores, "scores"));
  const int64_t nb = boxes->dim(0), nbox = boxes->dim(1), ncls = scores->dim(1);
  std::vector<int64_t> sel;
  std::vector<Box> bx(static_cast<size_t>(nbox));
  for (int64_t b = 0; b < nb && max_out > 0; ++b) {
    for (int64_t i = 0; i < nbox; ++i) {
      const double* p = bv.data() + (b * nbox + i) * 4;
      if (cpb == 0) {
        bx[i] = {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]),
                 std::max(p[1], p[3])};
      } else {
        bx[i] = {p[1] - p[3] / 2, p[0] - p[2] / 2, p[1] + p[3] / 2, p[0] + p[2] / 2};
      }
    }
    for (int64_t c = 0; c < ncls; ++c) {
      const double* s = sv.data() + (b * ncls + c) * nbox;
      std::vector<int64_t> cand;
      for (int64_t i = 0; i < nbox; ++i) {
        if (!has_score_thr || s[i] > score_thr) cand.push_back(i);
      }
      std::stable_sort(cand.begin(), cand.end(), [&](int64_t i, int64_t j) { return s[i] > s[j]; });
      std::vector<int64_t> kept;
      for (int64_t i : cand) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        bool ok = true;
        for (int64_t k : kept) {
          if (Suppress(bx[k], bx[i], iou)) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        kept.push_back(i);
        sel.insert(sel.end(), {b, c, i});
      }
    }
  }
  const int64_t count = static_cast<int64_t>(sel.size() / 3);
  Tensor y = Tensor::Empty(DType::kI64, {count, 3});
  if (!sel.empty()) std::memcpy(y.raw_data(), sel.data(), sel.size() * sizeof(int64_t));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport FloatInputSupports(const SupportQuery& q) {
  if (!FloatOk(q.input_type(0))) {
    return OpSupport::No(q.node.op_type + ": dtype " + dtype_name(q.input_type(0)) +
                         " is not supported");
  }
  return OpSupport::Yes();
}

}  // namespace

void RegisterNnDetectOps(KernelRegistry& r) {
  r.Register("GridSample", GridSampleKernel, FloatInputSupports);
  r.Register("RoiAlign", RoiAlignKernel, FloatInputSupports);
  r.Register("NonMaxSuppression", NmsKernel, FloatInputSupports);
}

}  // namespace trinity
