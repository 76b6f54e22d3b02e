// Reduce* ops (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare) and the registration of the whole reduction
// family (softmax, norms, losses, Einsum and Det live in ops_reduction_*.cc).
//
// A reduction is planned once per call: size-1 dims are dropped and adjacent dims that are both
// reduced or both kept are merged. Two loop shapes then cover every case without per-element
// index arithmetic:
//   A. the innermost merged dim is reduced: each output reduces `run` contiguous elements at
//      every offset of a table of the other reduced positions;
//   B. the innermost merged dim is kept (`inner` contiguous outputs): whole rows of `inner`
//      elements are accumulated into `inner` accumulators, which vectorises.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "backends/cpu/ops_reduction_internal.h"

namespace trinity {
namespace reduction {

OpSupport RequireInputDType(const SupportQuery& q, size_t i, std::initializer_list<DType> allowed) {
  const DType t = q.input_type(i);
  if (t == DType::kUndefined) return OpSupport::Yes();
  for (DType a : allowed) {
    if (a == t) return OpSupport::Yes();
  }
  return OpSupport::No(q.node.op_type + ": input " + std::to_string(i) + " dtype " + dtype_name(t) +
                       " is not supported");
}

Status CheckDType(const KernelContext& ctx, const Tensor& t, const char* what,
                  std::initializer_list<DType> allowed) {
  for (DType a : allowed) {
    if (a == t.dtype()) return Status::Ok();
  }
  return ctx.Unsupported(std::string(what) + " dtype " + dtype_name(t.dtype()) +
                         " is not supported");
}

Result<std::vector<float>> ReadFloats(const KernelContext& ctx, const Tensor& t, const char* what) {
  std::vector<float> out(static_cast<size_t>(t.numel()));
  const bool ok = visit_float_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return false;
    } else {
      const T* p = t.data<T>();
      for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(p[i]);
      return true;
    }
  });
  if (!ok) return ctx.Error(std::string(what) + " must be a float tensor, got " + t.Describe());
  return out;
}

}  // namespace reduction

