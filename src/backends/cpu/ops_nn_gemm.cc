// Gemm and MatMul, plus Sgemm: the blocked f32 GEMM that Conv's im2col path also uses.
//
// Two engines: XNNPACK fully_connected for a 2-D B (weights-like; its packed copy of B is
// cached per node and B's identity, see FcXnnpack) once the product is big enough, and Sgemm,
// our packed 6x16 register-blocked GEMM (GCC vector extensions), for small products, batched
// B (attention), transposed-A Conv paths and non-f32 types computed in f32.
#include <xnnpack.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cpu/ops_nn_common.h"
#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

typedef float v8f __attribute__((vector_size(32)));

constexpr int64_t kMr = 6;    // rows of the micro-tile
constexpr int64_t kNr = 16;   // columns of the micro-tile (two 8-float vectors)
constexpr int64_t kKc = 256;  // depth of one packed block (B panel 16 KiB: fits L1)
constexpr int64_t kMc = 96;   // rows of a task's A block (96 KiB at kKc: fits L2)
constexpr int64_t kNc = 256;  // columns of a task's B block

inline v8f LoadV(const float* p) {
  v8f v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline void StoreV(float* p, v8f v) { std::memcpy(p, &v, sizeof(v)); }

// Packs rows [i0, i0+mc) x depth [p0, p0+kc) of op(A) into kMr-row panels, zero-padded.
void PackA(bool trans, const float* a, int64_t lda, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
           float* dst) {
  for (int64_t ip = 0; ip < mc; ip += kMr) {
    const int64_t rows = std::min(kMr, mc - ip);
    for (int64_t p = 0; p < kc; ++p) {
      for (int64_t r = 0; r < kMr; ++r) {
        const int64_t i = i0 + ip + r, pp = p0 + p;
        dst[p * kMr + r] = r < rows ? (trans ? a[pp * lda + i] : a[i * lda + pp]) : 0.f;
      }
    }
    dst += kc * kMr;
  }
}

// Packs depth [p0, p0+kc) x columns [j0, j0+nc) of op(B) into kNr-column panels, zero-padded.
void PackB(bool trans, const float* b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
           float* dst) {
  for (int64_t jp = 0; jp < nc; jp += kNr) {
    const int64_t cols = std::min(kNr, nc - jp);
    for (int64_t p = 0; p < kc; ++p) {
      float* d = dst + p * kNr;
      const int64_t pp = p0 + p;
      if (!trans && cols == kNr) {
        std::memcpy(d, b + pp * ldb + j0 + jp, sizeof(float) * kNr);
        continue;
      }
      for (int64_t c = 0; c < kNr; ++c) {
        const int64_t j = j0 + jp + c;
        d[c] = c < cols ? (trans ? b[j * ldb + pp] : b[pp * ldb + j]) : 0.f;
      }
    }
    dst += kc * kNr;
  }
}

// acc(6x16) = Ap(6 x kc) * Bp(kc x 16); then C[0:rows, 0:cols] += alpha * acc.
void MicroKernel(int64_t kc, const float* ap, const float* bp, float alpha, float* c, int64_t ldc,
                 int64_t rows, int64_t cols) {
  v8f acc[kMr][2] = {};
  for (int64_t p = 0; p < kc; ++p) {
    const v8f b0 = LoadV(bp), b1 = LoadV(bp + 8);
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      const float av = ap[r];
      acc[r][0] += av * b0;
      acc[r][1] += av * b1;
    }
    ap += kMr;
    bp += kNr;
  }
  if (rows == kMr && cols == kNr) {
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      float* cr = c + r * ldc;
      StoreV(cr, LoadV(cr) + alpha * acc[r][0]);
      StoreV(cr + 8, LoadV(cr + 8) + alpha * acc[r][1]);
    }
    return;
  }
  alignas(32) float tmp[kMr][kNr];
  for (int r = 0; r < kMr; ++r) {
    StoreV(tmp[r], acc[r][0]);
    StoreV(tmp[r] + 8, acc[r][1]);
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) c[r * ldc + j] += alpha * tmp[r][j];
  }
}

void NaiveSgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      const float av = alpha * (ta ? a[p * lda + i] : a[i * lda + p]);
      float* cr = c + i * ldc;
      if (!tb) {
        const float* br = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) cr[j] += av * br[j];
      } else {
        for (int64_t j = 0; j < n; ++j) cr[j] += av * b[j * ldb + p];
      }
    }
  }
}

}  // namespace

void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
           ThreadPool* pool) {
  if (m <= 0 || n <= 0) return;
  // Scale C by beta first; the kernels then only accumulate.
  auto scale_rows = [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      float* cr = c + i * ldc;
      if (beta == 0.f)
        std::fill(cr, cr + n, 0.f);
      else if (beta != 1.f)
        for (int64_t j = 0; j < n; ++j) cr[j] *= beta;
    }
  };
  if (k <= 0 || alpha == 0.f) {
    scale_rows(0, m);
    return;
  }
  if (m * n * k <= 4096) {
    scale_rows(0, m);
    NaiveSgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, c, ldc);
    return;
  }
  const int64_t mt = (m + kMc - 1) / kMc, nt = (n + kNc - 1) / kNc;
  auto run_tiles = [&](int64_t t0, int64_t t1) {
    thread_local std::vector<float> abuf, bbuf;
    abuf.resize(static_cast<size_t>(kMc * kKc));
    bbuf.resize(static_cast<size_t>(kNc * kKc));
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t i0 = (t / nt) * kMc, j0 = (t % nt) * kNc;
      const int64_t mc = std::min(kMc, m - i0), nc = std::min(kNc, n - j0);
      for (int64_t i = i0; i < i0 + mc; ++i) {
        float* cr = c + i * ldc + j0;
        if (beta == 0.f)
          std::fill(cr, cr + nc, 0.f);
        else if (beta != 1.f)
          for (int64_t j = 0; j < nc; ++j) cr[j] *= beta;
      }
      for (int64_t p0 = 0; p0 < k; p0 += kKc) {
        const int64_t kc = std::min(kKc, k - p0);
        PackA(trans_a, a, lda, i0, mc, p0, kc, abuf.data());
        PackB(trans_b, b, ldb, p0, kc, j0, nc, bbuf.data());
        for (int64_t jp = 0; jp < nc; jp += kNr) {
          const float* bp = bbuf.data() + (jp / kNr) * kc * kNr;
          for (int64_t ip = 0; ip < mc; ip += kMr) {
            MicroKernel(kc, abuf.data() + (ip / kMr) * kc * kMr, bp, alpha,
                        c + (i0 + ip) * ldc + j0 + jp, ldc, std::min(kMr, mc - ip),
                        std::min(kNr, nc - jp));
          }
        }
      }
    }
  };
  if (pool != nullptr && mt * nt > 1 && m * n * k >= (int64_t{1} << 16)) {
    pool->ParallelFor(mt * nt, 1, run_tiles);
  } else {
    run_tiles(0, mt * nt);
  }
}

namespace {

// Generic C = alpha*op(A)*op(B) + beta*C for non-f32 types, accumulating in Acc.
template <class T>
void NaiveGemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const T* a,
               const T* b, double beta, bool has_c, T* c) {
  using Acc = std::conditional_t<std::is_floating_point_v<compute_t<T>>, compute_t<T>, T>;
  const int64_t lda = ta ? m : k, ldb = tb ? k : n;
  std::vector<Acc> row(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), Acc{});
    for (int64_t p = 0; p < k; ++p) {
      const Acc av = static_cast<Acc>(to_compute(ta ? a[p * lda + i] : a[i * lda + p]));
      for (int64_t j = 0; j < n; ++j) {
        row[j] += av * static_cast<Acc>(to_compute(tb ? b[j * ldb + p] : b[p * ldb + j]));
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      if constexpr (std::is_floating_point_v<Acc>) {
        Acc v = static_cast<Acc>(alpha) * row[j];
        if (has_c) v += static_cast<Acc>(beta) * static_cast<Acc>(to_compute(c[i * n + j]));
        c[i * n + j] = from_compute<T>(v);
      } else {
        // Integer Gemm: alpha/beta are floats in the spec; apply in double, truncate.
        double v = alpha * static_cast<double>(row[j]);
        if (has_c) v += beta * static_cast<double>(c[i * n + j]);
        c[i * n + j] = static_cast<T>(v);
      }
    }
  }
}

