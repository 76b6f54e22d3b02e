// Recurrent layers: RNN, GRU, LSTM (all activations, clip, directions, layouts 0/1,
// sequence_lens, initial states, peepholes, input_forget, linear_before_reset).
//
// Plan per direction: one GEMM computes X*W^T (+ the biases that are plain sums) for all
// timesteps at once; the recurrence then adds H*R^T per step and applies the gates. Weights are
// transposed once so every inner loop runs over contiguous gate columns and vectorises.
// Math runs in float for f32/f16/bf16 and in double for f64.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "backends/cpu/ops_misc_internal.h"

namespace trinity {
namespace {

enum class RnnKind { kRnn, kGru, kLstm };

int GateCount(RnnKind k) { return k == RnnKind::kRnn ? 1 : k == RnnKind::kGru ? 3 : 4; }
int ActCount(RnnKind k) { return k == RnnKind::kRnn ? 1 : k == RnnKind::kGru ? 2 : 3; }
const char* KindName(RnnKind k) {
  return k == RnnKind::kRnn ? "RNN" : k == RnnKind::kGru ? "GRU" : "LSTM";
}

// ---------------------------------------------------------------------------------------------
// Activations.

enum class Act {
  kRelu,
  kTanh,
  kSigmoid,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus
};

struct ActFn {
  Act kind = Act::kTanh;
  float alpha = 0, beta = 0;
};

struct ActInfo {
  const char* name;
  Act kind;
  int params;         // how many of (alpha, beta) it consumes
  float alpha, beta;  // defaults
};

constexpr ActInfo kActs[] = {
    {"relu", Act::kRelu, 0, 0, 0},
    {"tanh", Act::kTanh, 0, 0, 0},
    {"sigmoid", Act::kSigmoid, 0, 0, 0},
    {"affine", Act::kAffine, 2, 1.f, 0.f},
    {"leakyrelu", Act::kLeakyRelu, 1, 0.01f, 0},
    {"thresholdedrelu", Act::kThresholdedRelu, 1, 1.f, 0},
    {"scaledtanh", Act::kScaledTanh, 2, 1.f, 1.f},
    {"hardsigmoid", Act::kHardSigmoid, 2, 0.2f, 0.5f},
    {"elu", Act::kElu, 1, 1.f, 0},
    {"softsign", Act::kSoftsign, 0, 0, 0},
    {"softplus", Act::kSoftplus, 0, 0, 0},
};

const ActInfo* FindAct(const std::string& name) {
  std::string lower;
  for (char c : name)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (const ActInfo& a : kActs) {
    if (lower == a.name) return &a;
  }
  return nullptr;
}

// Resolves the node's activations: one set per direction (a single set is shared by both
// directions). activation_alpha/beta are consumed in order by the functions that take them,
// as ONNX Runtime does; missing values take the operator defaults.
Result<std::vector<ActFn>> ParseActivations(const Node& node, RnnKind kind, int num_dir) {
  std::vector<std::string> names;
  if (const Attribute* a = node.attr("activations")) names = a->strings;
  const int per_dir = ActCount(kind);
  if (names.empty()) {
    const char* defaults[] = {"Sigmoid", "Tanh", "Tanh"};
    for (int d = 0; d < num_dir; ++d) {
      if (kind == RnnKind::kRnn)
        names.push_back("Tanh");
      else
        for (int i = 0; i < per_dir; ++i) names.push_back(defaults[i]);
    }
  } else if (static_cast<int>(names.size()) == per_dir && num_dir == 2) {
    names.insert(names.end(), names.begin(), names.end());
  }
  if (static_cast<int>(names.size()) != per_dir * num_dir) {
    return Status::InvalidArgument(node.Label() + ": expected " +
                                   std::to_string(per_dir * num_dir) + " activations, got " +
                                   std::to_string(names.size()));
  }
  const std::vector<float> alphas = node.attr_floats("activation_alpha");
  const std::vector<float> betas = node.attr_floats("activation_beta");
  size_t ai = 0, bi = 0;
  std::vector<ActFn> out;
  for (const std::string& n : names) {
    const ActInfo* info = FindAct(n);
    if (info == nullptr) {
      return Status::Unsupported(node.Label() + ": activation '" + n + "' is not supported");
    }
    ActFn f{info->kind, info->alpha, info->beta};
    if (info->params >= 1 && ai < alphas.size()) f.alpha = alphas[ai++];
    if (info->params >= 2 && bi < betas.size()) f.beta = betas[bi++];
    out.push_back(f);
  }
  return out;
}

template <class C>
void ApplyAct(const ActFn& f, C* v, int64_t n) {
  const C a = static_cast<C>(f.alpha), b = static_cast<C>(f.beta);
  switch (f.kind) {
    case Act::kRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = std::max<C>(v[i], 0);
      break;
    case Act::kTanh:
      for (int64_t i = 0; i < n; ++i) v[i] = std::tanh(v[i]);
      break;
    case Act::kSigmoid:
      for (int64_t i = 0; i < n; ++i) v[i] = C(1) / (C(1) + std::exp(-v[i]));
      break;
    case Act::kAffine:
      for (int64_t i = 0; i < n; ++i) v[i] = a * v[i] + b;
      break;
    case Act::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0 ? v[i] : a * v[i];
      break;
    case Act::kThresholdedRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] > a ? v[i] : C(0);
      break;
    case Act::kScaledTanh:
      for (int64_t i = 0; i < n; ++i) v[i] = a * std::tanh(b * v[i]);
      break;
    case Act::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) v[i] = std::clamp<C>(a * v[i] + b, C(0), C(1));
      break;
    case Act::kElu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0 ? v[i] : a * (std::exp(v[i]) - C(1));
      break;
    case Act::kSoftsign:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] / (C(1) + std::abs(v[i]));
      break;
    case Act::kSoftplus:
      // log(1 + e^x) without overflow for large x.
      for (int64_t i = 0; i < n; ++i) {
        v[i] = v[i] > C(0) ? v[i] + std::log1p(std::exp(-v[i])) : std::log1p(std::exp(v[i]));
      }
      break;
  }
}

