// MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on NHWC f32 tensors: the layout the
// NHWC pass (graph/layout.cc) gives convolution chains. Channels are contiguous, so every
// window tap is a contiguous run of C floats that the compiler vectorises; the NCHW engine in
// ops_nn_pool.cc walks one plane at a time instead.
//
// Semantics match the NCHW kernels exactly (same window geometry via ComputeWindow, the same
// count_include_pad rule); only 2-D windows over rank-4 tensors reach here.
#include <algorithm>
#include <limits>
#include <vector>

#include "backends/cpu/ops_nn_common.h"

#pragma GCC optimize("tree-vectorize")

namespace trinity {
namespace {

// Taps [*k0, *k1) of a window starting at `start` (dilation d) that land in [lo, hi).
inline void Taps(int64_t start, int64_t d, int64_t kernel, int64_t lo, int64_t hi, int64_t* k0,
                 int64_t* k1) {
  *k0 = start >= lo ? 0 : (lo - start + d - 1) / d;
  *k1 = hi <= start ? 0 : std::min(kernel, (hi - start + d - 1) / d);
  if (*k1 < *k0) *k1 = *k0;
}

}  // namespace

Status RunPoolNhwc(KernelContext& ctx, bool max, bool global) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("input X is required");
  if (x->rank() != 4) return ctx.Error("NHWC pooling expects rank 4, got " + x->Describe());
  if (x->dtype() != DType::kF32) {
    return ctx.Unsupported(std::string("NHWC pooling supports f32 only, got ") +
                           dtype_name(x->dtype()));
  }
  if (max && ctx.num_outputs() > 1 && ctx.output_wanted(1))
    return ctx.Unsupported("NHWC MaxPool cannot produce Indices");
  const int64_t n = x->dim(0), ih = x->dim(1), iw = x->dim(2), c = x->dim(3);
  WindowGeometry g;
  if (global) {
    g.in = g.kernel = {ih, iw};
    g.strides = g.dilations = {1, 1};
    g.pads_begin = g.pads_end = {0, 0};
    g.out = {1, 1};
  } else {
    if (!ctx.node().has_attr("kernel_shape")) return ctx.Error("kernel_shape is required");
    TRY_ASSIGN(g, ComputeWindow(ctx, {ih, iw}, {}, ctx.node().attr_int("ceil_mode", 0) != 0));
    if (g.rank() != 2) return ctx.Error("NHWC pooling expects a 2-D kernel");
  }
  const bool include_pad = !max && ctx.node().attr_int("count_include_pad", 0) != 0;
  const int64_t oh = g.out[0], ow = g.out[1];
  Tensor y = Tensor::Empty(DType::kF32, {n, oh, ow, c});
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  if (ih * iw == 0) return ctx.Error("pooling over an empty input");
  const float* xp = x->data<float>();
  float* yp = y.data<float>();
  const int64_t rows = n * oh;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, ow * c * 4));
  ctx.pool().ParallelFor(rows, grain, [&](int64_t r0, int64_t r1) {
    std::vector<float> acc(static_cast<size_t>(c));
    float* a = acc.data();
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = r / oh, oy = r % oh;
      const int64_t sy = oy * g.strides[0] - g.pads_begin[0];
      int64_t y0, y1;
      Taps(sy, g.dilations[0], g.kernel[0], 0, ih, &y0, &y1);
      for (int64_t ox = 0; ox < ow; ++ox) {
        const int64_t sx = ox * g.strides[1] - g.pads_begin[1];
        int64_t x0, x1;
        Taps(sx, g.dilations[1], g.kernel[1], 0, iw, &x0, &x1);
        std::fill(a, a + c, max ? -std::numeric_limits<float>::infinity() : 0.f);
        for (int64_t ky = y0; ky < y1; ++ky) {
          const float* row = xp + ((b * ih + sy + ky * g.dilations[0]) * iw) * c;
          for (int64_t kx = x0; kx < x1; ++kx) {
            const float* px = row + (sx + kx * g.dilations[1]) * c;
            if (max) {
              for (int64_t ch = 0; ch < c; ++ch) a[ch] = px[ch] > a[ch] ? px[ch] : a[ch];
            } else {
              for (int64_t ch = 0; ch < c; ++ch) a[ch] += px[ch];
            }
          }
        }
        float* out = yp + ((b * oh + oy) * ow + ox) * c;
        if (max) {
          std::copy(a, a + c, out);
          continue;
        }
        int64_t count = (y1 - y0) * (x1 - x0);
        if (include_pad) {
          // Taps inside the padded extent count, taps past the end padding (ceil_mode) do not.
          int64_t a0, a1, b0, b1;
          Taps(sy, g.dilations[0], g.kernel[0], -g.pads_begin[0], ih + g.pads_end[0], &a0, &a1);
          Taps(sx, g.dilations[1], g.kernel[1], -g.pads_begin[1], iw + g.pads_end[1], &b0, &b1);
          count = (a1 - a0) * (b1 - b0);
        }
        const float div = static_cast<float>(std::max<int64_t>(count, 1));
        for (int64_t ch = 0; ch < c; ++ch) out[ch] = count > 0 ? a[ch] / div : 0.f;
      }
    }
  });
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace trinity
