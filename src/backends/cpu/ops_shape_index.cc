// Tensor-manipulation ops, part 3: indexing (Gather, GatherElements, GatherND, Scatter,
// ScatterElements, ScatterND, OneHot, NonZero, Compress, ReverseSequence). Every index read
// from a tensor is range-checked before use; bad indices are errors naming the value.
#include <algorithm>
#include <cmath>

#include "backends/cpu/kernel.h"
#include "backends/cpu/ops_shape_util.h"

namespace trinity::shape_ops {
namespace {

Status RequireInput(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor* t = ctx.input(i);
  if (t == nullptr || !t->defined()) return ctx.Error(std::string("missing input ") + what);
  return Status::Ok();
}

// Reads an index tensor (i32 or i64, any rank) into int64 values.
Result<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, const Tensor& t) {
  return ReadInts(ctx, t, "indices");
}

// Normalises index v against dim n (negative counts from the end), or fails naming it.
inline Status FixIndex(const KernelContext& ctx, int64_t& v, int64_t n) {
  if (v < -n || v >= n) {
    return ctx.Error("indices value " + Num(v) + " out of range [" + Num(-n) + ", " + Num(n) + ")");
  }
  if (v < 0) v += n;
  return Status::Ok();
}

OpSupport IndicesSupport(const SupportQuery& q, size_t i) {
  const DType t = q.input_type(i);
  if (t != DType::kUndefined && t != DType::kI32 && t != DType::kI64) {
    return OpSupport::No(q.node.op_type + ": indices of dtype " + dtype_name(t) +
                         " are not supported");
  }
  return OpSupport::Yes();
}

// ---- Gather ------------------------------------------------------------------------------

Status GatherKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  TRY_STATUS(RequireInput(ctx, 1, "indices"));
  const Tensor &x = *ctx.input(0), &it = *ctx.input(1);
  if (x.rank() == 0) return ctx.Error("data must have rank >= 1");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), x.rank()));
  TRY_ASSIGN(std::vector<int64_t> idx, ReadIndices(ctx, it));
  const int64_t D = x.dim(axis);
  for (int64_t& v : idx) TRY_STATUS(FixIndex(ctx, v, D));
  std::vector<int64_t> shape(x.shape().begin(), x.shape().begin() + axis);
  shape.insert(shape.end(), it.shape().begin(), it.shape().end());
  shape.insert(shape.end(), x.shape().begin() + axis + 1, x.shape().end());
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
  const int64_t outer = Prod(x.shape(), 0, axis);
  const int64_t inner = Prod(x.shape(), axis + 1, x.rank());
  const int64_t n = static_cast<int64_t>(idx.size());
  const int64_t total = outer * n;
  if (out.numel() == 0) {
    ctx.set_output(0, std::move(out));
    return Status::Ok();
  }
  visit_size(dtype_size(x.dtype()), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = x.data<U>();
    U* dst = out.data<U>();
    const int64_t grain = std::max<int64_t>(1, 16384 / inner);
    ctx.pool().ParallelFor(total, grain, [&](int64_t b, int64_t e) {
      int64_t o = b / n, j = b % n;
      for (int64_t k = b; k < e; ++k) {
        const U* s = src + (o * D + idx[j]) * inner;
        if (inner == 1)
          dst[k] = *s;
        else
          std::memcpy(dst + k * inner, s, static_cast<size_t>(inner) * sizeof(U));
        if (++j == n) {
          j = 0;
          ++o;
        }
      }
    });
  });
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- GatherElements / ScatterElements ----------------------------------------------------

// Visits every position of `ishape` with its source offset (data strides, axis excluded).
template <class F>
void ForEachPosition(const std::vector<int64_t>& ishape, const std::vector<int64_t>& dstrides,
                     int64_t axis, F&& f) {
  const size_t r = ishape.size();
  const int64_t n = shape_numel(ishape);
  std::vector<int64_t> pos(r, 0);
  int64_t base = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(k, base);
    for (size_t d = r; d-- > 0;) {
      const int64_t s = static_cast<int64_t>(d) == axis ? 0 : dstrides[d];
      base += s;
      if (++pos[d] < ishape[d]) break;
      base -= pos[d] * s;
      pos[d] = 0;
    }
  }
}

