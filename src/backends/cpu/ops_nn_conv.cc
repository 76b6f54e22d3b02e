// Conv and ConvTranspose.
//
// Paths:
//  - f32 Conv with 1 or 2 spatial dims: XNNPACK convolution2d_nhwc_f32 (1-D runs as H = 1), on
//    NHWC copies of the input; 1x1/stride-1/unpadded/ungrouped convs go straight to Sgemm.
//  - f32 ConvTranspose with 1 or 2 spatial dims, non-negative pads: XNNPACK
//    deconvolution2d_nhwc_f32.
//  - everything else (3-D+, f64, no XNNPACK): im2col + GEMM for Conv, GEMM + col2im for
//    ConvTranspose; f16/bf16 compute in f32.
//
// XNNPACK operator cache: creating a convolution operator packs its weights, which costs about
// as much as running it once, so operators are cached in one process-wide map. The key holds
// every creation parameter (geometry, channel counts), the node's address (so nodes never share
// an entry, and so never contend for one), and the identity of the weights: their address plus,
// unless the bytes are an immutable mapped file, a 64-bit hash of the weight and bias bytes,
// recomputed each run (a read of the weights, small next to the convolution itself). So a node
// whose weights are computed at run time still gets a correct operator. Entries hold the
// weight tensors of mapped files alive so their addresses cannot be reused. The map is capped
// (least recently used entries go first); each entry has its own mutex, because an XNNPACK
// operator cannot be set up and run by two threads at once.
#include <xnnpack.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/ops_nn_common.h"
#include "core/dtype_dispatch.h"
#include "graph/passes.h"

namespace trinity {
namespace {

// ---------------------------------------------------------------------------------------------
// Layout helpers.

// dst[c][r] = src[r][c] for a rows x cols matrix, cache-blocked.
void Transpose2D(const float* src, float* dst, int64_t rows, int64_t cols) {
  constexpr int64_t kB = 16;
  for (int64_t r0 = 0; r0 < rows; r0 += kB) {
    const int64_t r1 = std::min(rows, r0 + kB);
    for (int64_t c0 = 0; c0 < cols; c0 += kB) {
      const int64_t c1 = std::min(cols, c0 + kB);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
      }
    }
  }
}

// Batched [batch][rows][cols] -> [batch][cols][rows], parallel over batch and row blocks.
void TransposeBatched(ThreadPool& pool, const float* src, float* dst, int64_t batch, int64_t rows,
                      int64_t cols) {
  const int64_t blocks = (rows + 63) / 64;
  pool.ParallelFor(batch * blocks, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t b = t / blocks, r0 = (t % blocks) * 64, r1 = std::min(rows, r0 + 64);
      const float* s = src + b * rows * cols;
      float* d = dst + b * rows * cols;
      constexpr int64_t kB = 16;
      for (int64_t rr = r0; rr < r1; rr += kB) {
        const int64_t re = std::min(r1, rr + kB);
        for (int64_t c0 = 0; c0 < cols; c0 += kB) {
          const int64_t c1 = std::min(cols, c0 + kB);
          for (int64_t r = rr; r < re; ++r) {
            for (int64_t c = c0; c < c1; ++c) d[c * rows + r] = s[r * cols + c];
          }
        }
      }
    }
  });
}

std::unique_ptr<float[]> NewFloats(int64_t n) {
  return std::unique_ptr<float[]>(new float[static_cast<size_t>(std::max<int64_t>(1, n))]);
}

// XNNPACK computes in NHWC. For NCHW tensors, x is transposed into a pooled NHWC copy and the
// operator writes a pooled NHWC buffer that Finish() transposes into y; for a node the layout
// pass made NHWC, x and y are used as they are.
struct NhwcStaging {
  NhwcStaging(ThreadPool& pool, const float* x_in, float* y_out, bool nhwc, int64_t n, int64_t c,
              int64_t in_size, int64_t m, int64_t out_size)
      : pool_(pool), y_out_(y_out), n_(n), m_(m), out_size_(out_size), x(x_in), y(y_out) {
    if (nhwc) return;
    xbuf_ = Tensor::Empty(DType::kF32, {n * c * in_size});
    ybuf_ = Tensor::Empty(DType::kF32, {n * m * out_size});
    TransposeBatched(pool, x_in, xbuf_.data<float>(), n, c, in_size);
    x = xbuf_.data<float>();
    y = ybuf_.data<float>();
  }
  void Finish() {
    if (ybuf_.defined()) TransposeBatched(pool_, y, y_out_, n_, out_size_, m_);
  }

 private:
  ThreadPool& pool_;
  float* y_out_;
  int64_t n_, m_, out_size_;
  Tensor xbuf_, ybuf_;

 public:
  const float* x;  // NHWC input the operator reads
  float* y;        // NHWC output the operator writes
};

// ---------------------------------------------------------------------------------------------
// Shared validation.

struct ConvShape {
  int64_t n = 0, c = 0, m = 0, group = 1, icg = 0, ocg = 0;
  WindowGeometry g;
  int64_t in_size = 1, out_size = 1, k_size = 1;            // products over spatial dims
  float out_min = -std::numeric_limits<float>::infinity();  // fused activation bounds
  float out_max = std::numeric_limits<float>::infinity();
};

Status CheckRanks(const KernelContext& ctx, const Tensor* x, const Tensor* w) {
  if (x == nullptr || w == nullptr) return ctx.Error("inputs X and W are required");
  if (x->rank() < 3) return ctx.Error("X must have rank >= 3, got " + x->Describe());
  if (w->rank() != x->rank()) {
    return ctx.Error("W rank " + std::to_string(w->rank()) + " differs from X rank " +
                     std::to_string(x->rank()));
  }
  if (w->dtype() != x->dtype()) return ctx.Error("X and W dtypes differ");
  return Status::Ok();
}