template <class C>
void Clip(C* v, int64_t n, C clip) {
  if (clip <= 0) return;
  for (int64_t i = 0; i < n; ++i) v[i] = std::clamp(v[i], -clip, clip);
}

// ---------------------------------------------------------------------------------------------
// Shapes and inputs.

struct RnnDims {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
  int num_dir = 1;
  bool layout1 = false;
};

// Reads the batch x hidden slice `d` of an initial state ([dirs, batch, hidden], or
// [batch, dirs, hidden] with layout 1) into h.
template <class C>
void LoadState(const std::vector<C>& all, const RnnDims& dm, int d, std::vector<C>& h) {
  for (int64_t b = 0; b < dm.batch; ++b) {
    const int64_t src = dm.layout1 ? (b * dm.num_dir + d) : (d * dm.batch + b);
    std::copy_n(all.begin() + src * dm.hidden, dm.hidden, h.begin() + b * dm.hidden);
  }
}

// Index of Y_h/Y_c element (d, b, 0).
int64_t StateIndex(const RnnDims& dm, int d, int64_t b) {
  return (dm.layout1 ? (b * dm.num_dir + d) : (d * dm.batch + b)) * dm.hidden;
}
// Index of Y element (t, d, b, 0).
int64_t YIndex(const RnnDims& dm, int64_t t, int d, int64_t b) {
  return (dm.layout1 ? ((b * dm.seq + t) * dm.num_dir + d)
                     : ((t * dm.num_dir + d) * dm.batch + b)) *
         dm.hidden;
}

