// Tensor-manipulation ops, part 4: ops that compare values (TopK, ArgMax, ArgMin, Unique) and
// CumSum. Comparisons are NaN-safe (NaN orders above every number) so sorting never sees an
// inconsistent order, whatever the input holds.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "backends/cpu/kernel.h"
#include "backends/cpu/ops_shape_util.h"

namespace trinity::shape_ops {
namespace {

Status RequireInput(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor* t = ctx.input(i);
  if (t == nullptr || !t->defined()) return ctx.Error(std::string("missing input ") + what);
  return Status::Ok();
}

// A strict weak order on numbers with NaN above +inf.
template <class C>
inline bool Less(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    return !std::isnan(a) && (std::isnan(b) || a < b);
  } else {
    return a < b;
  }
}

OpSupport NumericInput0(const SupportQuery& q) { return RequireNumeric(q, 0, "input"); }

// ---- TopK --------------------------------------------------------------------------------

Status TopKKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "X"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() == 0) return ctx.Error("X must have rank >= 1");
  int64_t k;
  if (ctx.opset() >= 10) {
    TRY_STATUS(RequireInput(ctx, 1, "K"));
    TRY_ASSIGN(k, ReadIntScalar(ctx, *ctx.input(1), "K"));
  } else {
    k = ctx.node().attr_int("k", -1);
  }
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", -1), x.rank()));
  const int64_t D = x.dim(axis);
  if (k < 0 || k > D) {
    return ctx.Error("K " + Num(k) + " out of range [0, " + Num(D) + "] for axis " + Num(axis) +
                     " of " + x.Describe());
  }
  const bool largest = ctx.opset() < 11 || ctx.node().attr_int("largest", 1) != 0;
  std::vector<int64_t> shape = x.shape();
  shape[axis] = k;
  TRY_ASSIGN(Tensor vals, NewTensor(ctx, x.dtype(), shape));
  TRY_ASSIGN(Tensor inds, NewTensor(ctx, DType::kI64, shape));
  const int64_t outer = Prod(x.shape(), 0, axis), inner = Prod(x.shape(), axis + 1, x.rank());
  Status st = visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      using C = compute_t<T>;
      const T* src = x.data<T>();
      T* ov = vals.data<T>();
      int64_t* oi = inds.data<int64_t>();
      const int64_t lines = outer * inner;
      if (k == 0 || lines == 0) return Status::Ok();
      ctx.pool().ParallelFor(lines, std::max<int64_t>(1, 4096 / D), [&](int64_t b, int64_t e) {
        std::vector<std::pair<C, int64_t>> buf(D);
        for (int64_t l = b; l < e; ++l) {
          const int64_t o = l / inner, c = l % inner;
          const T* s = src + o * D * inner + c;
          for (int64_t i = 0; i < D; ++i) buf[i] = {to_compute(s[i * inner]), i};
          // Ties go to the lower index, so the order is total and results are deterministic.
          auto before = [largest](const std::pair<C, int64_t>& p, const std::pair<C, int64_t>& q) {
            const bool lt = Less(p.first, q.first), gt = Less(q.first, p.first);
            if (lt != gt) return largest ? gt : lt;
            return p.second < q.second;
          };
          std::partial_sort(buf.begin(), buf.begin() + k, buf.end(), before);
          const int64_t base = o * k * inner + c;
          for (int64_t i = 0; i < k; ++i) {
            ov[base + i * inner] = s[buf[i].second * inner];
            oi[base + i * inner] = buf[i].second;
          }
        }
      });
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(vals));
  ctx.set_output(1, std::move(inds));
  return Status::Ok();
}

// ---- ArgMax / ArgMin ---------------------------------------------------------------------