// nhwc: x is [N, spatial..., C] (a node the NHWC layout pass rewrote) instead of [N, C, ...].
Result<ConvShape> ConvGeometry(const KernelContext& ctx, const Tensor& x, const Tensor& w,
                               bool nhwc = false) {
  ConvShape s;
  s.n = x.dim(0);
  s.c = nhwc ? x.dim(x.rank() - 1) : x.dim(1);
  s.m = w.dim(0);
  s.group = ctx.node().attr_int("group", 1);
  if (s.group <= 0) return ctx.Error("group must be positive, got " + std::to_string(s.group));
  if (s.c % s.group != 0 || s.m % s.group != 0) {
    return ctx.Error("channels " + std::to_string(s.c) + " and filters " + std::to_string(s.m) +
                     " must both divide by group " + std::to_string(s.group));
  }
  s.icg = s.c / s.group;
  s.ocg = s.m / s.group;
  if (w.dim(1) != s.icg) {
    return ctx.Error("W " + w.Describe() + " expects " + std::to_string(w.dim(1) * s.group) +
                     " input channels, X " + x.Describe() + " has " + std::to_string(s.c));
  }
  std::vector<int64_t> in = nhwc ? std::vector<int64_t>(x.shape().begin() + 1, x.shape().end() - 1)
                                 : std::vector<int64_t>(x.shape().begin() + 2, x.shape().end());
  std::vector<int64_t> ks(w.shape().begin() + 2, w.shape().end());
  TRY_ASSIGN(s.g, ComputeWindow(ctx, in, ks, false));
  if (s.g.kernel != ks) {
    return ctx.Error("kernel_shape " + shape_to_string(s.g.kernel) + " differs from W " +
                     w.Describe());
  }
  for (size_t i = 0; i < in.size(); ++i) {
    s.in_size *= in[i];
    s.out_size *= s.g.out[i];
    s.k_size *= ks[i];
  }
  return s;
}

