// Signal processing: DFT, STFT, Hann/Hamming/Blackman windows and MelWeightMatrix (opset 17).
//
// Transforms run in double whatever the tensor dtype, so f32 results are accurate to float
// rounding. Power-of-two lengths use an iterative radix-2 FFT; short other lengths a direct
// O(n^2) DFT with a twiddle table; long other lengths Bluestein's chirp-z algorithm (so e.g.
// the 400-point frames of speech models stay O(n log n)).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/ops_misc_internal.h"

namespace trinity {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Cplx {
  double re = 0, im = 0;
};
inline Cplx Mul(Cplx a, Cplx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

// Unscaled forward complex DFT of a fixed length n. Immutable after construction, so one plan
// serves every thread; each caller brings its own scratch.
class FftPlan {
 public:
  explicit FftPlan(int64_t n) : n_(n) {
    if (n <= 0) return;
    if ((n & (n - 1)) == 0) {
      kind_ = Kind::kRadix2;
      tw_.resize(static_cast<size_t>(n / 2 + 1));
      for (int64_t k = 0; k < static_cast<int64_t>(tw_.size()); ++k) tw_[k] = Twiddle(k, n);
      rev_.resize(static_cast<size_t>(n));
      int bits = 0;
      while ((int64_t{1} << bits) < n) ++bits;
      for (int64_t i = 0; i < n; ++i) {
        int64_t r = 0;
        for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
        rev_[i] = r;
      }
    } else if (n <= 64) {
      kind_ = Kind::kDirect;
      tw_.resize(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) tw_[k] = Twiddle(k, n);
    } else {
      kind_ = Kind::kBluestein;
      int64_t m = 1;
      while (m < 2 * n - 1) m <<= 1;
      inner_ = std::make_unique<FftPlan>(m);
      // chirp[k] = exp(-i*pi*k^2/n); k^2 is reduced mod 2n first so the angle stays exact.
      chirp_.resize(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) {
        const int64_t k2 = (k * k) % (2 * n);
        const double a = -kPi * static_cast<double>(k2) / static_cast<double>(n);
        chirp_[k] = {std::cos(a), std::sin(a)};
      }
      std::vector<Cplx> b(static_cast<size_t>(m));
      for (int64_t k = 0; k < n; ++k) {
        const Cplx c{chirp_[k].re, -chirp_[k].im};
        b[k] = c;
        if (k > 0) b[m - k] = c;
      }
      std::vector<Cplx> scratch;
      inner_->Run(b.data(), scratch);
      chirp_fft_ = std::move(b);
    }
  }

  int64_t size() const { return n_; }

  // Transforms data[0..n) in place.
  void Run(Cplx* data, std::vector<Cplx>& scratch) const {
    switch (kind_) {
      case Kind::kRadix2:
        return Radix2(data);
      case Kind::kDirect:
        return Direct(data, scratch);
      case Kind::kBluestein:
        return Bluestein(data, scratch);
    }
  }

 private:
  enum class Kind { kRadix2, kDirect, kBluestein };

  static Cplx Twiddle(int64_t k, int64_t n) {
    const double a = -2.0 * kPi * static_cast<double>(k) / static_cast<double>(n);
    return {std::cos(a), std::sin(a)};
  }

  void Radix2(Cplx* a) const {
    for (int64_t i = 0; i < n_; ++i) {
      if (i < rev_[i]) std::swap(a[i], a[rev_[i]]);
    }
    for (int64_t len = 2; len <= n_; len <<= 1) {
      const int64_t half = len / 2, step = n_ / len;
      for (int64_t i = 0; i < n_; i += len) {
        for (int64_t k = 0; k < half; ++k) {
          const Cplx u = a[i + k];
          const Cplx v = Mul(a[i + k + half], tw_[k * step]);
          a[i + k] = {u.re + v.re, u.im + v.im};
          a[i + k + half] = {u.re - v.re, u.im - v.im};
        }
      }
    }
  }

  void Direct(Cplx* a, std::vector<Cplx>& scratch) const {
    scratch.assign(a, a + n_);
    for (int64_t k = 0; k < n_; ++k) {
      double re = 0, im = 0;
      int64_t idx = 0;  // (j * k) mod n, advanced incrementally
      for (int64_t j = 0; j < n_; ++j) {
        const Cplx w = tw_[idx];
        re += scratch[j].re * w.re - scratch[j].im * w.im;
        im += scratch[j].re * w.im + scratch[j].im * w.re;
        idx += k;
        if (idx >= n_) idx -= n_;
      }
      a[k] = {re, im};
    }
  }

  void Bluestein(Cplx* a, std::vector<Cplx>& scratch) const {
    const int64_t m = inner_->size();
    scratch.assign(static_cast<size_t>(m), Cplx{});
    for (int64_t k = 0; k < n_; ++k) scratch[k] = Mul(a[k], chirp_[k]);
    std::vector<Cplx> inner_scratch;
    inner_->Run(scratch.data(), inner_scratch);
    // Convolution theorem; the inverse FFT is conj(FFT(conj(x))) / m.
    for (int64_t k = 0; k < m; ++k) {
      const Cplx p = Mul(scratch[k], chirp_fft_[k]);
      scratch[k] = {p.re, -p.im};
    }
    inner_->Run(scratch.data(), inner_scratch);
    const double inv_m = 1.0 / static_cast<double>(m);
    for (int64_t k = 0; k < n_; ++k) {
      const Cplx conv{scratch[k].re * inv_m, -scratch[k].im * inv_m};
      a[k] = Mul(conv, chirp_[k]);
    }
  }

  int64_t n_;
  Kind kind_ = Kind::kDirect;
  std::vector<Cplx> tw_;
  std::vector<int64_t> rev_;
  std::vector<Cplx> chirp_, chirp_fft_;
  std::unique_ptr<FftPlan> inner_;
};

// Forward or inverse (scaled by 1/n) transform of data[0..n). The inverse uses
// IDFT(x) = conj(DFT(conj(x))) / n.
void Transform(const FftPlan& plan, bool inverse, Cplx* data, std::vector<Cplx>& scratch) {
  const int64_t n = plan.size();
  if (inverse) {
    for (int64_t k = 0; k < n; ++k) data[k].im = -data[k].im;
  }
  plan.Run(data, scratch);
  if (inverse) {
    const double s = 1.0 / static_cast<double>(n);
    for (int64_t k = 0; k < n; ++k) data[k] = {data[k].re * s, -data[k].im * s};
  }
}

OpSupport FloatInputSupport(const SupportQuery& q, size_t i, const char* what) {
  const DType t = q.input_type(i);
  if (t == DType::kUndefined || dtype_is_float(t)) return OpSupport::Yes();
  return OpSupport::No(q.node.op_type + ": " + what + " dtype " + dtype_name(t) +
                       " is not supported (float types only)");
}

// ---------------------------------------------------------------------------------------------
// DFT (opset 17: axis attribute, optional dft_length input).

OpSupport DftSupports(const SupportQuery& q) {
  if (q.node.attr_int("onesided", 0) != 0 && q.node.attr_int("inverse", 0) != 0) {
    return OpSupport::No("DFT: onesided=1 with inverse=1 is not supported");
  }
  return FloatInputSupport(q, 0, "input");
}

Status RunDft(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("input is missing");
  const int64_t rank = static_cast<int64_t>(x->rank());
  if (rank < 2) return ctx.Error("input must have rank >= 2, got " + x->Describe());
  const int64_t comps = x->dim(rank - 1);
  if (comps != 1 && comps != 2) {
    return ctx.Error("last dimension must be 1 (real) or 2 (complex), got " + x->Describe());
  }
  if (ctx.has_input(2)) return ctx.Unsupported("axis as an input (opset 20) is not supported");
  int64_t axis = ctx.node().attr_int("axis", 1);
  if (axis < -rank || axis > rank - 2) {
    return ctx.Error("axis " + std::to_string(axis) + " is out of range for " + x->Describe() +
                     " (the last dimension holds real/imaginary parts)");
  }
  if (axis < 0) axis += rank;
  const bool inverse = ctx.node().attr_int("inverse", 0) != 0;
  const bool onesided = ctx.node().attr_int("onesided", 0) != 0;
  if (onesided && inverse) return ctx.Unsupported("onesided=1 with inverse=1 is not supported");
  const int64_t n_in = x->dim(axis);
  int64_t n = n_in;
  if (ctx.has_input(1) && ctx.input(1)->numel() > 0) {
    TRY_ASSIGN(n, misc::ReadIntScalar(ctx, ctx.input(1), "dft_length"));
  }
  if (n <= 0) return ctx.Error("dft_length must be positive, got " + std::to_string(n));
  const int64_t n_out = onesided ? n / 2 + 1 : n;

  std::vector<int64_t> out_shape = x->shape();
  out_shape[axis] = n_out;
  out_shape[rank - 1] = 2;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x->dim(d);
  for (int64_t d = axis + 1; d < rank - 1; ++d) inner *= x->dim(d);

  return visit_float_dtype(x->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("input dtype " + std::string(dtype_name(x->dtype())) +
                             " is not supported");
    } else {
      Tensor y = Tensor::Empty(x->dtype(), out_shape);
      const T* in = x->data<T>();
      T* out = y.data<T>();
      const FftPlan plan(n);
      const int64_t copy_n = std::min(n, n_in);
      ctx.pool().ParallelFor(outer * inner, std::max<int64_t>(1, 4096 / n),
                             [&](int64_t b, int64_t e) {
                               std::vector<Cplx> line(static_cast<size_t>(n)), scratch;
                               for (int64_t li = b; li < e; ++li) {
                                 const int64_t o = li / inner, i = li % inner;
                                 const T* src = in + (o * n_in * inner + i) * comps;
                                 std::fill(line.begin(), line.end(), Cplx{});
                                 for (int64_t k = 0; k < copy_n; ++k) {
                                   const T* p = src + k * inner * comps;
                                   line[k].re = static_cast<double>(to_compute(p[0]));
                                   if (comps == 2)
                                     line[k].im = static_cast<double>(to_compute(p[1]));
                                 }
                                 Transform(plan, inverse, line.data(), scratch);
                                 T* dst = out + (o * n_out * inner + i) * 2;
                                 for (int64_t k = 0; k < n_out; ++k) {
                                   dst[k * inner * 2] = from_compute<T>(line[k].re);
                                   dst[k * inner * 2 + 1] = from_compute<T>(line[k].im);
                                 }
                               }
                             });
      ctx.set_output(0, std::move(y));
      return Status::Ok();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// STFT: frames of frame_length samples every frame_step samples, optionally windowed.

OpSupport StftSupports(const SupportQuery& q) {
  OpSupport s = FloatInputSupport(q, 0, "signal");
  if (!s.supported) return s;
  return FloatInputSupport(q, 2, "window");
}

Status RunStft(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("signal is missing");
  if (x->rank() != 3 || (x->dim(2) != 1 && x->dim(2) != 2)) {
    return ctx.Error("signal must be [batch, length, 1 or 2], got " + x->Describe());
  }
  const int64_t batch = x->dim(0), len = x->dim(1), comps = x->dim(2);
  TRY_ASSIGN(const int64_t step, misc::ReadIntScalar(ctx, ctx.input(1), "frame_step"));
  if (step <= 0) return ctx.Error("frame_step must be positive, got " + std::to_string(step));
  const Tensor* window = ctx.input(2);
  if (window != nullptr && window->rank() != 1) {
    return ctx.Error("window must be 1-D, got " + window->Describe());
  }
  if (window != nullptr && !dtype_is_float(window->dtype())) {
    return ctx.Error("window must be a float tensor, got " + window->Describe());
  }
  int64_t frame_len = -1;
  if (ctx.has_input(3)) {
    TRY_ASSIGN(frame_len, misc::ReadIntScalar(ctx, ctx.input(3), "frame_length"));
    if (window != nullptr && window->dim(0) != frame_len) {
      return ctx.Error("window length " + std::to_string(window->dim(0)) +
                       " differs from frame_length " + std::to_string(frame_len));
    }
  } else if (window != nullptr) {
    frame_len = window->dim(0);
  } else {
    return ctx.Error("either window or frame_length must be given");
  }
  if (frame_len <= 0 || frame_len > len) {
    return ctx.Error("frame_length " + std::to_string(frame_len) + " must be in [1, " +
                     std::to_string(len) + "] (the signal length)");
  }
  const bool onesided = ctx.node().attr_int("onesided", 1) != 0;
  if (onesided && comps == 2) {
    return ctx.Error("onesided=1 needs a real signal, got complex " + x->Describe());
  }
  const int64_t frames = (len - frame_len) / step + 1;
  const int64_t bins = onesided ? frame_len / 2 + 1 : frame_len;
  const std::vector<double> win =
      window ? misc::ToComputeVector<double>(*window) : std::vector<double>();

  return visit_float_dtype(x->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("signal dtype " + std::string(dtype_name(x->dtype())) +
                             " is not supported");
    } else {
      Tensor y = Tensor::Empty(x->dtype(), {batch, frames, bins, 2});
      const T* in = x->data<T>();
      T* out = y.data<T>();
      const FftPlan plan(frame_len);
      ctx.pool().ParallelFor(
          batch * frames, std::max<int64_t>(1, 4096 / frame_len), [&](int64_t b, int64_t e) {
            std::vector<Cplx> line(static_cast<size_t>(frame_len)), scratch;
            for (int64_t fi = b; fi < e; ++fi) {
              const int64_t bi = fi / frames, f = fi % frames;
              const T* src = in + (bi * len + f * step) * comps;
              for (int64_t k = 0; k < frame_len; ++k) {
                const double w = win.empty() ? 1.0 : win[k];
                line[k].re = static_cast<double>(to_compute(src[k * comps])) * w;
                line[k].im =
                    comps == 2 ? static_cast<double>(to_compute(src[k * comps + 1])) * w : 0.0;
              }
              Transform(plan, false, line.data(), scratch);
              T* dst = out + fi * bins * 2;
              for (int64_t k = 0; k < bins; ++k) {
                dst[2 * k] = from_compute<T>(line[k].re);
                dst[2 * k + 1] = from_compute<T>(line[k].im);
              }
            }
          });
      ctx.set_output(0, std::move(y));
      return Status::Ok();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Windows: w[n] = a0 - a1*cos(2*pi*n/N) + a2*cos(4*pi*n/N), N = size (periodic) or size-1.

OpSupport WindowSupports(const SupportQuery& q) {
  const int64_t code = q.node.attr_int("output_datatype", 1);
  const DType t = DTypeFromOnnxCode(code);
  if (t == DType::kUndefined || t == DType::kBool) {
    return OpSupport::No(q.node.op_type + ": output_datatype " + std::to_string(code) +
                         " is not supported");
  }
  return OpSupport::Yes();
}

// Writes double values into a new tensor of dtype `t` (a numeric dtype).
Result<Tensor> MakeTyped(const KernelContext& ctx, DType t, std::vector<int64_t> shape,
                         const std::vector<double>& v) {
  return visit_numeric_dtype(t, [&](auto tag) -> Result<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("output_datatype " + std::string(dtype_name(t)) + " is not supported");
    } else {
      Tensor y = Tensor::Empty(t, std::move(shape));
      T* p = y.data<T>();
      for (size_t i = 0; i < v.size(); ++i) p[i] = from_compute<T>(static_cast<compute_t<T>>(v[i]));
      return y;
    }
  });
}

Status RunWindow(KernelContext& ctx, double a0, double a1, double a2) {
  TRY_ASSIGN(const int64_t size, misc::ReadIntScalar(ctx, ctx.input(0), "size"));
  if (size < 0 || size > (int64_t{1} << 31)) {
    return ctx.Error("size " + std::to_string(size) + " is out of range");
  }
  const int64_t code = ctx.node().attr_int("output_datatype", 1);
  const DType t = DTypeFromOnnxCode(code);
  if (t == DType::kUndefined || t == DType::kBool) {
    return ctx.Unsupported("output_datatype " + std::to_string(code) + " is not supported");
  }
  const bool periodic = ctx.node().attr_int("periodic", 1) != 0;
  const int64_t denom = periodic ? size : size - 1;
  std::vector<double> w(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    // A symmetric window of one point has N = 0; numpy defines it as [1].
    if (denom == 0) {
      w[i] = 1.0;
      continue;
    }
    const double a = 2.0 * kPi * static_cast<double>(i) / static_cast<double>(denom);
    w[i] = a0 - a1 * std::cos(a) + a2 * std::cos(2.0 * a);
  }
  TRY_ASSIGN(Tensor y, MakeTyped(ctx, t, {size}, w));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// MelWeightMatrix, following the ONNX reference: num_mel_bins + 2 mel points evenly spaced
// (step = range / (num_mel_bins + 2)) mapped to integer DFT bins, triangles of peak 1.

Status RunMelWeightMatrix(KernelContext& ctx) {
  TRY_ASSIGN(const int64_t num_mel, misc::ReadIntScalar(ctx, ctx.input(0), "num_mel_bins"));
  TRY_ASSIGN(const int64_t dft_len, misc::ReadIntScalar(ctx, ctx.input(1), "dft_length"));
  TRY_ASSIGN(const int64_t rate, misc::ReadIntScalar(ctx, ctx.input(2), "sample_rate"));
  TRY_ASSIGN(const double lower, misc::ReadFloatScalar(ctx, ctx.input(3), "lower_edge_hertz"));
  TRY_ASSIGN(const double upper, misc::ReadFloatScalar(ctx, ctx.input(4), "upper_edge_hertz"));
  if (num_mel <= 0 || num_mel > (1 << 20)) {
    return ctx.Error("num_mel_bins " + std::to_string(num_mel) + " is out of range");
  }
  if (dft_len <= 0 || dft_len > (1 << 24)) {
    return ctx.Error("dft_length " + std::to_string(dft_len) + " is out of range");
  }
  if (rate <= 0) return ctx.Error("sample_rate must be positive, got " + std::to_string(rate));
  if (!(lower >= 0) || !(upper > lower)) {
    return ctx.Error("need 0 <= lower_edge_hertz < upper_edge_hertz, got " + std::to_string(lower) +
                     ", " + std::to_string(upper));
  }
  const int64_t code = ctx.node().attr_int("output_datatype", 1);
  const DType t = DTypeFromOnnxCode(code);
  if (t == DType::kUndefined || t == DType::kBool) {
    return ctx.Unsupported("output_datatype " + std::to_string(code) + " is not supported");
  }
  const int64_t spec_bins = dft_len / 2 + 1;
  // Mel edges in float as the reference computes them (float32 inputs), bins in double.
  const float low_mel = 2595.f * std::log10(1.f + static_cast<float>(lower) / 700.f);
  const float high_mel = 2595.f * std::log10(1.f + static_cast<float>(upper) / 700.f);
  const float mel_step = (high_mel - low_mel) / static_cast<float>(num_mel + 2);
  std::vector<int64_t> bin(static_cast<size_t>(num_mel + 2));
  for (int64_t i = 0; i < num_mel + 2; ++i) {
    const double mel = static_cast<double>(i) * static_cast<double>(mel_step) + low_mel;
    const double hz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    bin[i] = static_cast<int64_t>(
        std::floor(static_cast<double>(dft_len + 1) * hz / static_cast<double>(rate)));
    if (bin[i] < 0 || bin[i] >= spec_bins) {
      return ctx.Error("upper_edge_hertz " + std::to_string(upper) +
                       " maps past the last DFT bin (sample_rate / 2 is the limit)");
    }
  }
  std::vector<double> w(static_cast<size_t>(spec_bins * num_mel), 0.0);
  for (int64_t i = 0; i < num_mel; ++i) {
    const int64_t lo = bin[i], center = bin[i + 1], hi = bin[i + 2];
    if (center == lo) {
      w[center * num_mel + i] = 1.0;
    } else {
      for (int64_t j = lo; j <= center; ++j) {
        w[j * num_mel + i] = static_cast<double>(j - lo) / static_cast<double>(center - lo);
      }
    }
    for (int64_t j = center; j < hi; ++j) {
      w[j * num_mel + i] = static_cast<double>(hi - j) / static_cast<double>(hi - center);
    }
  }
  TRY_ASSIGN(Tensor y, MakeTyped(ctx, t, {spec_bins, num_mel}, w));
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

OpSupport MelSupports(const SupportQuery& q) {
  OpSupport s = WindowSupports(q);
  if (!s.supported) return s;
  s = FloatInputSupport(q, 3, "lower_edge_hertz");
  if (!s.supported) return s;
  return FloatInputSupport(q, 4, "upper_edge_hertz");
}

}  // namespace

void RegisterMiscSignalOps(KernelRegistry& r) {
  r.Register("DFT", RunDft, DftSupports);
  r.Register("STFT", RunStft, StftSupports);
  r.Register(
      "HannWindow", [](KernelContext& ctx) { return RunWindow(ctx, 0.5, 0.5, 0.0); },
      WindowSupports);
  r.Register(
      "HammingWindow",
      [](KernelContext& ctx) { return RunWindow(ctx, 25.0 / 46.0, 21.0 / 46.0, 0.0); },
      WindowSupports);
  r.Register(
      "BlackmanWindow", [](KernelContext& ctx) { return RunWindow(ctx, 0.42, 0.5, 0.08); },
      WindowSupports);
  r.Register("MelWeightMatrix", RunMelWeightMatrix, MelSupports);
}

}  // namespace trinity