Status CheckShape(const KernelContext& ctx, const Tensor* t, const std::vector<int64_t>& want,
                  const char* what) {
  if (t != nullptr && t->shape() != want) {
    return ctx.Error(std::string(what) + " must be " + shape_to_string(want) + ", got " +
                     t->Describe());
  }
  return Status::Ok();
}

// C[m, n] = A[m, k] * Bt[k, n] (+ C when accumulate).
template <class C>
void Gemm(const C* a, const C* bt, C* c, int64_t m0, int64_t m1, int64_t k, int64_t n) {
  for (int64_t i = m0; i < m1; ++i) {
    C* crow = c + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const C av = a[i * k + kk];
      const C* brow = bt + kk * n;
      for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
    }
  }
}

// Transposes [rows, cols] into [cols, rows].
template <class C>
std::vector<C> Transpose(const C* src, int64_t rows, int64_t cols) {
  std::vector<C> t(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = src[r * cols + c];
  return t;
}

struct RnnParams {
  RnnKind kind;
  RnnDims dm;
  bool reverse[2] = {false, false};
  float clip = 0;
  bool linear_before_reset = false, input_forget = false;
  std::vector<ActFn> acts;
  std::vector<int64_t> seq_lens;
};

// One direction of the recurrence. x is time-major [seq, batch, input] in compute type.
template <class C>
void RunDirection(KernelContext& ctx, const RnnParams& p, int d, const std::vector<C>& x,
                  const std::vector<C>& wt, const std::vector<C>& rt, const std::vector<C>& bias,
                  const std::vector<C>& peep, std::vector<C>& h, std::vector<C>& c, C* y) {
  const RnnDims& dm = p.dm;
  const int64_t H = dm.hidden, G = GateCount(p.kind), GH = G * H;
  // Biases folded into the input projection: all of Wb, and Rb except GRU's hidden gate with
  // linear_before_reset (there Rbh sits inside r * (...)).
  std::vector<C> xb(static_cast<size_t>(GH), C(0)), rbh(static_cast<size_t>(H), C(0));
  if (!bias.empty()) {
    const C* wb = bias.data() + d * 2 * GH;
    const C* rb = wb + GH;
    for (int64_t j = 0; j < GH; ++j) xb[j] = wb[j] + rb[j];
    if (p.kind == RnnKind::kGru && p.linear_before_reset) {
      for (int64_t j = 0; j < H; ++j) {
        xb[2 * H + j] = wb[2 * H + j];
        rbh[j] = rb[2 * H + j];
      }
    }
  }
  const int64_t rows = dm.seq * dm.batch;
  std::vector<C> xw(static_cast<size_t>(rows * GH));
  ctx.pool().ParallelFor(rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, GH * dm.input)),
                         [&](int64_t r0, int64_t r1) {
                           for (int64_t i = r0; i < r1; ++i)
                             std::copy(xb.begin(), xb.end(), xw.begin() + i * GH);
                           Gemm(x.data(), wt.data(), xw.data(), r0, r1, dm.input, GH);
                         });
  const ActFn* act = p.acts.data() + d * ActCount(p.kind);
  const C clip = static_cast<C>(p.clip);
  const C* pi = peep.empty() ? nullptr : peep.data() + d * 3 * H;
  std::vector<C> h_next(h.size());
  for (int64_t s = 0; s < dm.seq; ++s) {
    ctx.pool().ParallelFor(dm.batch, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, GH * H)),
                           [&](int64_t b0, int64_t b1) {
                             std::vector<C> g(static_cast<size_t>(GH)), tmp(static_cast<size_t>(H)),
                                 hr;
                             if (p.kind == RnnKind::kGru && p.linear_before_reset)
                               hr.resize(static_cast<size_t>(GH));
                             for (int64_t b = b0; b < b1; ++b) {
                               const int64_t len = p.seq_lens.empty() ? dm.seq : p.seq_lens[b];
                               if (s >= len) continue;
                               const int64_t t = p.reverse[d] ? len - 1 - s : s;
                               C* hb = h.data() + b * H;
                               C* hn = h_next.data() + b * H;
                               std::copy_n(xw.begin() + (t * dm.batch + b) * GH, GH, g.begin());
                               if (p.kind == RnnKind::kRnn) {
                                 Gemm(hb, rt.data(), g.data(), 0, 1, H, GH);
                                 Clip(g.data(), H, clip);
                                 ApplyAct(act[0], g.data(), H);
                                 std::copy_n(g.begin(), H, hn);
                               } else if (p.kind == RnnKind::kGru) {
                                 C* z = g.data();
                                 C* rg = g.data() + H;
                                 C* hh = g.data() + 2 * H;
                                 if (p.linear_before_reset) {
                                   // Full H*R^T, then hh += r * (H*Rh^T + Rbh).
                                   std::fill(hr.begin(), hr.end(), C(0));
                                   Gemm(hb, rt.data(), hr.data(), 0, 1, H, GH);
                                   for (int64_t j = 0; j < 2 * H; ++j) g[j] += hr[j];
                                   Clip(g.data(), 2 * H, clip);
                                   ApplyAct(act[0], g.data(), 2 * H);
                                   for (int64_t j = 0; j < H; ++j)
                                     hh[j] += rg[j] * (hr[2 * H + j] + rbh[j]);
                                 } else {
                                   // z and r first; then hh += (r . H) * Rh^T.
                                   for (int64_t k = 0; k < H; ++k) {
                                     const C hv = hb[k];
                                     const C* row = rt.data() + k * GH;
                                     for (int64_t j = 0; j < 2 * H; ++j) g[j] += hv * row[j];
                                   }
                                   Clip(g.data(), 2 * H, clip);
                                   ApplyAct(act[0], g.data(), 2 * H);
                                   for (int64_t k = 0; k < H; ++k) {
                                     const C hv = rg[k] * hb[k];
                                     const C* row = rt.data() + k * GH + 2 * H;
                                     for (int64_t j = 0; j < H; ++j) hh[j] += hv * row[j];
                                   }
                                 }
                                 Clip(hh, H, clip);
                                 ApplyAct(act[1], hh, H);
                                 for (int64_t j = 0; j < H; ++j)
                                   hn[j] = (C(1) - z[j]) * hh[j] + z[j] * hb[j];
                               } else {
                                 Gemm(hb, rt.data(), g.data(), 0, 1, H, GH);
                                 C* ig = g.data();
                                 C* og = g.data() + H;
                                 C* fg = g.data() + 2 * H;
                                 C* cg = g.data() + 3 * H;
                                 C* cb = c.data() + b * H;
                                 if (pi != nullptr) {
                                   for (int64_t j = 0; j < H; ++j) {
                                     ig[j] += pi[j] * cb[j];
                                     fg[j] += pi[2 * H + j] * cb[j];
                                   }
                                 }
                                 // The output gate is clipped after its peephole term, which needs
                                 // the new cell.
                                 Clip(ig, H, clip);
                                 Clip(fg, H, clip);
                                 Clip(cg, H, clip);
                                 ApplyAct(act[0], ig, H);
                                 if (p.input_forget) {
                                   for (int64_t j = 0; j < H; ++j) fg[j] = C(1) - ig[j];
                                 } else {
                                   ApplyAct(act[0], fg, H);
                                 }
                                 ApplyAct(act[1], cg, H);
                                 for (int64_t j = 0; j < H; ++j)
                                   cb[j] = fg[j] * cb[j] + ig[j] * cg[j];
                                 if (pi != nullptr) {
                                   for (int64_t j = 0; j < H; ++j) og[j] += pi[H + j] * cb[j];
                                 }
                                 Clip(og, H, clip);
                                 ApplyAct(act[0], og, H);
                                 std::copy_n(cb, H, tmp.begin());
                                 ApplyAct(act[2], tmp.data(), H);
                                 for (int64_t j = 0; j < H; ++j) hn[j] = og[j] * tmp[j];
                               }
                               if (y != nullptr) std::copy_n(hn, H, y + YIndex(dm, t, d, b));
                             }
                           });
    // Commit the new states of the batches that advanced this step.
    for (int64_t b = 0; b < dm.batch; ++b) {
      const int64_t len = p.seq_lens.empty() ? dm.seq : p.seq_lens[b];
      if (s < len) std::copy_n(h_next.begin() + b * H, H, h.begin() + b * H);
    }
  }
}