namespace {

using reduction::CheckDType;
using reduction::RequireInputDType;

// Accumulator type: float for 16-bit floats, the type itself for f32/f64, 64-bit for integers
// (so i8/i32 sums do not overflow before the final cast, like numpy).
template <class T>
using acc_t = std::conditional_t<
    is_half_v<T>, float,
    std::conditional_t<std::is_floating_point_v<T>, T,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>>;

template <class T>
constexpr acc_t<T> LowestOf() {
  if constexpr (std::is_integral_v<T>)
    return std::numeric_limits<T>::lowest();
  else
    return -std::numeric_limits<acc_t<T>>::infinity();
}
template <class T>
constexpr acc_t<T> HighestOf() {
  if constexpr (std::is_integral_v<T>)
    return std::numeric_limits<T>::max();
  else
    return std::numeric_limits<acc_t<T>>::infinity();
}

template <class C>
C Sqrt(C v) {
  if constexpr (std::is_floating_point_v<C>)
    return std::sqrt(v);
  else
    return static_cast<C>(std::sqrt(static_cast<double>(v)));
}
template <class C>
C Abs(C v) {
  if constexpr (std::is_unsigned_v<C>)
    return v;
  else
    return v < 0 ? -v : v;
}

// Each op: Init, Step(acc, x, aux), Merge (combines partial accumulators) and Fin(acc, count,
// aux). aux is the per-output max for ReduceLogSumExp and unused otherwise.
template <class T>
struct SumOp {
  using C = acc_t<T>;
  static C Init() { return C(0); }
  static C Step(C a, C x, C) { return a + x; }
  static C Merge(C a, C b) { return a + b; }
  static C Fin(C a, int64_t, C) { return a; }
};
template <class T>
struct MeanOp : SumOp<T> {
  using C = acc_t<T>;
  static C Fin(C a, int64_t n, C) {
    if constexpr (std::is_integral_v<C>)
      return n == 0 ? C(0) : a / static_cast<C>(n);
    else
      return a / static_cast<C>(n);  // 0/0 = NaN for an empty reduction, as numpy
  }
};
template <class T>
struct SumSquareOp : SumOp<T> {
  using C = acc_t<T>;
  static C Step(C a, C x, C) { return a + x * x; }
};
template <class T>
struct L1Op : SumOp<T> {
  using C = acc_t<T>;
  static C Step(C a, C x, C) { return a + Abs(x); }
};
template <class T>
struct L2Op : SumSquareOp<T> {
  using C = acc_t<T>;
  static C Fin(C a, int64_t, C) { return Sqrt(a); }
};
template <class T>
struct LogSumOp : SumOp<T> {
  using C = acc_t<T>;
  static C Fin(C a, int64_t, C) { return std::log(a); }
};
template <class T>
struct ProdOp {
  using C = acc_t<T>;
  static C Init() { return C(1); }
  static C Step(C a, C x, C) { return a * x; }
  static C Merge(C a, C b) { return a * b; }
  static C Fin(C a, int64_t, C) { return a; }
};
// Max/Min propagate NaN like numpy.
template <class T>
struct MaxOp {
  using C = acc_t<T>;
  static C Init() { return LowestOf<T>(); }
  static C Step(C a, C x, C) { return (x > a || x != x) ? x : a; }
  static C Merge(C a, C b) { return Step(a, b, a); }
  static C Fin(C a, int64_t, C) { return a; }
};
template <class T>
struct MinOp {
  using C = acc_t<T>;
  static C Init() { return HighestOf<T>(); }
  static C Step(C a, C x, C) { return (x < a || x != x) ? x : a; }
  static C Merge(C a, C b) { return Step(a, b, a); }
  static C Fin(C a, int64_t, C) { return a; }
};
// Second pass of ReduceLogSumExp: aux is the max, so every exp argument is <= 0.
template <class T>
struct SumExpOp : SumOp<T> {
  using C = acc_t<T>;
  static C Step(C a, C x, C m) { return a + reduction::ExpNonPos<C>(x - m); }
  static C Fin(C a, int64_t, C m) {
    if (!std::isfinite(m)) return m;  // all -inf gives -inf; any +inf or NaN dominates
    return m + std::log(a);
  }
};

struct ReducePlan {
  std::vector<int64_t> out_shape;    // the output's shape (keepdims applied)
  std::vector<int64_t> base;         // input offset of each output group
  std::vector<int64_t> red_offsets;  // offsets of the reduced positions (besides `run`)
  int64_t run = 1;                   // case A: contiguous reduced elements per table entry
  int64_t inner = 1;                 // case B: contiguous outputs per group (1 in case A)
  int64_t count = 1;                 // reduced elements per output
};

// Enumerates every offset of a set of (size, stride) dims, row-major.
std::vector<int64_t> EnumerateOffsets(const std::vector<std::pair<int64_t, int64_t>>& dims) {
  int64_t total = 1;
  for (auto [s, _] : dims) total *= s;
  std::vector<int64_t> out(static_cast<size_t>(total));
  std::vector<int64_t> idx(dims.size(), 0);
  int64_t off = 0;
  for (int64_t n = 0; n < total; ++n) {
    out[static_cast<size_t>(n)] = off;
    for (size_t d = dims.size(); d-- > 0;) {
      off += dims[d].second;
      if (++idx[d] < dims[d].first) break;
      off -= dims[d].second * dims[d].first;
      idx[d] = 0;
    }
  }
  return out;
}

ReducePlan MakePlan(const std::vector<int64_t>& shape, const std::vector<bool>& reduced,
                    bool keepdims) {
  ReducePlan p;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!reduced[i])
      p.out_shape.push_back(shape[i]);
    else if (keepdims)
      p.out_shape.push_back(1);
    if (reduced[i]) p.count *= shape[i];
  }
  // Merged segments: (size, reduced), size-1 dims dropped.
  std::vector<std::pair<int64_t, bool>> seg;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!seg.empty() && seg.back().second == reduced[i])
      seg.back().first *= shape[i];
    else
      seg.push_back({shape[i], reduced[i]});
  }
  std::vector<int64_t> stride(seg.size());
  int64_t acc = 1;
  for (size_t i = seg.size(); i-- > 0;) {
    stride[i] = acc;
    acc *= seg[i].first;
  }
  size_t n = seg.size();
  if (n > 0 && seg[n - 1].second)
    p.run = seg[--n].first;
  else if (n > 0)
    p.inner = seg[--n].first;
  std::vector<std::pair<int64_t, int64_t>> kept, red;
  for (size_t i = 0; i < n; ++i) (seg[i].second ? red : kept).push_back({seg[i].first, stride[i]});
  p.base = EnumerateOffsets(kept);
  p.red_offsets = EnumerateOffsets(red);
  return p;
}