// Checks that indices fit data for the *Elements ops and normalises the index values.
Status CheckElementsIndices(const KernelContext& ctx, const Tensor& x, const Tensor& it,
                            int64_t axis, std::vector<int64_t>& idx) {
  if (it.rank() != x.rank()) {
    return ctx.Error("indices " + it.Describe() + " must have the rank of data " + x.Describe());
  }
  for (size_t d = 0; d < x.rank(); ++d) {
    if (static_cast<int64_t>(d) != axis && it.dim(d) > x.dim(d)) {
      return ctx.Error("indices " + it.Describe() + " exceed data " + x.Describe() + " on axis " +
                       Num(d));
    }
  }
  for (int64_t& v : idx) TRY_STATUS(FixIndex(ctx, v, x.dim(axis)));
  return Status::Ok();
}

Status GatherElementsKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  TRY_STATUS(RequireInput(ctx, 1, "indices"));
  const Tensor &x = *ctx.input(0), &it = *ctx.input(1);
  if (x.rank() == 0) return ctx.Error("data must have rank >= 1");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), x.rank()));
  TRY_ASSIGN(std::vector<int64_t> idx, ReadIndices(ctx, it));
  TRY_STATUS(CheckElementsIndices(ctx, x, it, axis, idx));
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), it.shape()));
  const std::vector<int64_t> ds = ContiguousStrides(x.shape());
  visit_size(dtype_size(x.dtype()), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = x.data<U>();
    U* dst = out.data<U>();
    const int64_t sa = ds[axis];
    ForEachPosition(it.shape(), ds, axis,
                    [&](int64_t k, int64_t base) { dst[k] = src[base + idx[k] * sa]; });
  });
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

bool ParseReduction(const std::string& s, Reduction* r) {
  if (s == "none")
    *r = Reduction::kNone;
  else if (s == "add")
    *r = Reduction::kAdd;
  else if (s == "mul")
    *r = Reduction::kMul;
  else if (s == "max")
    *r = Reduction::kMax;
  else if (s == "min")
    *r = Reduction::kMin;
  else
    return false;
  return true;
}

OpSupport ScatterSupports(const SupportQuery& q) {
  Reduction red;
  const std::string s = q.node.attr_string("reduction", "none");
  if (!ParseReduction(s, &red)) {
    return OpSupport::No(q.node.op_type + ": reduction '" + s + "' is not supported");
  }
  if (red != Reduction::kNone && q.input_type(0) == DType::kBool) {
    return OpSupport::No(q.node.op_type + ": reduction '" + s + "' on bool is not supported");
  }
  return IndicesSupport(q, 1);
}

template <class T>
inline void Reduce(T& d, T u, Reduction r) {
  if constexpr (std::is_same_v<T, bool>) {
    d = u;
  } else {
    using C = compute_t<T>;
    const C a = to_compute(d), b = to_compute(u);
    C v = b;
    switch (r) {
      case Reduction::kNone:
        v = b;
        break;
      case Reduction::kAdd:
        v = WrapAdd(a, b);
        break;
      case Reduction::kMul:
        v = WrapMul(a, b);
        break;
      case Reduction::kMax:
        v = std::max(a, b);
        break;
      case Reduction::kMin:
        v = std::min(a, b);
        break;
    }
    d = from_compute<T>(v);
  }
}