// W and R of every direction, transposed to [input, gates*H] and [H, gates*H] in compute type.
template <class C>
struct PreparedWeights {
  std::vector<std::vector<C>> wt, rt;
  Tensor keep_w, keep_r;  // hold the source bytes so their addresses stay theirs
};

template <class C>
std::shared_ptr<const PreparedWeights<C>> PrepareWeights(const Tensor& w, const Tensor& r,
                                                         const RnnDims& dm, int64_t gh) {
  auto pw = std::make_shared<PreparedWeights<C>>();
  const std::vector<C> wv = misc::ToComputeVector<C>(w);
  const std::vector<C> rv = misc::ToComputeVector<C>(r);
  for (int64_t d = 0; d < dm.num_dir; ++d) {
    pw->wt.push_back(Transpose(wv.data() + d * gh * dm.input, gh, dm.input));
    pw->rt.push_back(Transpose(rv.data() + d * gh * dm.hidden, gh, dm.hidden));
  }
  pw->keep_w = w;
  pw->keep_r = r;
  return pw;
}

// Transposing the weights costs as much as a whole step of a streaming model (Silero VAD runs
// one step per call), so for constant weights the prepared copy is cached across runs, keyed
// by node and weight addresses (constants never change while their session lives).
template <class C>
std::shared_ptr<const PreparedWeights<C>> CachedWeights(const KernelContext& ctx, const RnnDims& dm,
                                                        int64_t gh) {
  const Tensor& w = *ctx.input(1);
  const Tensor& r = *ctx.input(2);
  if (!ctx.input_is_constant(1) || !ctx.input_is_constant(2))
    return PrepareWeights<C>(w, r, dm, gh);
  using Key = std::tuple<const void*, const void*, const void*, size_t>;
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const PreparedWeights<C>>> cache;
  const Key key{&ctx.node(), w.raw_data(), r.raw_data(), static_cast<size_t>(dm.num_dir)};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 256) cache.clear();  // bounded: sessions come and go
  auto pw = PrepareWeights<C>(w, r, dm, gh);
  cache.emplace(key, pw);
  return pw;
}