// Case A: accumulates elements [b, e) of group g's reduced elements (table entry f / run,
// position f % run) and returns the merged accumulator.
template <class T, class Op>
acc_t<T> PartialRun(const ReducePlan& p, const T* x, int64_t g, int64_t b, int64_t e, acc_t<T> m) {
  using C = acc_t<T>;
  // Eight independent partial accumulators let the compiler vectorise the contiguous run. They
  // are folded into `total` every ~4096 elements: blocked summation keeps float sums accurate.
  C lanes[8];
  for (C& l : lanes) l = Op::Init();
  C total = Op::Init();
  int64_t since_fold = 0;
  for (int64_t f = b; f < e;) {
    const int64_t j0 = f % p.run;
    const int64_t n = std::min<int64_t>({p.run - j0, e - f, 4096});
    const T* s = x + p.base[g] + p.red_offsets[f / p.run] + j0;
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
      for (int l = 0; l < 8; ++l) lanes[l] = Op::Step(lanes[l], to_compute(s[j + l]), m);
    }
    for (; j < n; ++j) lanes[0] = Op::Step(lanes[0], to_compute(s[j]), m);
    f += n;
    since_fold += n;
    if (since_fold >= 4096) {
      for (C& l : lanes) total = Op::Merge(total, l), l = Op::Init();
      since_fold = 0;
    }
  }
  for (C& l : lanes) total = Op::Merge(total, l);
  return total;
}

// out[g*inner + k] = Fin(reduce over the plan's positions); aux may be null.
template <class T, class Op>
void RunPlan(const ReducePlan& p, const T* x, T* out, const acc_t<T>* aux, ThreadPool& pool) {
  using C = acc_t<T>;
  const int64_t groups = static_cast<int64_t>(p.base.size());
  const int64_t work = std::max<int64_t>(1, p.count * p.inner);
  const int64_t grain = std::max<int64_t>(1, 32768 / work);
  if (p.inner == 1) {
    const int64_t flat = static_cast<int64_t>(p.red_offsets.size()) * p.run;
    // Few outputs over many elements (e.g. reduce-all): split each output's elements across
    // threads and merge the partial accumulators.
    if (groups < pool.num_threads() && flat >= (int64_t{1} << 16)) {
      const int64_t chunks = std::min<int64_t>(flat / 8192, pool.num_threads() * 4);
      std::vector<C> parts(static_cast<size_t>(chunks));
      for (int64_t g = 0; g < groups; ++g) {
        const C m = aux ? aux[g] : C(0);
        pool.ParallelFor(chunks, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) {
            parts[c] = PartialRun<T, Op>(p, x, g, flat * c / chunks, flat * (c + 1) / chunks, m);
          }
        });
        C a = parts[0];
        for (int64_t c = 1; c < chunks; ++c) a = Op::Merge(a, parts[c]);
        out[g] = from_compute<T>(Op::Fin(a, p.count, m));
      }
      return;
    }
    pool.ParallelFor(groups, grain, [&](int64_t b, int64_t e) {
      for (int64_t g = b; g < e; ++g) {
        const C m = aux ? aux[g] : C(0);
        out[g] = from_compute<T>(Op::Fin(PartialRun<T, Op>(p, x, g, 0, flat, m), p.count, m));
      }
    });
    return;
  }
  pool.ParallelFor(groups, grain, [&](int64_t b, int64_t e) {
    std::vector<C> acc(static_cast<size_t>(p.inner));
    std::vector<C> zeros(static_cast<size_t>(p.inner), C(0));
    for (int64_t g = b; g < e; ++g) {
      const C* m = aux ? aux + g * p.inner : zeros.data();
      std::fill(acc.begin(), acc.end(), Op::Init());
      for (int64_t r : p.red_offsets) {
        const T* s = x + p.base[g] + r;
        for (int64_t k = 0; k < p.inner; ++k) acc[k] = Op::Step(acc[k], to_compute(s[k]), m[k]);
      }
      T* o = out + g * p.inner;
      for (int64_t k = 0; k < p.inner; ++k) o[k] = from_compute<T>(Op::Fin(acc[k], p.count, m[k]));
    }
  });
}

enum class ReduceKind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

bool IsFloatOnly(ReduceKind k) { return k == ReduceKind::kLogSum || k == ReduceKind::kLogSumExp; }

// The opset from which the op takes `axes` as input 1 instead of an attribute.
int AxesInputOpset(ReduceKind k) { return k == ReduceKind::kSum ? 13 : 18; }