Status CheckBias(const KernelContext& ctx, const Tensor* b, const Tensor& x, int64_t m) {
  if (b == nullptr) return Status::Ok();
  if (b->dtype() != x.dtype()) return ctx.Error("B dtype differs from X");
  if (b->rank() != 1 || b->dim(0) != m) {
    return ctx.Error("bias must be 1-D of size " + std::to_string(m) + ", got " + b->Describe());
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Generic GEMM over float (Sgemm) and double (plain loops).

template <class T>
void GemmT(bool ta, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
           int64_t ldb, T beta, T* c, int64_t ldc, ThreadPool* pool) {
  if constexpr (std::is_same_v<T, float>) {
    Sgemm(ta, false, m, n, k, 1.f, a, lda, b, ldb, beta, c, ldc, pool);
  } else {
    for (int64_t i = 0; i < m; ++i) {
      T* cr = c + i * ldc;
      for (int64_t j = 0; j < n; ++j) cr[j] = beta == T(0) ? T(0) : cr[j] * beta;
      for (int64_t p = 0; p < k; ++p) {
        const T av = ta ? a[p * lda + i] : a[i * lda + p];
        const T* br = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) cr[j] += av * br[j];
      }
    }
  }
}

// Iterates output positions [p0, p1) of an N-d grid, keeping the coordinate vector.
struct GridCursor {
  std::vector<int64_t> dims, idx;
  GridCursor(const std::vector<int64_t>& d, int64_t start) : dims(d), idx(d.size()) {
    for (size_t i = d.size(); i-- > 0;) {
      idx[i] = start % d[i];
      start /= d[i];
    }
  }
  void Next() {
    for (size_t i = dims.size(); i-- > 0;) {
      if (++idx[i] < dims[i]) return;
      idx[i] = 0;
    }
  }
};

// Unpacks kernel offset index `r` (row of the column matrix, within one input channel).
void KernelOffsets(int64_t r, const std::vector<int64_t>& kernel, std::vector<int64_t>* ko) {
  for (size_t i = kernel.size(); i-- > 0;) {
    (*ko)[i] = r % kernel[i];
    r /= kernel[i];
  }
}

// ---------------------------------------------------------------------------------------------
// Conv: im2col + GEMM (any spatial rank, float or double).

template <class T>
void ConvIm2Col(ThreadPool& pool, const ConvShape& s, const T* x, const T* w, const T* bias, T* y) {
  const WindowGeometry& g = s.g;
  const size_t r = g.rank();
  const int64_t kdim = s.icg * s.k_size;
  const int64_t chunk =
      std::clamp<int64_t>((int64_t{1} << 20) / std::max<int64_t>(1, kdim), 16, 4096);
  std::vector<T> col(static_cast<size_t>(kdim * std::min(chunk, s.out_size)));
  std::vector<int64_t> ko(r);
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t grp = 0; grp < s.group; ++grp) {
      const T* xg = x + (n * s.c + grp * s.icg) * s.in_size;
      T* yg = y + (n * s.m + grp * s.ocg) * s.out_size;
      const T* wg = w + grp * s.ocg * kdim;
      for (int64_t p0 = 0; p0 < s.out_size; p0 += chunk) {
        const int64_t pc = std::min(chunk, s.out_size - p0);
        // Rows of the column matrix: (input channel, kernel offset); columns: output positions.
        pool.ParallelFor(kdim, 8, [&](int64_t r0, int64_t r1) {
          std::vector<int64_t> kof(r);
          for (int64_t row = r0; row < r1; ++row) {
            const int64_t ic = row / s.k_size;
            KernelOffsets(row % s.k_size, g.kernel, &kof);
            T* dst = col.data() + row * pc;
            const T* xc = xg + ic * s.in_size;
            GridCursor cur(g.out, p0);
            for (int64_t p = 0; p < pc; ++p, cur.Next()) {
              int64_t off = 0;
              bool inside = true;
              for (size_t d = 0; d < r; ++d) {
                const int64_t pos =
                    cur.idx[d] * g.strides[d] - g.pads_begin[d] + kof[d] * g.dilations[d];
                if (pos < 0 || pos >= g.in[d]) {
                  inside = false;
                  break;
                }
                off = off * g.in[d] + pos;
              }
              dst[p] = inside ? xc[off] : T(0);
            }
          }
        });
        T* yc = yg + p0;
        if (bias != nullptr) {
          for (int64_t o = 0; o < s.ocg; ++o)
            std::fill(yc + o * s.out_size, yc + o * s.out_size + pc, bias[grp * s.ocg + o]);
        }
        GemmT<T>(false, s.ocg, pc, kdim, wg, kdim, col.data(), pc, bias ? T(1) : T(0), yc,
                 s.out_size, &pool);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Conv: XNNPACK (f32, 1-D or 2-D).

// Returns false when XNNPACK refused the configuration (the caller falls back). With nhwc, x and
// y are NHWC already; otherwise they are NCHW and go through NHWC copies.
bool ConvXnnpack(KernelContext& ctx, const ConvShape& s, const Tensor& x, const Tensor& w,
                 const Tensor* b, float* y, bool nhwc) {
  if (!XnnReady()) return false;
  const WindowGeometry& g = s.g;
  const bool one_d = g.rank() == 1;
  auto at = [&](const std::vector<int64_t>& v, int i) -> int64_t {
    return one_d ? (i == 0 ? 1 : v[0]) : v[i];
  };
  auto pad_at = [&](const std::vector<int64_t>& v, int i) -> int64_t {
    return one_d ? (i == 0 ? 0 : v[0]) : v[i];
  };
  const int64_t kh = at(g.kernel, 0), kw = at(g.kernel, 1);
  const int64_t ih = at(g.in, 0), iw = at(g.in, 1), oh = at(g.out, 0), ow = at(g.out, 1);

  std::string key;
  AppendKey(&key, reinterpret_cast<int64_t>(&ctx.node()));
  for (int64_t v : {pad_at(g.pads_begin, 0), pad_at(g.pads_end, 1), pad_at(g.pads_end, 0),
                    pad_at(g.pads_begin, 1), kh, kw, at(g.strides, 0), at(g.strides, 1),
                    at(g.dilations, 0), at(g.dilations, 1), s.group, s.icg, s.ocg}) {
    AppendKey(&key, v);
  }
  int32_t bounds[2];
  std::memcpy(&bounds[0], &s.out_min, 4);
  std::memcpy(&bounds[1], &s.out_max, 4);
  AppendKey(&key, static_cast<int64_t>(bounds[0]));
  AppendKey(&key, static_cast<int64_t>(bounds[1]));
  const bool keep_w = AppendWeightIdentity(&key, &w, IsConstantInput(ctx, &w, 1));
  const bool keep_b = AppendWeightIdentity(&key, b, IsConstantInput(ctx, b, 2));
  std::shared_ptr<CachedXnnOp> entry = XnnOpCache::Get().Find(key);
  if (entry == nullptr) {
    // XNNPACK wants [group][ocg][kh][kw][icg]; ONNX W is [group*ocg][icg][kh][kw].
    std::unique_ptr<float[]> wt = NewFloats(w.numel());
    const int64_t hw = kh * kw;
    for (int64_t o = 0; o < s.m; ++o) {
      Transpose2D(w.data<float>() + o * s.icg * hw, wt.get() + o * s.icg * hw, s.icg, hw);
    }
    auto made = std::make_shared<CachedXnnOp>();
    xnn_operator_t op = nullptr;
    const xnn_status st = xnn_create_convolution2d_nhwc_f32(
        static_cast<uint32_t>(pad_at(g.pads_begin, 0)),
        static_cast<uint32_t>(pad_at(g.pads_end, 1)), static_cast<uint32_t>(pad_at(g.pads_end, 0)),
        static_cast<uint32_t>(pad_at(g.pads_begin, 1)), static_cast<uint32_t>(kh),
        static_cast<uint32_t>(kw), static_cast<uint32_t>(at(g.strides, 0)),
        static_cast<uint32_t>(at(g.strides, 1)), static_cast<uint32_t>(at(g.dilations, 0)),
        static_cast<uint32_t>(at(g.dilations, 1)), static_cast<uint32_t>(s.group),
        static_cast<size_t>(s.icg), static_cast<size_t>(s.ocg), static_cast<size_t>(s.c),
        static_cast<size_t>(s.m), wt.get(), b ? b->data<float>() : nullptr, s.out_min, s.out_max, 0,
        &op);
    if (st != xnn_status_success) return false;
    made->op.reset(op);
    if (keep_w) made->keep_w = w;
    if (keep_b && b != nullptr) made->keep_b = *b;
    entry = XnnOpCache::Get().Insert(key, made);
  }
  NhwcStaging io(ctx.pool(), x.data<float>(), y, nhwc, s.n, s.c, s.in_size, s.m, s.out_size);
  const float* xnhwc = io.x;
  float* ynhwc = io.y;
  {
    std::lock_guard<std::mutex> l(entry->mu);
    if (xnn_setup_convolution2d_nhwc_f32(entry->op.get(), static_cast<size_t>(s.n),
                                         static_cast<size_t>(ih), static_cast<size_t>(iw), xnhwc,
                                         ynhwc, ctx.pool().xnn_pool()) != xnn_status_success) {
      return false;
    }
    if (xnn_run_operator(entry->op.get(), ctx.pool().xnn_pool()) != xnn_status_success) {
      return false;
    }
  }
  (void)oh;
  (void)ow;
  io.Finish();
  return true;
}

// 1x1 kernel, stride 1, no padding, one group: Y[n] = W (M x C) * X[n] (C x HW).
bool IsPointwise(const ConvShape& s) {
  if (s.group != 1) return false;
  for (size_t i = 0; i < s.g.rank(); ++i) {
    if (s.g.kernel[i] != 1 || s.g.strides[i] != 1 || s.g.pads_begin[i] != 0 ||
        s.g.pads_end[i] != 0) {
      return false;
    }
  }
  return true;
}

// A 1-D convolution of one input channel without padding or dilation: an STFT written as a
// Conv (openWakeWord's mel model: 512 taps, stride 160). Every window is a contiguous slice of
// the signal, so the whole convolution is one GEMM of W [M x K] by the windows read in place
// (row stride = the conv stride), with no im2col copy. XNNPACK would walk the 512 taps one
// single-channel pointer at a time.
bool IsFramedSignal(const ConvShape& s) {
  return s.g.rank() == 1 && s.c == 1 && s.group == 1 && s.g.dilations[0] == 1 &&
         s.g.pads_begin[0] == 0 && s.g.pads_end[0] == 0 && s.g.kernel[0] >= 16;
}

void ConvFramedSignal(KernelContext& ctx, const ConvShape& s, const Tensor& w, const float* x,
                      const float* b, float* y) {
  const int64_t k = s.g.kernel[0], frames = s.out_size, stride = s.g.strides[0];
  // XNNPACK's GEMM (AVX-512 where the CPU has it, weights packed once per node) on the frames
  // copied out as rows (cheap next to the GEMM), then transposed into [M, frames] with the bias.
  Tensor rows = Tensor::Empty(DType::kF32, {frames, k});
  Tensor prod = Tensor::Empty(DType::kF32, {frames, s.m});
  for (int64_t n = 0; n < s.n; ++n) {
    const float* xn = x + n * s.in_size;
    float* yn = y + n * s.m * frames;
    for (int64_t t = 0; t < frames; ++t)
      std::copy(xn + t * stride, xn + t * stride + k, rows.data<float>() + t * k);
    // W [M, 1, K] is already B [n][k]; passing the input tensor itself lets the operator
    // cache key on the constant's address instead of hashing its bytes.
    if (!FcXnnpack(ctx, rows.data<float>(), frames, k, w, /*tb=*/true, s.m, prod.data<float>())) {
      if (b != nullptr) {
        for (int64_t o = 0; o < s.m; ++o) std::fill(yn + o * frames, yn + (o + 1) * frames, b[o]);
      }
      Sgemm(false, true, s.m, frames, k, 1.f, w.data<float>(), k, xn, stride, b ? 1.f : 0.f, yn,
            frames, &ctx.pool());
      continue;
    }
    const float* p = prod.data<float>();
    for (int64_t o = 0; o < s.m; ++o) {
      const float bias = b ? b[o] : 0.f;
      for (int64_t t = 0; t < frames; ++t) yn[o * frames + t] = p[t * s.m + o] + bias;
    }
  }
}

template <class T>
void RunConvT(KernelContext& ctx, const ConvShape& s, const T* x, const T* w, const T* b, T* y) {
  if (IsPointwise(s)) {
    for (int64_t n = 0; n < s.n; ++n) {
      T* yn = y + n * s.m * s.out_size;
      if (b != nullptr) {
        for (int64_t o = 0; o < s.m; ++o)
          std::fill(yn + o * s.out_size, yn + (o + 1) * s.out_size, b[o]);
      }
      GemmT<T>(false, s.m, s.out_size, s.c, w, s.c, x + n * s.c * s.in_size, s.in_size,
               b ? T(1) : T(0), yn, s.out_size, &ctx.pool());
    }
    return;
  }
  ConvIm2Col<T>(ctx.pool(), s, x, w, b, y);
}

template <class T>
std::vector<float> HalfToFloat(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  const T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<float>(p[i]);
  return v;
}

// Clamps every element of a float tensor to [lo, hi] (a fused Relu or Clip).
void ClampInPlace(Tensor& y, float lo, float hi) {
  visit_float_dtype(y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_void_v<T>) {
      T* p = y.data<T>();
      for (int64_t i = 0; i < y.numel(); ++i) {
        const auto v = to_compute(p[i]);
        p[i] = from_compute<T>(std::min<decltype(v)>(std::max<decltype(v)>(v, lo), hi));
      }
    }
  });
}

bool ConvTypeOk(DType t) {
  return t == DType::kF32 || t == DType::kF64 || t == DType::kF16 || t == DType::kBF16 ||
         t == DType::kUndefined;
}

// A Conv the NHWC layout pass rewrote: f32, X [N, H, W, C] (or [N, W, C]), Y [N, OH, OW, M].
// XNNPACK computes in NHWC directly; if it refuses, the NCHW path runs between transposes.
Status ConvNhwc(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* b) {
  if (x.dtype() != DType::kF32) {
    return ctx.Unsupported(std::string("NHWC Conv supports f32 only, got ") +
                           dtype_name(x.dtype()));
  }
  TRY_ASSIGN(ConvShape s, ConvGeometry(ctx, x, w, /*nhwc=*/true));
  TRY_STATUS(CheckBias(ctx, b, x, s.m));
  s.out_min = ctx.node().attr_float(kFusedMinAttr, -std::numeric_limits<float>::infinity());
  s.out_max = ctx.node().attr_float(kFusedMaxAttr, std::numeric_limits<float>::infinity());
  if (!(s.out_min <= s.out_max)) return ctx.Error("fused activation bounds are inverted");
  std::vector<int64_t> yshape = {s.n};
  yshape.insert(yshape.end(), s.g.out.begin(), s.g.out.end());
  yshape.push_back(s.m);
  if (shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Empty(DType::kF32, yshape);
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  if (!(s.g.rank() <= 2 && s.icg * s.k_size > 0 &&
        ConvXnnpack(ctx, s, x, w, b, y.data<float>(), /*nhwc=*/true))) {
    Tensor xc = Tensor::Empty(DType::kF32, {s.n * s.c * s.in_size});
    Tensor yc = Tensor::Empty(DType::kF32, {s.n * s.m * s.out_size});
    TransposeBatched(ctx.pool(), x.data<float>(), xc.data<float>(), s.n, s.in_size, s.c);
    RunConvT<float>(ctx, s, xc.data<float>(), w.data<float>(), b ? b->data<float>() : nullptr,
                    yc.data<float>());
    TransposeBatched(ctx.pool(), yc.data<float>(), y.data<float>(), s.n, s.m, s.out_size);
    if (s.out_min > -std::numeric_limits<float>::infinity() ||
        s.out_max < std::numeric_limits<float>::infinity()) {
      ClampInPlace(y, s.out_min, s.out_max);
    }
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

Status ConvKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* b = ctx.input(2);
  TRY_STATUS(CheckRanks(ctx, x, w));
  if (IsNhwcNode(ctx.node())) return ConvNhwc(ctx, *x, *w, b);
  if (!ConvTypeOk(x->dtype())) {
    return ctx.Unsupported(std::string("dtype ") + dtype_name(x->dtype()) + " is not supported");
  }
  TRY_ASSIGN(ConvShape s, ConvGeometry(ctx, *x, *w));
  TRY_STATUS(CheckBias(ctx, b, *x, s.m));
  // A fused activation (graph/fusion.cc: Conv+Relu, Conv+Clip) arrives as output bounds.
  s.out_min = ctx.node().attr_float(kFusedMinAttr, -std::numeric_limits<float>::infinity());
  s.out_max = ctx.node().attr_float(kFusedMaxAttr, std::numeric_limits<float>::infinity());
  if (!(s.out_min <= s.out_max)) return ctx.Error("fused activation bounds are inverted");
  std::vector<int64_t> yshape = {s.n, s.m};
  yshape.insert(yshape.end(), s.g.out.begin(), s.g.out.end());
  if (shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Empty(x->dtype(), yshape);
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  bool xnn_done = false;  // XNNPACK applies the fused bounds itself
  switch (x->dtype()) {
    case DType::kF32: {
      if (IsFramedSignal(s)) {
        ConvFramedSignal(ctx, s, *w, x->data<float>(), b ? b->data<float>() : nullptr,
                         y.data<float>());
        break;
      }
      const bool xnn_ok = !IsPointwise(s) && s.g.rank() <= 2 && s.icg * s.k_size > 0 &&
                          ConvXnnpack(ctx, s, *x, *w, b, y.data<float>(), /*nhwc=*/false);
      xnn_done = xnn_ok;
      if (!xnn_ok) {
        RunConvT<float>(ctx, s, x->data<float>(), w->data<float>(), b ? b->data<float>() : nullptr,
                        y.data<float>());
      }
      break;
    }
    case DType::kF64:
      RunConvT<double>(ctx, s, x->data<double>(), w->data<double>(),
                       b ? b->data<double>() : nullptr, y.data<double>());
      break;
    default: {
      visit_float_dtype(x->dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (is_half_v<T>) {
          std::vector<float> xf = HalfToFloat<T>(*x), wf = HalfToFloat<T>(*w);
          std::vector<float> bf = b ? HalfToFloat<T>(*b) : std::vector<float>();
          std::vector<float> yf(static_cast<size_t>(y.numel()));
          RunConvT<float>(ctx, s, xf.data(), wf.data(), b ? bf.data() : nullptr, yf.data());
          for (int64_t i = 0; i < y.numel(); ++i) y.data<T>()[i] = T(yf[i]);
        }
      });
    }
  }
  if (!xnn_done && (s.out_min > -std::numeric_limits<float>::infinity() ||
                    s.out_max < std::numeric_limits<float>::infinity())) {
    ClampInPlace(y, s.out_min, s.out_max);
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport ConvSupports(const SupportQuery& q) {
  if (!ConvTypeOk(q.input_type(0))) {
    return OpSupport::No(q.node.op_type + ": dtype " + dtype_name(q.input_type(0)) +
                         " is not supported");
  }
  if (std::string why = CheckAutoPad(q.node); !why.empty()) return OpSupport::No(why);
  return OpSupport::Yes();
}

// ---------------------------------------------------------------------------------------------
// ConvTranspose: GEMM (W^T * X) then col2im scatter-add.

struct DeconvShape {
  int64_t n = 0, c = 0, m = 0, group = 1, icg = 0, ocg = 0;
  std::vector<int64_t> in, kernel, strides, dilations, pads_begin, pads_end, out;
  int64_t in_size = 1, out_size = 1, k_size = 1;
};

Result<DeconvShape> DeconvGeometry(const KernelContext& ctx, const Tensor& x, const Tensor& w) {
  const Node& node = ctx.node();
  DeconvShape s;
  const size_t r = x.rank() - 2;
  s.n = x.dim(0);
  s.c = x.dim(1);
  s.group = node.attr_int("group", 1);
  if (s.group <= 0) return ctx.Error("group must be positive, got " + std::to_string(s.group));
  if (w.dim(0) != s.c) {
    return ctx.Error("W " + w.Describe() + " expects " + std::to_string(w.dim(0)) +
                     " input channels, X " + x.Describe() + " has " + std::to_string(s.c));
  }
  if (s.c % s.group != 0) {
    return ctx.Error("channels " + std::to_string(s.c) + " do not divide by group " +
                     std::to_string(s.group));
  }
  s.icg = s.c / s.group;
  s.ocg = w.dim(1);
  s.m = s.ocg * s.group;
  s.in.assign(x.shape().begin() + 2, x.shape().end());
  const std::vector<int64_t> ks(w.shape().begin() + 2, w.shape().end());
  s.kernel = node.attr_ints("kernel_shape", ks);
  if (s.kernel.empty()) s.kernel = ks;
  if (s.kernel != ks) {
    return ctx.Error("kernel_shape " + shape_to_string(s.kernel) + " differs from W " +
                     w.Describe());
  }
  auto per_dim = [&](const char* name, int64_t def, size_t count,
                     std::vector<int64_t>* v) -> Status {
    *v = node.attr_ints(name, std::vector<int64_t>(count, def));
    if (v->empty()) v->assign(count, def);
    if (v->size() != count) {
      return ctx.Error(std::string(name) + " has " + std::to_string(v->size()) +
                       " values, expected " + std::to_string(count));
    }
    for (int64_t e : *v) {
      if (e < 0 || e > (int64_t{1} << 30)) {
        return ctx.Error(std::string(name) + " value " + std::to_string(e) + " is out of range");
      }
    }
    return Status::Ok();
  };
  std::vector<int64_t> pads, out_pad;
  TRY_STATUS(per_dim("strides", 1, r, &s.strides));
  TRY_STATUS(per_dim("dilations", 1, r, &s.dilations));
  TRY_STATUS(per_dim("pads", 0, 2 * r, &pads));
  TRY_STATUS(per_dim("output_padding", 0, r, &out_pad));
  for (size_t i = 0; i < r; ++i) {
    if (s.strides[i] == 0 || s.dilations[i] == 0)
      return ctx.Error("strides and dilations must be positive");
  }
  std::vector<int64_t> out_shape = node.attr_ints("output_shape");
  if (!out_shape.empty()) {
    if (out_shape.size() == r + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
    if (out_shape.size() != r) {
      return ctx.Error("output_shape has " + std::to_string(out_shape.size()) +
                       " values, expected " + std::to_string(r));
    }
  }
  const std::string ap = node.attr_string("auto_pad", "NOTSET");
  if (std::string why = CheckAutoPad(node); !why.empty()) return ctx.Error(why);
  s.pads_begin.resize(r);
  s.pads_end.resize(r);
  s.out.resize(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t ext = (s.kernel[i] - 1) * s.dilations[i] + 1;
    const int64_t full = s.strides[i] * (s.in[i] - 1) + out_pad[i] + ext;
    if (!out_shape.empty() || ap == "SAME_UPPER" || ap == "SAME_LOWER") {
      const int64_t want = !out_shape.empty() ? out_shape[i] : s.in[i] * s.strides[i];
      const int64_t total = full - want;
      // ONNX spec formulas with floor division (total may be negative: output_shape larger
      // than the natural size extends the output at the end).
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      if (ap == "SAME_UPPER") {
        s.pads_begin[i] = half;
        s.pads_end[i] = total - half;
      } else {
        s.pads_end[i] = half;
        s.pads_begin[i] = total - half;
      }
      s.out[i] = want;
    } else {
      if (ap == "NOTSET") {
        s.pads_begin[i] = pads[i];
        s.pads_end[i] = pads[i + r];
      }
      s.out[i] = full - s.pads_begin[i] - s.pads_end[i];
    }
    if (s.out[i] < 0) {
      return ctx.Error("output size " + std::to_string(s.out[i]) + " is negative in dim " +
                       std::to_string(i));
    }
    s.in_size *= s.in[i];
    s.out_size *= s.out[i];
    s.k_size *= s.kernel[i];
  }
  return s;
}

template <class T>
void ConvTransposeT(ThreadPool& pool, const DeconvShape& s, const T* x, const T* w, const T* bias,
                    T* y) {
  const size_t r = s.in.size();
  const int64_t rows = s.ocg * s.k_size;  // (output channel, kernel offset)
  const int64_t chunk =
      std::clamp<int64_t>((int64_t{1} << 20) / std::max<int64_t>(1, rows), 16, 4096);
  std::vector<T> col(static_cast<size_t>(rows * std::min(chunk, s.in_size)));
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t grp = 0; grp < s.group; ++grp) {
      const T* xg = x + (n * s.c + grp * s.icg) * s.in_size;
      const T* wg = w + grp * s.icg * rows;  // [icg][ocg * k]
      T* yg = y + (n * s.m + grp * s.ocg) * s.out_size;
      for (int64_t o = 0; o < s.ocg; ++o) {
        std::fill(yg + o * s.out_size, yg + (o + 1) * s.out_size,
                  bias ? bias[grp * s.ocg + o] : T(0));
      }
      for (int64_t p0 = 0; p0 < s.in_size; p0 += chunk) {
        const int64_t pc = std::min(chunk, s.in_size - p0);
        // col[rows][pc] = Wg^T[rows][icg] * X[icg][p0:p0+pc]
        GemmT<T>(true, rows, pc, s.icg, wg, rows, xg + p0, s.in_size, T(0), col.data(), pc, &pool);
        // Scatter-add; parallel over output channels (disjoint output planes).
        pool.ParallelFor(s.ocg, 1, [&](int64_t o0, int64_t o1) {
          std::vector<int64_t> ko(r);
          for (int64_t o = o0; o < o1; ++o) {
            T* yo = yg + o * s.out_size;
            for (int64_t kr = 0; kr < s.k_size; ++kr) {
              KernelOffsets(kr, s.kernel, &ko);
              const T* src = col.data() + (o * s.k_size + kr) * pc;
              GridCursor cur(s.in, p0);
              for (int64_t p = 0; p < pc; ++p, cur.Next()) {
                int64_t off = 0;
                bool inside = true;
                for (size_t d = 0; d < r; ++d) {
                  const int64_t pos =
                      cur.idx[d] * s.strides[d] - s.pads_begin[d] + ko[d] * s.dilations[d];
                  if (pos < 0 || pos >= s.out[d]) {
                    inside = false;
                    break;
                  }
                  off = off * s.out[d] + pos;
                }
                if (inside) yo[off] += src[p];
              }
            }
          }
        });
      }
    }
  }
}

// f32 1-D/2-D ConvTranspose with XNNPACK deconvolution2d_nhwc_f32 (cached like Conv). Applies
// when every pad is >= 0 and the output size implies an adjustment in [0, stride); returns false
// otherwise (or when XNNPACK refuses) so the caller takes the GEMM + col2im path.
bool DeconvXnnpack(KernelContext& ctx, const DeconvShape& s, const Tensor& x, const Tensor& w,
                   const Tensor* b, float* y, bool nhwc = false) {
  const size_t r = s.in.size();
  if (r > 2 || !XnnReady() || s.icg == 0 || s.ocg == 0 || s.in_size == 0) return false;
  int64_t v[2][7];  // per dim (H, W): in, k, stride, dilation, pad_begin, pad_end, adjustment
  for (size_t i = 0; i < 2; ++i) {
    const bool real = r == 2 || i == 1;
    const size_t d = r == 2 ? i : 0;
    if (!real) {
      for (int64_t& e : v[i]) e = 0;
      v[i][0] = v[i][1] = v[i][2] = v[i][3] = 1;
      continue;
    }
    const int64_t ext = (s.kernel[d] - 1) * s.dilations[d] + 1;
    const int64_t adj =
        s.out[d] - (s.strides[d] * (s.in[d] - 1) + ext - s.pads_begin[d] - s.pads_end[d]);
    if (s.pads_begin[d] < 0 || s.pads_end[d] < 0 || adj < 0 || adj >= s.strides[d]) return false;
    const int64_t vals[7] = {s.in[d],         s.kernel[d],   s.strides[d], s.dilations[d],
                             s.pads_begin[d], s.pads_end[d], adj};
    std::copy(vals, vals + 7, v[i]);
  }
  std::string key;
  AppendKey(&key, reinterpret_cast<int64_t>(&ctx.node()));
  AppendKey(&key, 0x44454356);  // "DECV": never shares an entry with Conv
  for (size_t i = 0; i < 2; ++i)
    for (int j = 1; j < 6; ++j) AppendKey(&key, v[i][j]);
  for (int64_t e : {s.group, s.icg, s.ocg}) AppendKey(&key, e);
  const bool keep_w = AppendWeightIdentity(&key, &w, IsConstantInput(ctx, &w, 1));
  const bool keep_b = AppendWeightIdentity(&key, b, IsConstantInput(ctx, b, 2));
  std::shared_ptr<CachedXnnOp> entry = XnnOpCache::Get().Find(key);
  if (entry == nullptr) {
    // XNNPACK wants [group][ocg][kh][kw][icg]; ONNX W is [group*icg][ocg][kh][kw].
    std::unique_ptr<float[]> wt = NewFloats(w.numel());
    const float* wp = w.data<float>();
    for (int64_t g = 0; g < s.group; ++g)
      for (int64_t ic = 0; ic < s.icg; ++ic)
        for (int64_t oc = 0; oc < s.ocg; ++oc)
          for (int64_t kk = 0; kk < s.k_size; ++kk) {
            wt[((g * s.ocg + oc) * s.k_size + kk) * s.icg + ic] =
                wp[((g * s.icg + ic) * s.ocg + oc) * s.k_size + kk];
          }
    auto made = std::make_shared<CachedXnnOp>();
    xnn_operator_t op = nullptr;
    const xnn_status st = xnn_create_deconvolution2d_nhwc_f32(
        static_cast<uint32_t>(v[0][4]), static_cast<uint32_t>(v[1][5]),
        static_cast<uint32_t>(v[0][5]), static_cast<uint32_t>(v[1][4]),
        static_cast<uint32_t>(v[0][1]), static_cast<uint32_t>(v[1][1]),
        static_cast<uint32_t>(v[0][2]), static_cast<uint32_t>(v[1][2]),
        static_cast<uint32_t>(v[0][3]), static_cast<uint32_t>(v[1][3]),
        static_cast<uint32_t>(s.group), static_cast<size_t>(s.icg), static_cast<size_t>(s.ocg),
        static_cast<size_t>(s.c), static_cast<size_t>(s.m), wt.get(),
        b ? b->data<float>() : nullptr, -std::numeric_limits<float>::infinity(),
        std::numeric_limits<float>::infinity(), 0, &op);
    if (st != xnn_status_success) return false;
    made->op.reset(op);
    if (keep_w) made->keep_w = w;
    if (keep_b && b != nullptr) made->keep_b = *b;
    entry = XnnOpCache::Get().Insert(key, made);
  }
  NhwcStaging io(ctx.pool(), x.data<float>(), y, nhwc, s.n, s.c, s.in_size, s.m, s.out_size);
  const float* xnhwc = io.x;
  float* ynhwc = io.y;
  {
    std::lock_guard<std::mutex> l(entry->mu);
    if (xnn_setup_deconvolution2d_nhwc_f32(
            entry->op.get(), static_cast<size_t>(s.n), static_cast<size_t>(v[0][0]),
            static_cast<size_t>(v[1][0]), static_cast<uint32_t>(v[0][6]),
            static_cast<uint32_t>(v[1][6]), xnhwc, ynhwc,
            ctx.pool().xnn_pool()) != xnn_status_success ||
        xnn_run_operator(entry->op.get(), ctx.pool().xnn_pool()) != xnn_status_success) {
      return false;
    }
  }
  io.Finish();
  return true;
}

// A ConvTranspose the NHWC layout pass rewrote: f32, X [N, H, W, C], Y [N, OH, OW, M].
Status ConvTransposeNhwc(KernelContext& ctx, const Tensor& x, const Tensor& w, const Tensor* b) {
  if (x.dtype() != DType::kF32 || x.rank() != 4) {
    return ctx.Unsupported("NHWC ConvTranspose supports rank-4 f32 only, got " + x.Describe());
  }
  // The geometry reads N, C and the spatial dims from an NCHW-shaped view of the same bytes.
  const Tensor logical = x.Reshaped({x.dim(0), x.dim(3), x.dim(1), x.dim(2)});
  TRY_ASSIGN(DeconvShape s, DeconvGeometry(ctx, logical, w));
  TRY_STATUS(CheckBias(ctx, b, x, s.m));
  const std::vector<int64_t> yshape = {s.n, s.out[0], s.out[1], s.m};
  if (shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Empty(DType::kF32, yshape);
  if (y.numel() > 0 && !DeconvXnnpack(ctx, s, x, w, b, y.data<float>(), /*nhwc=*/true)) {
    Tensor xc = Tensor::Empty(DType::kF32, {s.n * s.c * s.in_size});
    Tensor yc = Tensor::Empty(DType::kF32, {s.n * s.m * s.out_size});
    TransposeBatched(ctx.pool(), x.data<float>(), xc.data<float>(), s.n, s.in_size, s.c);
    ConvTransposeT<float>(ctx.pool(), s, xc.data<float>(), w.data<float>(),
                          b ? b->data<float>() : nullptr, yc.data<float>());
    TransposeBatched(ctx.pool(), yc.data<float>(), y.data<float>(), s.n, s.m, s.out_size);
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

Status ConvTransposeKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* b = ctx.input(2);
  TRY_STATUS(CheckRanks(ctx, x, w));
  if (IsNhwcNode(ctx.node())) return ConvTransposeNhwc(ctx, *x, *w, b);
  if (!ConvTypeOk(x->dtype())) {
    return ctx.Unsupported(std::string("dtype ") + dtype_name(x->dtype()) + " is not supported");
  }
  TRY_ASSIGN(DeconvShape s, DeconvGeometry(ctx, *x, *w));
  TRY_STATUS(CheckBias(ctx, b, *x, s.m));
  std::vector<int64_t> yshape = {s.n, s.m};
  yshape.insert(yshape.end(), s.out.begin(), s.out.end());
  if (shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  Tensor y = Tensor::Empty(x->dtype(), yshape);
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  switch (x->dtype()) {
    case DType::kF32:
      if (!DeconvXnnpack(ctx, s, *x, *w, b, y.data<float>())) {
        ConvTransposeT<float>(ctx.pool(), s, x->data<float>(), w->data<float>(),
                              b ? b->data<float>() : nullptr, y.data<float>());
      }
      break;
    case DType::kF64:
      ConvTransposeT<double>(ctx.pool(), s, x->data<double>(), w->data<double>(),
                             b ? b->data<double>() : nullptr, y.data<double>());
      break;
    default:
      visit_float_dtype(x->dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (is_half_v<T>) {
          std::vector<float> xf = HalfToFloat<T>(*x), wf = HalfToFloat<T>(*w);
          std::vector<float> bf = b ? HalfToFloat<T>(*b) : std::vector<float>();
          std::vector<float> yf(static_cast<size_t>(y.numel()));
          ConvTransposeT<float>(ctx.pool(), s, xf.data(), wf.data(), b ? bf.data() : nullptr,
                                yf.data());
          for (int64_t i = 0; i < y.numel(); ++i) y.data<T>()[i] = T(yf[i]);
        }
      });
  }
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace

void RegisterNnConvOps(KernelRegistry& r) {
  r.Register("Conv", ConvKernel, ConvSupports);
  r.Register("ConvTranspose", ConvTransposeKernel, ConvSupports);
}

}  // namespace trinity