template <class T>
Status RunRnnTyped(KernelContext& ctx, RnnParams& p) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const RnnDims& dm = p.dm;
  const int64_t H = dm.hidden;
  const Tensor& xt = *ctx.input(0);
  std::vector<C> xin = misc::ToComputeVector<C>(xt);
  // Time-major copy of X.
  std::vector<C> x(xin.size());
  if (dm.layout1) {
    for (int64_t b = 0; b < dm.batch; ++b)
      for (int64_t t = 0; t < dm.seq; ++t)
        std::copy_n(xin.begin() + (b * dm.seq + t) * dm.input, dm.input,
                    x.begin() + (t * dm.batch + b) * dm.input);
  } else {
    x = std::move(xin);
  }
  const auto weights = CachedWeights<C>(ctx, dm, GateCount(p.kind) * H);
  const std::vector<C> bias =
      ctx.has_input(3) ? misc::ToComputeVector<C>(*ctx.input(3)) : std::vector<C>();
  const std::vector<C> h0 =
      ctx.has_input(5) ? misc::ToComputeVector<C>(*ctx.input(5)) : std::vector<C>();
  const std::vector<C> c0 = p.kind == RnnKind::kLstm && ctx.has_input(6)
                                ? misc::ToComputeVector<C>(*ctx.input(6))
                                : std::vector<C>();
  const std::vector<C> peep = p.kind == RnnKind::kLstm && ctx.has_input(7)
                                  ? misc::ToComputeVector<C>(*ctx.input(7))
                                  : std::vector<C>();

  const std::vector<int64_t> y_shape = dm.layout1
                                           ? std::vector<int64_t>{dm.batch, dm.seq, dm.num_dir, H}
                                           : std::vector<int64_t>{dm.seq, dm.num_dir, dm.batch, H};
  const std::vector<int64_t> s_shape = dm.layout1 ? std::vector<int64_t>{dm.batch, dm.num_dir, H}
                                                  : std::vector<int64_t>{dm.num_dir, dm.batch, H};
  std::vector<C> y(ctx.output_wanted(0) ? static_cast<size_t>(shape_numel(y_shape)) : 0, C(0));
  std::vector<C> yh(static_cast<size_t>(shape_numel(s_shape))), yc(yh.size());
  for (int d = 0; d < dm.num_dir; ++d) {
    std::vector<C> h(static_cast<size_t>(dm.batch * H), C(0)), c(h.size(), C(0));
    if (!h0.empty()) LoadState(h0, dm, d, h);
    if (!c0.empty()) LoadState(c0, dm, d, c);
    RunDirection<C>(ctx, p, d, x, weights->wt[static_cast<size_t>(d)],
                    weights->rt[static_cast<size_t>(d)], bias, peep, h, c,
                    y.empty() ? nullptr : y.data());
    for (int64_t b = 0; b < dm.batch; ++b) {
      std::copy_n(h.begin() + b * H, H, yh.begin() + StateIndex(dm, d, b));
      std::copy_n(c.begin() + b * H, H, yc.begin() + StateIndex(dm, d, b));
    }
  }
  auto emit = [&](size_t i, const std::vector<int64_t>& shape, const std::vector<C>& v) {
    if (i >= ctx.num_outputs()) return;
    Tensor t = Tensor::Empty(xt.dtype(), shape);
    T* o = t.data<T>();
    for (size_t k = 0; k < v.size(); ++k) o[k] = from_compute<T>(v[k]);
    ctx.set_output(i, std::move(t));
  };
  if (ctx.output_wanted(0)) emit(0, y_shape, y);
  emit(1, s_shape, yh);
  if (p.kind == RnnKind::kLstm) emit(2, s_shape, yc);
  return Status::Ok();
}