template <class T>
void Dispatch(ReduceKind k, const ReducePlan& p, const T* x, T* out, ThreadPool& pool) {
  using C = acc_t<T>;
  switch (k) {
    case ReduceKind::kSum:
      return RunPlan<T, SumOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kMean:
      return RunPlan<T, MeanOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kMax:
      return RunPlan<T, MaxOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kMin:
      return RunPlan<T, MinOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kProd:
      return RunPlan<T, ProdOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kL1:
      return RunPlan<T, L1Op<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kL2:
      return RunPlan<T, L2Op<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kSumSquare:
      return RunPlan<T, SumSquareOp<T>>(p, x, out, nullptr, pool);
    case ReduceKind::kLogSum:
      if constexpr (std::is_floating_point_v<C>) RunPlan<T, LogSumOp<T>>(p, x, out, nullptr, pool);
      return;
    case ReduceKind::kLogSumExp:
      if constexpr (std::is_floating_point_v<C>) {
        // The max per output, kept in the accumulator type, then sum(exp(x - max)).
        std::vector<T> mx_t(static_cast<size_t>(p.base.size() * p.inner));
        RunPlan<T, MaxOp<T>>(p, x, mx_t.data(), nullptr, pool);
        std::vector<C> mx(mx_t.size());
        for (size_t i = 0; i < mx.size(); ++i) mx[i] = to_compute(mx_t[i]);
        RunPlan<T, SumExpOp<T>>(p, x, out, mx.data(), pool);
      }
      return;
  }
}

// Resolves the axes (attribute or input 1), returning an empty vector for "no axes given".
Result<std::vector<int64_t>> ReadAxes(const KernelContext& ctx, ReduceKind k) {
  if (ctx.opset() >= AxesInputOpset(k)) {
    if (!ctx.has_input(1)) return std::vector<int64_t>{};
    return ReadInts(ctx, *ctx.input(1), "axes");
  }
  return ctx.node().attr_ints("axes");
}

Status ReduceKernel(KernelContext& ctx, ReduceKind k) {
  const Tensor* xp = ctx.input(0);
  if (xp == nullptr) return ctx.Error("missing input 0 (data)");
  const Tensor& x = *xp;
  TRY_ASSIGN(std::vector<int64_t> axes, ReadAxes(ctx, k));
  const bool keepdims = ctx.node().attr_int("keepdims", 1) != 0;
  const bool noop = ctx.node().attr_int("noop_with_empty_axes", 0) != 0;
  if (axes.empty() && noop) {
    ctx.set_output(0, x.Clone());
    return Status::Ok();
  }
  // A scalar reduces as a one-element vector whose output has rank 0.
  std::vector<int64_t> shape = x.shape();
  const bool scalar = shape.empty();
  if (scalar) shape = {1};
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), axes.empty());
  for (int64_t a : axes) {
    TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, a, scalar ? 0 : rank));
    reduced[static_cast<size_t>(ax)] = true;
  }
  ReducePlan plan = MakePlan(shape, reduced, keepdims);
  if (scalar) plan.out_shape.clear();
  Tensor out = Tensor::Empty(x.dtype(), plan.out_shape);
  Status st = visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      if (IsFloatOnly(k) && !std::is_floating_point_v<acc_t<T>>) {
        return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) +
                               " is not supported (float types only)");
      }
      if (out.numel() > 0) Dispatch<T>(k, plan, x.data<T>(), out.data<T>(), ctx.pool());
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

OpSupport ReduceSupport(const SupportQuery& q, ReduceKind k) {
  if (IsFloatOnly(k)) return RequireInputDType(q, 0, reduction::kFloatTypes);
  return RequireInputDType(
      q, 0,
      {DType::kF32, DType::kF64, DType::kF16, DType::kBF16, DType::kI8, DType::kU8, DType::kI16,
       DType::kU16, DType::kI32, DType::kU32, DType::kI64, DType::kU64});
}

}  // namespace

void RegisterReductionOps(KernelRegistry& r) {
  const std::pair<const char*, ReduceKind> kReduces[] = {
      {"ReduceSum", ReduceKind::kSum},
      {"ReduceMean", ReduceKind::kMean},
      {"ReduceMax", ReduceKind::kMax},
      {"ReduceMin", ReduceKind::kMin},
      {"ReduceProd", ReduceKind::kProd},
      {"ReduceL1", ReduceKind::kL1},
      {"ReduceL2", ReduceKind::kL2},
      {"ReduceLogSum", ReduceKind::kLogSum},
      {"ReduceLogSumExp", ReduceKind::kLogSumExp},
      {"ReduceSumSquare", ReduceKind::kSumSquare},
  };
  for (const auto& [name, kind] : kReduces) {
    const ReduceKind k = kind;
    r.Register(
        name, [k](KernelContext& ctx) { return ReduceKernel(ctx, k); },
        [k](const SupportQuery& q) { return ReduceSupport(q, k); });
  }
  reduction::RegisterSoftmaxOps(r);
  reduction::RegisterNormOps(r);
  reduction::RegisterEinsumOps(r);
}

}  // namespace trinity