Status ScatterElementsKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 3; ++i) TRY_STATUS(RequireInput(ctx, i, "data/indices/updates"));
  const Tensor &x = *ctx.input(0), &it = *ctx.input(1), &up = *ctx.input(2);
  if (x.rank() == 0) return ctx.Error("data must have rank >= 1");
  Reduction red = Reduction::kNone;
  const std::string rs = ctx.node().attr_string("reduction", "none");
  if (!ParseReduction(rs, &red)) return ctx.Unsupported("reduction '" + rs + "' is not supported");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), x.rank()));
  if (up.shape() != it.shape() || up.dtype() != x.dtype()) {
    return ctx.Error("updates " + up.Describe() + " must match indices " + it.Describe() +
                     " in shape and data " + x.Describe() + " in dtype");
  }
  TRY_ASSIGN(std::vector<int64_t> idx, ReadIndices(ctx, it));
  TRY_STATUS(CheckElementsIndices(ctx, x, it, axis, idx));
  Tensor out = x.Clone();
  const std::vector<int64_t> ds = ContiguousStrides(x.shape());
  return visit_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("dtype is not supported");
    } else {
      if (std::is_same_v<T, bool> && red != Reduction::kNone) {
        return ctx.Unsupported("reduction '" + rs + "' on bool is not supported");
      }
      const T* u = up.data<T>();
      T* dst = out.data<T>();
      const int64_t sa = ds[axis];
      ForEachPosition(it.shape(), ds, axis, [&](int64_t k, int64_t base) {
        Reduce<T>(dst[base + idx[k] * sa], u[k], red);
      });
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// ---- GatherND / ScatterND ----------------------------------------------------------------

Status GatherNDKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  TRY_STATUS(RequireInput(ctx, 1, "indices"));
  const Tensor &x = *ctx.input(0), &it = *ctx.input(1);
  const int64_t r = static_cast<int64_t>(x.rank()), q = static_cast<int64_t>(it.rank());
  const int64_t b = ctx.opset() >= 12 ? ctx.node().attr_int("batch_dims", 0) : 0;
  if (r < 1 || q < 1) return ctx.Error("data and indices must have rank >= 1");
  if (b < 0 || b >= std::min(r, q)) {
    return ctx.Error("batch_dims " + Num(b) + " must be in [0, " + Num(std::min(r, q)) + ")");
  }
  for (int64_t d = 0; d < b; ++d) {
    if (x.dim(d) != it.dim(d)) {
      return ctx.Error("batch dims of data " + x.Describe() + " and indices " + it.Describe() +
                       " differ");
    }
  }
  const int64_t k = it.dim(q - 1);
  if (k < 1 || k > r - b) {
    return ctx.Error("last dim of indices " + it.Describe() + " must be in [1, " + Num(r - b) +
                     "]");
  }
  TRY_ASSIGN(std::vector<int64_t> idx, ReadIndices(ctx, it));
  std::vector<int64_t> shape(it.shape().begin(), it.shape().end() - 1);
  shape.insert(shape.end(), x.shape().begin() + b + k, x.shape().end());
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
  const std::vector<int64_t> ds = ContiguousStrides(x.shape());
  const int64_t batches = Prod(x.shape(), 0, b);
  const int64_t per_batch = Prod(it.shape(), b, q - 1);
  const int64_t slice = Prod(x.shape(), b + k, x.rank());
  const int64_t batch_stride = Prod(x.shape(), b, x.rank());
  const size_t esz = dtype_size(x.dtype());
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (int64_t bi = 0; bi < batches; ++bi) {
    for (int64_t j = 0; j < per_batch; ++j) {
      const int64_t t = bi * per_batch + j;
      int64_t off = bi * batch_stride;
      for (int64_t m = 0; m < k; ++m) {
        int64_t v = idx[t * k + m];
        TRY_STATUS(FixIndex(ctx, v, x.dim(b + m)));
        off += v * ds[b + m];
      }
      if (slice > 0) {
        std::memcpy(dst + t * slice * esz, src + off * esz, static_cast<size_t>(slice) * esz);
      }
    }
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

Status ScatterNDKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 3; ++i) TRY_STATUS(RequireInput(ctx, i, "data/indices/updates"));
  const Tensor &x = *ctx.input(0), &it = *ctx.input(1), &up = *ctx.input(2);
  Reduction red = Reduction::kNone;
  const std::string rs = ctx.node().attr_string("reduction", "none");
  if (!ParseReduction(rs, &red)) return ctx.Unsupported("reduction '" + rs + "' is not supported");
  const int64_t r = static_cast<int64_t>(x.rank()), q = static_cast<int64_t>(it.rank());
  if (r < 1 || q < 1) return ctx.Error("data and indices must have rank >= 1");
  const int64_t k = it.dim(q - 1);
  if (k > r) return ctx.Error("last dim of indices " + it.Describe() + " exceeds data rank");
  std::vector<int64_t> ushape(it.shape().begin(), it.shape().end() - 1);
  ushape.insert(ushape.end(), x.shape().begin() + k, x.shape().end());
  if (up.shape() != ushape || up.dtype() != x.dtype()) {
    return ctx.Error("updates " + up.Describe() + " must be " + dtype_name(x.dtype()) +
                     shape_to_string(ushape));
  }
  TRY_ASSIGN(std::vector<int64_t> idx, ReadIndices(ctx, it));
  const std::vector<int64_t> ds = ContiguousStrides(x.shape());
  const int64_t n = Prod(it.shape(), 0, q - 1);  // number of index tuples
  const int64_t slice = Prod(x.shape(), k, x.rank());
  std::vector<int64_t> offs(n);
  for (int64_t t = 0; t < n; ++t) {
    int64_t off = 0;
    for (int64_t m = 0; m < k; ++m) {
      int64_t v = idx[t * k + m];
      TRY_STATUS(FixIndex(ctx, v, x.dim(m)));
      off += v * ds[m];
    }
    offs[t] = off;
  }
  Tensor out = x.Clone();
  return visit_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("dtype is not supported");
    } else {
      if (std::is_same_v<T, bool> && red != Reduction::kNone) {
        return ctx.Unsupported("reduction '" + rs + "' on bool is not supported");
      }
      const T* u = up.data<T>();
      T* dst = out.data<T>();
      for (int64_t t = 0; t < n; ++t) {
        T* d = dst + offs[t];
        const T* s = u + t * slice;
        if (red == Reduction::kNone) {
          std::copy(s, s + slice, d);
        } else {
          for (int64_t j = 0; j < slice; ++j) Reduce<T>(d[j], s[j], red);
        }
      }
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// ---- OneHot ------------------------------------------------------------------------------

Status OneHotKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 3; ++i) TRY_STATUS(RequireInput(ctx, i, "indices/depth/values"));
  const Tensor &it = *ctx.input(0), &dt = *ctx.input(1), &vals = *ctx.input(2);
  if (dt.numel() != 1 || it.dtype() == DType::kBool || dt.dtype() == DType::kBool ||
      it.dtype() == DType::kUndefined || dt.dtype() == DType::kUndefined) {
    return ctx.Error("depth must be a numeric scalar and indices numeric");
  }
  if (vals.numel() != 2) return ctx.Error("values must have two elements, got " + vals.Describe());
  const double depth_d = ReadAsDouble(dt, 0);
  if (!(depth_d >= 1 && depth_d < 1e12)) return ctx.Error("depth must be positive");
  const int64_t depth = static_cast<int64_t>(depth_d);
  const int64_t r = static_cast<int64_t>(it.rank());
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", -1), r + 1));
  std::vector<int64_t> shape = it.shape();
  shape.insert(shape.begin() + axis, depth);
  TRY_ASSIGN(Tensor out, NewTensor(ctx, vals.dtype(), shape));
  const size_t esz = dtype_size(vals.dtype());
  const char* off_v = static_cast<const char*>(vals.raw_data());
  const char* on_v = off_v + esz;
  if (out.numel() > 0) {
    // Fill with the off value, then set one element per index.
    visit_size(esz, [&](auto tag) {
      using U = typename decltype(tag)::type;
      U off, on;
      std::memcpy(&off, off_v, sizeof(U));
      std::memcpy(&on, on_v, sizeof(U));
      U* o = out.data<U>();
      std::fill(o, o + out.numel(), off);
      const int64_t outer = Prod(it.shape(), 0, axis);
      const int64_t inner = Prod(it.shape(), axis, it.rank());
      for (int64_t a = 0; a < outer; ++a) {
        for (int64_t c = 0; c < inner; ++c) {
          const double dv = ReadAsDouble(it, a * inner + c);
          if (!(dv > -1e18 && dv < 1e18)) continue;
          int64_t v = static_cast<int64_t>(dv);
          if (v < 0) v += depth;
          if (v < 0 || v >= depth) continue;  // out-of-range indices give an all-off row
          o[(a * depth + v) * inner + c] = on;
        }
      }
    });
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- NonZero -----------------------------------------------------------------------------

Status NonZeroKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "X"));
  const Tensor& x = *ctx.input(0);
  std::vector<int64_t> hits;
  Status st = visit_dtype(x.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported("dtype is not supported");
    } else {
      const T* p = x.data<T>();
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (to_compute(p[i]) != compute_t<T>(0)) hits.push_back(i);
      }
      return Status::Ok();
    }
  });
  TRY_STATUS(st);
  // A scalar is treated as a one-element vector, as ONNX Runtime does.
  const std::vector<int64_t> shape = x.rank() == 0 ? std::vector<int64_t>{1} : x.shape();
  const int64_t r = static_cast<int64_t>(shape.size()), n = static_cast<int64_t>(hits.size());
  TRY_ASSIGN(Tensor out, NewTensor(ctx, DType::kI64, {r, n}));
  int64_t* o = out.data<int64_t>();
  for (int64_t j = 0; j < n; ++j) {
    int64_t rem = hits[j];
    for (int64_t d = r; d-- > 0;) {
      o[d * n + j] = rem % shape[d];
      rem /= shape[d];
    }
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Compress ----------------------------------------------------------------------------

Status CompressKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  TRY_STATUS(RequireInput(ctx, 1, "condition"));
  const Tensor &x0 = *ctx.input(0), &cond = *ctx.input(1);
  if (cond.dtype() != DType::kBool || cond.rank() != 1) {
    return ctx.Error("condition must be a 1-D bool tensor, got " + cond.Describe());
  }
  const bool has_axis = ctx.node().has_attr("axis");
  const Tensor x = has_axis ? x0 : x0.Reshaped({x0.numel()});
  if (x.rank() == 0) return ctx.Error("input must have rank >= 1 when axis is given");
  TRY_ASSIGN(int64_t axis,
             NormalizeAxis(ctx, has_axis ? ctx.node().attr_int("axis", 0) : 0, x.rank()));
  const int64_t D = x.dim(axis);
  std::vector<int64_t> keep;
  const bool* c = cond.data<bool>();
  for (int64_t i = 0; i < cond.numel(); ++i) {
    if (!c[i]) continue;
    if (i >= D) {
      return ctx.Error("condition selects index " + Num(i) + " but axis " + Num(axis) + " of " +
                       x.Describe() + " has " + Num(D));
    }
    keep.push_back(i);
  }
  std::vector<int64_t> shape = x.shape();
  shape[axis] = static_cast<int64_t>(keep.size());
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
  const size_t esz = dtype_size(x.dtype());
  const int64_t outer = Prod(x.shape(), 0, axis), inner = Prod(x.shape(), axis + 1, x.rank());
  const size_t block = static_cast<size_t>(inner) * esz;
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  if (block > 0) {
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t j = 0; j < keep.size(); ++j) {
        std::memcpy(dst + (o * keep.size() + j) * block, src + (o * D + keep[j]) * block, block);
      }
    }
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- ReverseSequence ---------------------------------------------------------------------