template <bool kMax>
Status ArgKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() == 0) return ctx.Error("data must have rank >= 1");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), x.rank()));
  const bool keepdims = ctx.node().attr_int("keepdims", 1) != 0;
  const bool last = ctx.opset() >= 12 && ctx.node().attr_int("select_last_index", 0) != 0;
  const int64_t D = x.dim(axis);
  if (D == 0) return ctx.Error("cannot take the arg of empty axis " + Num(axis));
  std::vector<int64_t> shape = x.shape();
  if (keepdims)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  TRY_ASSIGN(Tensor out, NewTensor(ctx, DType::kI64, shape));
  const int64_t outer = Prod(x.shape(), 0, axis), inner = Prod(x.shape(), axis + 1, x.rank());
  Status st = visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      using C = compute_t<T>;
      const T* src = x.data<T>();
      int64_t* o = out.data<int64_t>();
      for (int64_t a = 0; a < outer; ++a) {
        for (int64_t c = 0; c < inner; ++c) {
          const T* s = src + a * D * inner + c;
          C best = to_compute(s[0]);
          int64_t bi = 0;
          for (int64_t i = 1; i < D; ++i) {
            const C v = to_compute(s[i * inner]);
            const bool better =
                kMax ? (last ? v >= best : v > best) : (last ? v <= best : v < best);
            if (better) {
              best = v;
              bi = i;
            }
          }
          o[a * inner + c] = bi;
        }
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Unique ------------------------------------------------------------------------------

Status UniqueKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "X"));
  const Tensor& x0 = *ctx.input(0);
  const bool has_axis = ctx.node().has_attr("axis");
  const bool sorted = ctx.node().attr_int("sorted", 1) != 0;
  const Tensor x = has_axis ? x0 : x0.Reshaped({x0.numel()});
  if (x.rank() == 0) return ctx.Error("X must have rank >= 1 when axis is given");
  TRY_ASSIGN(int64_t axis,
             NormalizeAxis(ctx, has_axis ? ctx.node().attr_int("axis", 0) : 0, x.rank()));
  const int64_t D = x.dim(axis);
  const int64_t outer = Prod(x.shape(), 0, axis), inner = Prod(x.shape(), axis + 1, x.rank());
  // Slice i is x[:, i, :]; slices compare lexicographically in (outer, inner) order.
  std::vector<int64_t> order(D);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> group_of(D);  // sorted-group id of each slice
  std::vector<int64_t> first;        // first slice index of each group
  Status st = visit_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      const T* p = x.data<T>();
      auto cmp = [&](int64_t a, int64_t b) -> int {
        for (int64_t o = 0; o < outer; ++o) {
          const T* ra = p + (o * D + a) * inner;
          const T* rb = p + (o * D + b) * inner;
          for (int64_t j = 0; j < inner; ++j) {
            const auto va = to_compute(ra[j]), vb = to_compute(rb[j]);
            if (Less(va, vb)) return -1;
            if (Less(vb, va)) return 1;
          }
        }
        return 0;
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
      for (int64_t i = 0; i < D; ++i) {
        if (i == 0 || cmp(order[i - 1], order[i]) != 0) first.push_back(order[i]);
        group_of[order[i]] = static_cast<int64_t>(first.size()) - 1;
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  const int64_t U = static_cast<int64_t>(first.size());
  // Output position of each sorted group: sorted order, or order of first occurrence.
  std::vector<int64_t> pos(U);
  std::iota(pos.begin(), pos.end(), 0);
  if (!sorted) {
    std::vector<int64_t> g(U);
    std::iota(g.begin(), g.end(), 0);
    std::sort(g.begin(), g.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t i = 0; i < U; ++i) pos[g[i]] = i;
  }
  std::vector<int64_t> y_first(U), counts(U, 0);
  for (int64_t gi = 0; gi < U; ++gi) y_first[pos[gi]] = first[gi];
  for (int64_t i = 0; i < D; ++i) ++counts[pos[group_of[i]]];
  std::vector<int64_t> shape = x.shape();
  shape[axis] = U;
  TRY_ASSIGN(Tensor y, NewTensor(ctx, x.dtype(), shape));
  const size_t block = static_cast<size_t>(inner) * dtype_size(x.dtype());
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(y.raw_data());
  if (block > 0) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t u = 0; u < U; ++u)
        std::memcpy(dst + (o * U + u) * block, src + (o * D + y_first[u]) * block, block);
  }
  TRY_ASSIGN(Tensor ind, NewTensor(ctx, DType::kI64, {U}));
  TRY_ASSIGN(Tensor inv, NewTensor(ctx, DType::kI64, {D}));
  TRY_ASSIGN(Tensor cnt, NewTensor(ctx, DType::kI64, {U}));
  std::copy(y_first.begin(), y_first.end(), ind.data<int64_t>());
  std::copy(counts.begin(), counts.end(), cnt.data<int64_t>());
  for (int64_t i = 0; i < D; ++i) inv.data<int64_t>()[i] = pos[group_of[i]];
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(ind));
  if (ctx.num_outputs() > 2) ctx.set_output(2, std::move(inv));
  if (ctx.num_outputs() > 3) ctx.set_output(3, std::move(cnt));
  return Status::Ok();
}

// ---- CumSum ------------------------------------------------------------------------------

Status CumSumKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "x"));
  TRY_STATUS(RequireInput(ctx, 1, "axis"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() == 0) return ctx.Error("x must have rank >= 1");
  TRY_ASSIGN(int64_t a, ReadIntScalar(ctx, *ctx.input(1), "axis"));
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, a, x.rank()));
  const bool exclusive = ctx.node().attr_int("exclusive", 0) != 0;
  const bool reverse = ctx.node().attr_int("reverse", 0) != 0;
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), x.shape()));
  const int64_t D = x.dim(axis);
  const int64_t outer = Prod(x.shape(), 0, axis), inner = Prod(x.shape(), axis + 1, x.rank());
  Status st = visit_numeric_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T> || std::is_same_v<T, bool>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(x.dtype()) + " is not supported");
    } else {
      using C = compute_t<T>;
      const T* src = x.data<T>();
      T* dst = out.data<T>();
      std::vector<C> acc(inner);
      for (int64_t o = 0; o < outer; ++o) {
        std::fill(acc.begin(), acc.end(), C(0));
        for (int64_t s = 0; s < D; ++s) {
          const int64_t i = reverse ? D - 1 - s : s;
          const T* in = src + (o * D + i) * inner;
          T* op = dst + (o * D + i) * inner;
          for (int64_t j = 0; j < inner; ++j) {
            const C v = to_compute(in[j]);
            if (exclusive) {
              op[j] = from_compute<T>(acc[j]);
              acc[j] = WrapAdd(acc[j], v);
            } else {
              acc[j] = WrapAdd(acc[j], v);
              op[j] = from_compute<T>(acc[j]);
            }
          }
        }
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterSortOps(KernelRegistry& r) {
  r.Register("TopK", TopKKernel, NumericInput0);
  r.Register("ArgMax", ArgKernel<true>, NumericInput0);
  r.Register("ArgMin", ArgKernel<false>, NumericInput0);
  r.Register("Unique", UniqueKernel);
  r.Register("CumSum", CumSumKernel, NumericInput0);
}

}  // namespace trinity::shape_ops