bool GemmTypeOk(DType t) {
  switch (t) {
    case DType::kF32:
    case DType::kF64:
    case DType::kF16:
    case DType::kBF16:
    case DType::kI32:
    case DType::kI64:
    case DType::kU32:
    case DType::kU64:
    case DType::kUndefined:
      return true;
    default:
      return false;
  }
}

// Converts a 16-bit float tensor's values to float.
template <class T>
std::vector<float> ToFloat(const T* p, int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(p[i]);
  return v;
}

}  // namespace

// y[rows x n] = a[rows x k] * op(B) with XNNPACK fully_connected, whose packed weights are
// cached like Conv's (ops_nn_conv.cc). Measured with /tmp-style microbenchmarks on this
// project's shared 2-core x86 host (noisy, load 8+): XNNPACK is as fast or faster from about
// 64K MACs up (1x1000x512: 0.31 ms vs Sgemm 1.15 ms; 1024^3: 41 vs 62 ms), while below that
// Sgemm's lower call overhead wins (8x64x64: 0.007 vs 0.021 ms). Returns false when XNNPACK
// refuses (the caller falls back to Sgemm).
bool FcXnnpack(KernelContext& ctx, const float* a, int64_t rows, int64_t k, const Tensor& b,
               bool tb, int64_t n, float* y) {
  if (!XnnReady() || rows <= 0 || n <= 0 || k <= 0 || b.dtype() != DType::kF32) return false;
  std::string key;
  AppendKey(&key, reinterpret_cast<int64_t>(&ctx.node()));
  for (int64_t v : {int64_t{0x46430000}, k, n, int64_t{tb}}) AppendKey(&key, v);
  const bool keep = AppendWeightIdentity(&key, &b, IsConstantInput(ctx, &b, 1));
  std::shared_ptr<CachedXnnOp> entry = XnnOpCache::Get().Find(key);
  if (entry == nullptr) {
    auto made = std::make_shared<CachedXnnOp>();
    xnn_operator_t op = nullptr;
    // XNNPACK's kernel layout is [n][k] (transB); [k][n] needs XNN_FLAG_TRANSPOSE_WEIGHTS.
    if (xnn_create_fully_connected_nc_f32(
            static_cast<size_t>(k), static_cast<size_t>(n), static_cast<size_t>(k),
            static_cast<size_t>(n), b.data<float>(), nullptr,
            -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
            tb ? 0 : XNN_FLAG_TRANSPOSE_WEIGHTS, &op) != xnn_status_success) {
      return false;
    }
    made->op.reset(op);
    if (keep) made->keep_w = b;
    entry = XnnOpCache::Get().Insert(key, made);
  }
  std::lock_guard<std::mutex> l(entry->mu);
  return xnn_setup_fully_connected_nc_f32(entry->op.get(), static_cast<size_t>(rows), a, y,
                                          ctx.pool().xnn_pool()) == xnn_status_success &&
         xnn_run_operator(entry->op.get(), ctx.pool().xnn_pool()) == xnn_status_success;
}