Status ReverseSequenceKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  TRY_STATUS(RequireInput(ctx, 1, "sequence_lens"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() < 2) return ctx.Error("input must have rank >= 2, got " + x.Describe());
  const int64_t ta = ctx.node().attr_int("time_axis", 0);
  const int64_t ba = ctx.node().attr_int("batch_axis", 1);
  if (!((ta == 0 && ba == 1) || (ta == 1 && ba == 0))) {
    return ctx.Error("time_axis and batch_axis must be 0 and 1 in some order, got " + Num(ta) +
                     " and " + Num(ba));
  }
  TRY_ASSIGN(std::vector<int64_t> lens, ReadIntsInput(ctx, 1, "sequence_lens"));
  const int64_t T = x.dim(ta), B = x.dim(ba);
  if (static_cast<int64_t>(lens.size()) != B) {
    return ctx.Error("sequence_lens has " + Num(lens.size()) + " values for batch size " + Num(B));
  }
  for (int64_t l : lens) {
    if (l < 0 || l > T) {
      return ctx.Error("sequence_lens value " + Num(l) + " out of range [0, " + Num(T) + "]");
    }
  }
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), x.shape()));
  const size_t esz = dtype_size(x.dtype());
  const int64_t inner = Prod(x.shape(), 2, x.rank());
  const size_t block = static_cast<size_t>(inner) * esz;
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  auto at = [&](int64_t t, int64_t b) {
    return static_cast<size_t>(ta == 0 ? t * B + b : b * T + t) * block;
  };
  if (block > 0) {
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t t = 0; t < T; ++t) {
        const int64_t s = t < lens[b] ? lens[b] - 1 - t : t;
        std::memcpy(dst + at(t, b), src + at(s, b), block);
      }
    }
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterIndexOps(KernelRegistry& r) {
  auto idx1 = [](const SupportQuery& q) { return IndicesSupport(q, 1); };
  r.Register("Gather", GatherKernel, idx1);
  r.Register("GatherElements", GatherElementsKernel, idx1);
  r.Register("GatherND", GatherNDKernel, idx1);
  r.Register("Scatter", ScatterElementsKernel, ScatterSupports);
  r.Register("ScatterElements", ScatterElementsKernel, ScatterSupports);
  r.Register("ScatterND", ScatterNDKernel, ScatterSupports);
  r.Register("OneHot", OneHotKernel, [](const SupportQuery& q) {
    OpSupport s = RequireNumeric(q, 0, "indices");
    return s.supported ? RequireNumeric(q, 1, "depth") : s;
  });
  r.Register("NonZero", NonZeroKernel);
  r.Register("Compress", CompressKernel);
  r.Register("ReverseSequence", ReverseSequenceKernel);
}

}  // namespace trinity::shape_ops