Status RunRnn(KernelContext& ctx, RnnKind kind) {
  const Node& node = ctx.node();
  const Tensor* x = ctx.input(0);
  const Tensor* w = ctx.input(1);
  const Tensor* r = ctx.input(2);
  if (x == nullptr || w == nullptr || r == nullptr) return ctx.Error("X, W and R are required");
  if (!dtype_is_float(x->dtype())) {
    return ctx.Unsupported("dtype " + std::string(dtype_name(x->dtype())) + " is not supported");
  }
  for (size_t i : {1, 2, 3, 5, 6, 7}) {
    const Tensor* t = ctx.input(i);
    if (t != nullptr && t->dtype() != x->dtype()) {
      return ctx.Error("input " + std::to_string(i) + " " + t->Describe() +
                       " must have the dtype of X " + x->Describe());
    }
  }
  RnnParams p;
  p.kind = kind;
  RnnDims& dm = p.dm;
  const int64_t layout = ctx.opset() >= 14 ? node.attr_int("layout", 0) : 0;
  if (layout != 0 && layout != 1) return ctx.Error("layout must be 0 or 1");
  dm.layout1 = layout == 1;
  const std::string dir = node.attr_string("direction", "forward");
  if (dir == "forward") {
    dm.num_dir = 1;
  } else if (dir == "reverse") {
    dm.num_dir = 1;
    p.reverse[0] = true;
  } else if (dir == "bidirectional") {
    dm.num_dir = 2;
    p.reverse[1] = true;
  } else {
    return ctx.Error("direction '" + dir + "' is not valid");
  }
  if (x->rank() != 3) return ctx.Error("X must be 3-D, got " + x->Describe());
  dm.seq = x->dim(dm.layout1 ? 1 : 0);
  dm.batch = x->dim(dm.layout1 ? 0 : 1);
  dm.input = x->dim(2);
  dm.hidden = node.attr_int("hidden_size", r->rank() == 3 ? r->dim(2) : -1);
  if (dm.hidden <= 0 || dm.hidden > (1 << 20)) {
    return ctx.Error("hidden_size " + std::to_string(dm.hidden) + " is not valid");
  }
  const int64_t H = dm.hidden, GH = GateCount(kind) * H, D = dm.num_dir;
  TRY_STATUS(CheckShape(ctx, w, {D, GH, dm.input}, "W"));
  TRY_STATUS(CheckShape(ctx, r, {D, GH, H}, "R"));
  TRY_STATUS(CheckShape(ctx, ctx.input(3), {D, 2 * GH}, "B"));
  const std::vector<int64_t> s_shape =
      dm.layout1 ? std::vector<int64_t>{dm.batch, D, H} : std::vector<int64_t>{D, dm.batch, H};
  TRY_STATUS(CheckShape(ctx, ctx.input(5), s_shape, "initial_h"));
  if (kind == RnnKind::kLstm) {
    TRY_STATUS(CheckShape(ctx, ctx.input(6), s_shape, "initial_c"));
    TRY_STATUS(CheckShape(ctx, ctx.input(7), {D, 3 * H}, "P"));
  }
  if (const Tensor* sl = ctx.input(4)) {
    TRY_ASSIGN(p.seq_lens, ReadInts(ctx, *sl, "sequence_lens"));
    if (sl->rank() != 1 || sl->dim(0) != dm.batch) {
      return ctx.Error("sequence_lens must be [" + std::to_string(dm.batch) + "], got " +
                       sl->Describe());
    }
    for (int64_t v : p.seq_lens) {
      if (v < 0 || v > dm.seq) {
        return ctx.Error("sequence_lens value " + std::to_string(v) + " out of range [0, " +
                         std::to_string(dm.seq) + "]");
      }
    }
  }
  p.clip = node.attr_float("clip", 0.f);
  if (node.has_attr("clip") && !(p.clip > 0)) return ctx.Error("clip must be positive");
  p.linear_before_reset = node.attr_int("linear_before_reset", 0) != 0;
  p.input_forget = node.attr_int("input_forget", 0) != 0;
  TRY_ASSIGN(p.acts, ParseActivations(node, kind, dm.num_dir));
  return visit_float_dtype(x->dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("dtype is not supported");
    } else {
      return RunRnnTyped<T>(ctx, p);
    }
  });
}

OpSupport RnnSupports(const SupportQuery& q, RnnKind kind) {
  const DType t = q.input_type(0);
  const std::string op = KindName(kind);
  if (t != DType::kUndefined && !dtype_is_float(t)) {
    return OpSupport::No(op + ": dtype " + dtype_name(t) + " is not supported (float types only)");
  }
  const std::string dir = q.node.attr_string("direction", "forward");
  const int num_dir = dir == "bidirectional" ? 2 : 1;
  auto acts = ParseActivations(q.node, kind, num_dir);
  if (!acts.ok()) return OpSupport::No(acts.status().message());
  return OpSupport::Yes();
}

}  // namespace

void RegisterMiscRnnOps(KernelRegistry& r) {
  for (RnnKind kind : {RnnKind::kRnn, RnnKind::kGru, RnnKind::kLstm}) {
    r.Register(
        KindName(kind), [kind](KernelContext& ctx) { return RunRnn(ctx, kind); },
        [kind](const SupportQuery& q) { return RnnSupports(q, kind); });
  }
}

}  // namespace trinity