namespace {

bool UseFc(int64_t m, int64_t n, int64_t k) { return m * n * k >= (int64_t{1} << 16); }

// Dot product of two float rows with 32 lanes of partial sums (GCC vector extensions; plain
// loops do not vectorise a float reduction without -ffast-math).
float DotF32(const float* x, const float* y, int64_t k) {
  typedef float V8 __attribute__((vector_size(32), aligned(4)));
  V8 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int64_t p = 0;
  for (; p + 32 <= k; p += 32) {
    s0 += *reinterpret_cast<const V8*>(x + p) * *reinterpret_cast<const V8*>(y + p);
    s1 += *reinterpret_cast<const V8*>(x + p + 8) * *reinterpret_cast<const V8*>(y + p + 8);
    s2 += *reinterpret_cast<const V8*>(x + p + 16) * *reinterpret_cast<const V8*>(y + p + 16);
    s3 += *reinterpret_cast<const V8*>(x + p + 24) * *reinterpret_cast<const V8*>(y + p + 24);
  }
  const V8 v = (s0 + s1) + (s2 + s3);
  float sum = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  for (; p < k; ++p) sum += x[p] * y[p];
  return sum;
}

// One row of A (M = 1, the wake-word heads' and classifiers' case): y = alpha * a * op(B)
// (+ beta * y when has_c). Memory-bound on B, so it reads B once, in its own layout, with no
// packing or operator setup, which at this size cost more than the arithmetic.
void GemvF32(ThreadPool& pool, const float* a, const float* b, bool tb, int64_t k, int64_t n,
             float alpha, float beta, bool has_c, float* y) {
  if (tb) {  // B is [n][k]: one dot product per output
    pool.ParallelFor(n, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, k)),
                     [&](int64_t j0, int64_t j1) {
                       for (int64_t j = j0; j < j1; ++j) {
                         const float d = alpha * DotF32(a, b + j * k, k);
                         y[j] = has_c ? d + beta * y[j] : d;
                       }
                     });
    return;
  }
  constexpr int64_t kCols = 256;  // B is [k][n]: accumulate rows of B into a column block
  pool.ParallelFor((n + kCols - 1) / kCols, std::max<int64_t>(1, 65536 / (k * kCols)),
                   [&](int64_t c0, int64_t c1) {
                     float acc[kCols];
                     for (int64_t c = c0; c < c1; ++c) {
                       const int64_t j0 = c * kCols, w = std::min(kCols, n - j0);
                       std::fill(acc, acc + w, 0.f);
                       for (int64_t p = 0; p < k; ++p) {
                         const float ap = a[p];
                         const float* row = b + p * n + j0;
                         for (int64_t j = 0; j < w; ++j) acc[j] += ap * row[j];
                       }
                       for (int64_t j = 0; j < w; ++j)
                         y[j0 + j] = has_c ? alpha * acc[j] + beta * y[j0 + j] : alpha * acc[j];
                     }
                   });
}

Status GemmKernel(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  const Tensor* cin = ctx.input(2);
  if (a == nullptr || b == nullptr) return ctx.Error("Gemm needs inputs A and B");
  if (a->rank() != 2 || b->rank() != 2) {
    return ctx.Error("A and B must be 2-D, got " + a->Describe() + " and " + b->Describe());
  }
  if (a->dtype() != b->dtype() || (cin && cin->dtype() != a->dtype())) {
    return ctx.Error("input dtypes differ");
  }
  const bool ta = ctx.node().attr_int("transA", 0) != 0;
  const bool tb = ctx.node().attr_int("transB", 0) != 0;
  const float alpha = ctx.node().attr_float("alpha", 1.f);
  float beta = ctx.node().attr_float("beta", 1.f);
  const int64_t m = ta ? a->dim(1) : a->dim(0), k = ta ? a->dim(0) : a->dim(1);
  const int64_t kb = tb ? b->dim(1) : b->dim(0), n = tb ? b->dim(0) : b->dim(1);
  if (k != kb) {
    return ctx.Error("inner dimensions differ: op(A) is " + std::to_string(m) + "x" +
                     std::to_string(k) + ", op(B) is " + std::to_string(kb) + "x" +
                     std::to_string(n));
  }
  const std::vector<int64_t> yshape = {m, n};
  const bool has_c = cin != nullptr && beta != 0.f;
  Tensor y = Tensor::Empty(a->dtype(), yshape);
  // Y starts as C broadcast to (M, N) (C only broadcasts towards Y, never the reverse).
  if (has_c) {
    if (cin->rank() > 2) return ctx.Error("C must have rank <= 2, got " + cin->Describe());
    TRY_ASSIGN(auto bs, BroadcastShapes(ctx, cin->shape(), yshape));
    if (bs != yshape) {
      return ctx.Error("C " + cin->Describe() + " cannot broadcast to " + shape_to_string(yshape));
    }
    const std::vector<int64_t> st = BroadcastStrides(cin->shape(), yshape);
    const size_t es = dtype_size(a->dtype());
    const auto* src = static_cast<const uint8_t*>(cin->raw_data());
    auto* dst = static_cast<uint8_t*>(y.raw_data());
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        std::memcpy(dst + (i * n + j) * es, src + (i * st[0] + j * st[1]) * es, es);
      }
    }
  }
  if (a->dtype() == DType::kF32 && m == 1 && !ta && b->dtype() == DType::kF32) {
    GemvF32(ctx.pool(), a->data<float>(), b->data<float>(), tb, k, n, alpha, beta, has_c,
            y.data<float>());
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  if (a->dtype() == DType::kF32 && UseFc(m, n, k)) {
    std::vector<float> at;
    const float* ap = a->data<float>();
    if (ta) {  // fully_connected wants A as [M][K] rows
      at.resize(static_cast<size_t>(m * k));
      for (int64_t p = 0; p < k; ++p)
        for (int64_t i = 0; i < m; ++i) at[i * k + p] = ap[p * m + i];
      ap = at.data();
    }
    std::vector<float> prod(static_cast<size_t>(m * n));
    if (FcXnnpack(ctx, ap, m, k, *b, tb, n, prod.data())) {
      float* yp = y.data<float>();
      for (int64_t i = 0; i < m * n; ++i) {
        yp[i] = has_c ? alpha * prod[i] + beta * yp[i] : alpha * prod[i];
      }
      ctx.set_output(0, std::move(y));
      return Status::Ok();
    }
  }
  if (a->dtype() == DType::kF32) {
    Sgemm(ta, tb, m, n, k, alpha, a->data<float>(), a->dim(1), b->data<float>(), b->dim(1),
          has_c ? beta : 0.f, y.data<float>(), n, &ctx.pool());
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  Status st = visit_dtype(a->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, void> || std::is_same_v<T, bool> || std::is_same_v<T, int8_t> ||
                  std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                  std::is_same_v<T, uint16_t>) {
      return ctx.Unsupported(std::string("Gemm does not support dtype ") + dtype_name(a->dtype()));
    } else if constexpr (is_half_v<T>) {
      std::vector<float> af = ToFloat(a->data<T>(), a->numel());
      std::vector<float> bf = ToFloat(b->data<T>(), b->numel());
      std::vector<float> yf = has_c ? ToFloat(y.data<T>(), y.numel())
                                    : std::vector<float>(static_cast<size_t>(y.numel()));
      Sgemm(ta, tb, m, n, k, alpha, af.data(), a->dim(1), bf.data(), b->dim(1), has_c ? beta : 0.f,
            yf.data(), n, &ctx.pool());
      for (int64_t i = 0; i < y.numel(); ++i) y.data<T>()[i] = T(yf[i]);
      return Status::Ok();
    } else {
      NaiveGemm<T>(ta, tb, m, n, k, alpha, a->data<T>(), b->data<T>(), beta, has_c, y.data<T>());
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport GemmSupports(const SupportQuery& q) {
  if (!GemmTypeOk(q.input_type(0))) {
    return OpSupport::No(std::string("Gemm: dtype ") + dtype_name(q.input_type(0)) +
                         " is not supported");
  }
  return OpSupport::Yes();
}

// Batched matmul of f32: A [batch..., M, K] x B [batch..., K, N] with broadcast batch dims.
template <class T>
void MatMulBatch(const T* a, const T* b, T* y, int64_t m, int64_t n, int64_t k) {
  if constexpr (std::is_same_v<T, float>) {
    Sgemm(false, false, m, n, k, 1.f, a, k, b, n, 0.f, y, n, nullptr);
  } else if constexpr (is_half_v<T>) {
    std::vector<float> af = ToFloat(a, m * k), bf = ToFloat(b, k * n);
    std::vector<float> yf(static_cast<size_t>(m * n));
    Sgemm(false, false, m, n, k, 1.f, af.data(), k, bf.data(), n, 0.f, yf.data(), n, nullptr);
    for (int64_t i = 0; i < m * n; ++i) y[i] = T(yf[i]);
  } else {
    NaiveGemm<T>(false, false, m, n, k, 1.0, a, b, 0.0, false, y);
  }
}

Status MatMulKernel(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  if (a == nullptr || b == nullptr) return ctx.Error("MatMul needs inputs A and B");
  if (a->dtype() != b->dtype()) return ctx.Error("A and B dtypes differ");
  if (a->rank() == 0 || b->rank() == 0) return ctx.Error("MatMul inputs must not be scalars");
  std::vector<int64_t> as = a->shape(), bs = b->shape();
  const bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k) {
    return ctx.Error("inner dimensions differ: " + a->Describe() + " x " + b->Describe());
  }
  std::vector<int64_t> abatch(as.begin(), as.end() - 2), bbatch(bs.begin(), bs.end() - 2);
  TRY_ASSIGN(std::vector<int64_t> batch, BroadcastShapes(ctx, abatch, bbatch));
  std::vector<int64_t> yshape = batch;
  if (!a_vec) yshape.push_back(m);
  if (!b_vec) yshape.push_back(n);
  if (shape_numel(yshape) < 0) return ctx.Error("output shape overflows");
  const DType dt = a->dtype();
  Tensor y = Tensor::Empty(dt, yshape);
  const int64_t nbatch = shape_numel(batch);
  if (y.numel() == 0) {
    ctx.set_output(0, std::move(y));
    return Status::Ok();
  }
  return visit_dtype(dt, [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, void> || std::is_same_v<T, bool> || std::is_same_v<T, int8_t> ||
                  std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                  std::is_same_v<T, uint16_t>) {
      return ctx.Unsupported(std::string("MatMul does not support dtype ") + dtype_name(dt));
    } else {
      const T* ap = a->data<T>();
      const T* bp = b->data<T>();
      T* yp = y.data<T>();
      // B without batch dims: fold A's batch into M, one big GEMM.
      if (bbatch.empty() && std::is_same_v<T, float>) {
        const int64_t rows = shape_numel(abatch) * m;
        if (UseFc(rows, n, k) && FcXnnpack(ctx, reinterpret_cast<const float*>(ap), rows, k, *b,
                                           false, n, reinterpret_cast<float*>(yp))) {
          ctx.set_output(0, std::move(y));
          return Status::Ok();
        }
        Sgemm(false, false, rows, n, k, 1.f, reinterpret_cast<const float*>(ap), k,
              reinterpret_cast<const float*>(bp), n, 0.f, reinterpret_cast<float*>(yp), n,
              &ctx.pool());
        ctx.set_output(0, std::move(y));
        return Status::Ok();
      }
      const std::vector<int64_t> ast = BroadcastStrides(abatch, batch);
      const std::vector<int64_t> bst = BroadcastStrides(bbatch, batch);
      auto offsets = [&](int64_t bi, int64_t* ao, int64_t* bo) {
        int64_t rem = bi;
        *ao = *bo = 0;
        for (size_t d = batch.size(); d-- > 0;) {
          const int64_t idx = rem % batch[d];
          rem /= batch[d];
          *ao += idx * ast[d];
          *bo += idx * bst[d];
        }
      };
      // Few large products: parallelise inside each GEMM; many small ones: across batches.
      const bool few_large = nbatch < 2 * ctx.pool().num_threads() && m * n * k >= (1 << 18);
      if (std::is_same_v<T, float> && few_large) {
        for (int64_t bi = 0; bi < nbatch; ++bi) {
          int64_t ao, bo;
          offsets(bi, &ao, &bo);
          Sgemm(false, false, m, n, k, 1.f, reinterpret_cast<const float*>(ap + ao * m * k), k,
                reinterpret_cast<const float*>(bp + bo * k * n), n, 0.f,
                reinterpret_cast<float*>(yp + bi * m * n), n, &ctx.pool());
        }
      } else {
        ctx.pool().ParallelFor(nbatch, 1, [&](int64_t b0, int64_t b1) {
          for (int64_t bi = b0; bi < b1; ++bi) {
            int64_t ao, bo;
            offsets(bi, &ao, &bo);
            MatMulBatch<T>(ap + ao * m * k, bp + bo * k * n, yp + bi * m * n, m, n, k);
          }
        });
      }
      ctx.set_output(0, std::move(y));
      return Status::Ok();
    }
  });
}

OpSupport MatMulSupports(const SupportQuery& q) {
  if (!GemmTypeOk(q.input_type(0))) {
    return OpSupport::No(std::string("MatMul: dtype ") + dtype_name(q.input_type(0)) +
                         " is not supported");
  }
  return OpSupport::Yes();
}

}  // namespace

void RegisterNnGemmOps(KernelRegistry& r) {
  r.Register("Gemm", GemmKernel, GemmSupports);
  r.Register("MatMul", MatMulKernel, MatMulSupports);
}

}  // namespace trinity
