// Tensor-manipulation ops, part 1: shared helpers and the ops that only reinterpret shapes
// (Identity, Reshape, Flatten, Squeeze, Unsqueeze return views of their input's bytes) or
// create small tensors (Shape, Size, Constant, ConstantOfShape, Range, EyeLike, Trilu).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "backends/cpu/kernel.h"
#include "backends/cpu/ops_shape_util.h"

namespace trinity {
namespace shape_ops {

Result<Tensor> NewTensor(const KernelContext& ctx, DType dtype, const std::vector<int64_t>& shape) {
  auto r = Tensor::Create(dtype, shape);
  if (!r.ok()) {
    return ctx.Error("cannot allocate output " + std::string(dtype_name(dtype)) +
                     shape_to_string(shape) + ": " + r.status().message());
  }
  return std::move(r).value();
}

namespace {

// Copies rows of a coalesced strided view: rows are all dims but the last.
template <class U>
void CopyRows(U* dst, const U* src, const std::vector<int64_t>& shape,
              const std::vector<int64_t>& strides, int64_t row_begin, int64_t row_end) {
  const size_t r = shape.size();
  const int64_t inner = shape[r - 1];
  const int64_t istride = strides[r - 1];
  // Multi-index of row_begin over dims [0, r-1).
  std::vector<int64_t> idx(r, 0);
  int64_t off = 0;
  int64_t rem = row_begin;
  for (size_t d = r - 1; d-- > 0;) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
    off += idx[d] * strides[d];
  }
  U* out = dst + row_begin * inner;
  for (int64_t row = row_begin; row < row_end; ++row) {
    const U* s = src + off;
    if (istride == 1) {
      std::memcpy(out, s, static_cast<size_t>(inner) * sizeof(U));
    } else if (istride == 0) {
      std::fill(out, out + inner, *s);
    } else {
      for (int64_t j = 0; j < inner; ++j) out[j] = s[j * istride];
    }
    out += inner;
    for (size_t d = r - 1; d-- > 0;) {
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= idx[d] * strides[d];
      idx[d] = 0;
    }
  }
}

// dst[b][a][c] = src[b*... + a + c*S] for the last two dims (A, B) where the source is
// transposed (stride 1 on A): a 2-D transpose per batch, done in cache-sized tiles.
template <class U>
void CopyTransposedPairs(U* dst, const U* src, const std::vector<int64_t>& shape,
                         const std::vector<int64_t>& strides, int64_t batch_begin,
                         int64_t batch_end) {
  constexpr int64_t kTile = 32;
  const size_t r = shape.size();
  const int64_t A = shape[r - 2], B = shape[r - 1], S = strides[r - 1];
  for (int64_t bt = batch_begin; bt < batch_end; ++bt) {
    int64_t off = 0, rem = bt;
    for (size_t d = r - 2; d-- > 0;) {
      off += (rem % shape[d]) * strides[d];
      rem /= shape[d];
    }
    const U* s = src + off;
    U* o = dst + bt * A * B;
    for (int64_t a0 = 0; a0 < A; a0 += kTile) {
      const int64_t a1 = std::min(A, a0 + kTile);
      for (int64_t b0 = 0; b0 < B; b0 += kTile) {
        const int64_t b1 = std::min(B, b0 + kTile);
        for (int64_t a = a0; a < a1; ++a) {
          U* orow = o + a * B;
          const U* scol = s + a;
          for (int64_t b = b0; b < b1; ++b) orow[b] = scol[b * S];
        }
      }
    }
  }
}

}  // namespace

void StridedCopy(void* dst, const void* src, std::vector<int64_t> shape,
                 std::vector<int64_t> strides, size_t esz, ThreadPool* pool) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n <= 0) return;
  // Drop size-1 dims and merge dims that are contiguous with each other in the source.
  std::vector<int64_t> cs, st;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!cs.empty() && st.back() == strides[i] * shape[i]) {
      cs.back() *= shape[i];
      st.back() = strides[i];
    } else {
      cs.push_back(shape[i]);
      st.push_back(strides[i]);
    }
  }
  if (cs.empty()) {
    std::memcpy(dst, src, esz);
    return;
  }
  visit_size(esz, [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* d = static_cast<U*>(dst);
    const U* s = static_cast<const U*>(src);
    const size_t r = cs.size();
    if (r >= 2 && st[r - 2] == 1 && st[r - 1] != 1 && st[r - 1] != 0 && cs[r - 2] >= 4) {
      const int64_t batches = n / (cs[r - 2] * cs[r - 1]);
      const int64_t grain = std::max<int64_t>(1, 65536 / (cs[r - 2] * cs[r - 1]));
      auto body = [&](int64_t b, int64_t e) { CopyTransposedPairs<U>(d, s, cs, st, b, e); };
      if (pool && batches > grain)
        pool->ParallelFor(batches, grain, body);
      else
        body(0, batches);
      return;
    }
    const int64_t rows = n / cs[r - 1];
    const int64_t grain = std::max<int64_t>(1, 65536 / cs[r - 1]);
    auto body = [&](int64_t b, int64_t e) { CopyRows<U>(d, s, cs, st, b, e); };
    if (pool && rows > grain)
      pool->ParallelFor(rows, grain, body);
    else
      body(0, rows);
  });
}

Result<std::vector<int64_t>> ReadIntsInput(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor* t = ctx.input(i);
  if (t == nullptr) return std::vector<int64_t>{};
  if (t->rank() > 1) return ctx.Error(std::string(what) + " must be 1-D, got " + t->Describe());
  return ReadInts(ctx, *t, what);
}

Result<int64_t> ReadIntScalar(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1) {
    return ctx.Error(std::string(what) + " must have one element, got " + t.Describe());
  }
  if (dtype_is_float(t.dtype()) || t.dtype() == DType::kBool || t.raw_data() == nullptr) {
    return ctx.Error(std::string(what) + " must be an integer tensor, got " + t.Describe());
  }
  const double v = ReadAsDouble(t, 0);
  if (t.dtype() == DType::kI64) return t.data<int64_t>()[0];
  if (t.dtype() == DType::kU64) {
    const uint64_t u = t.data<uint64_t>()[0];
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return ctx.Error(std::string(what) + " value is too large");
    }
    return static_cast<int64_t>(u);
  }
  return static_cast<int64_t>(v);
}

double ReadAsDouble(const Tensor& t, int64_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return 0.0;
    } else {
      return static_cast<double>(to_compute(t.data<T>()[i]));
    }
  });
}

void WriteFromDouble(Tensor& t, int64_t i, double v) {
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      t.data<bool>()[i] = v != 0.0;
    } else if constexpr (!std::is_void_v<T>) {
      t.data<T>()[i] = from_compute<T>(static_cast<compute_t<T>>(v));
    }
  });
}


namespace {

Status RequireInput(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor* t = ctx.input(i);
  if (t == nullptr || !t->defined()) return ctx.Error(std::string("missing input ") + what);
  return Status::Ok();
}

// ---- Identity ----------------------------------------------------------------------------

Status IdentityKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  ctx.set_output(0, *ctx.input(0));
  return Status::Ok();
}

// ---- Reshape -----------------------------------------------------------------------------

Status ReshapeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  TRY_STATUS(RequireInput(ctx, 1, "shape"));
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(std::vector<int64_t> spec, ReadIntsInput(ctx, 1, "shape"));
  const bool allowzero = ctx.opset() >= 14 && ctx.node().attr_int("allowzero", 0) != 0;
  std::vector<int64_t> out(spec.size());
  int infer = -1;
  bool has_zero = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    const int64_t v = spec[i];
    if (v == -1) {
      if (infer >= 0) return ctx.Error("shape " + shape_to_string(spec) + " has more than one -1");
      infer = static_cast<int>(i);
      out[i] = 1;
    } else if (v == 0 && !allowzero) {
      if (i >= x.rank()) {
        return ctx.Error("shape " + shape_to_string(spec) + " copies dim " + Num(i) +
                         " (0) but the input " + x.Describe() + " has rank " + Num(x.rank()));
      }
      out[i] = x.dim(i);
    } else if (v < 0) {
      return ctx.Error("shape " + shape_to_string(spec) + " has invalid dim " + Num(v));
    } else {
      has_zero |= v == 0;
      out[i] = v;
    }
  }
  if (allowzero && has_zero && infer >= 0) {
    return ctx.Error("shape " + shape_to_string(spec) + " has both 0 and -1 with allowzero=1");
  }
  const int64_t known = shape_numel(out);
  if (known < 0) return ctx.Error("shape " + shape_to_string(spec) + " overflows");
  if (infer >= 0) {
    if (known == 0 || x.numel() % known != 0) {
      return ctx.Error("cannot reshape " + x.Describe() + " to " + shape_to_string(spec));
    }
    out[infer] = x.numel() / known;
  } else if (known != x.numel()) {
    return ctx.Error("cannot reshape " + x.Describe() + " to " + shape_to_string(spec) +
                     ": element counts differ");
  }
  ctx.set_output(0, x.Reshaped(std::move(out)));
  return Status::Ok();
}

// ---- Flatten -----------------------------------------------------------------------------

Status FlattenKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  int64_t axis = ctx.node().attr_int("axis", 1);
  if (axis < -r || axis > r) {
    return ctx.Error("axis " + Num(axis) + " is out of range [" + Num(-r) + ", " + Num(r) + "]");
  }
  if (axis < 0) axis += r;
  const int64_t a = Prod(x.shape(), 0, axis);
  const int64_t b = Prod(x.shape(), axis, x.rank());
  ctx.set_output(0, x.Reshaped({a, b}));
  return Status::Ok();
}

// ---- Squeeze / Unsqueeze -----------------------------------------------------------------

// Axes come from the attribute before opset 13 and from input 1 since.
Result<std::optional<std::vector<int64_t>>> ReadAxes(const KernelContext& ctx) {
  if (ctx.opset() >= 13) {
    if (!ctx.has_input(1)) return std::optional<std::vector<int64_t>>{};
    TRY_ASSIGN(auto v, ReadIntsInput(ctx, 1, "axes"));
    return std::optional<std::vector<int64_t>>(std::move(v));
  }
  if (!ctx.node().has_attr("axes")) return std::optional<std::vector<int64_t>>{};
  return std::optional<std::vector<int64_t>>(ctx.node().attr_ints("axes"));
}

Status SqueezeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(auto axes, ReadAxes(ctx));
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<bool> drop(x.rank(), false);
  if (!axes || axes->empty()) {  // an empty axes list means "all size-1 dims", as in ORT
    for (size_t i = 0; i < x.rank(); ++i) drop[i] = x.dim(i) == 1;
  } else {
    for (int64_t a : *axes) {
      TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, a, r));
      if (x.dim(ax) != 1) {
        return ctx.Error("cannot squeeze axis " + Num(a) + " of " + x.Describe() +
                         ": its size is not 1");
      }
      drop[ax] = true;
    }
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < x.rank(); ++i)
    if (!drop[i]) out.push_back(x.dim(i));
  ctx.set_output(0, x.Reshaped(std::move(out)));
  return Status::Ok();
}

Status UnsqueezeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(auto axes, ReadAxes(ctx));
  if (!axes) return ctx.Error("axes are required");
  const int64_t out_rank = static_cast<int64_t>(x.rank() + axes->size());
  std::vector<bool> inserted(out_rank, false);
  for (int64_t a : *axes) {
    TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, a, out_rank));
    if (inserted[ax]) return ctx.Error("axis " + Num(a) + " appears more than once in axes");
    inserted[ax] = true;
  }
  std::vector<int64_t> out(out_rank);
  size_t j = 0;
  for (int64_t i = 0; i < out_rank; ++i) out[i] = inserted[i] ? 1 : x.dim(j++);
  ctx.set_output(0, x.Reshaped(std::move(out)));
  return Status::Ok();
}

// ---- Shape / Size ------------------------------------------------------------------------

Status ShapeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  int64_t start = 0, end = r;
  if (ctx.opset() >= 15) {
    start = ctx.node().attr_int("start", 0);
    end = ctx.node().attr_int("end", r);
  }
  auto clamp = [r](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t{0}, r); };
  start = clamp(start);
  end = clamp(end);
  const int64_t n = std::max<int64_t>(0, end - start);
  TRY_ASSIGN(Tensor out, NewTensor(ctx, DType::kI64, {n}));
  for (int64_t i = 0; i < n; ++i) out.data<int64_t>()[i] = x.dim(start + i);
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

Status SizeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  TRY_ASSIGN(Tensor out, NewTensor(ctx, DType::kI64, {}));
  out.data<int64_t>()[0] = ctx.input(0)->numel();
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Constant / ConstantOfShape ----------------------------------------------------------

OpSupport ConstantSupports(const SupportQuery& q) {
  for (const char* a : {"value_string", "value_strings", "sparse_value"}) {
    if (q.node.has_attr(a))
      return OpSupport::No(std::string("Constant: attribute ") + a + " is not supported");
  }
  const Tensor* t = q.node.attr_tensor("value");
  if (q.node.has_attr("value") && (t == nullptr || t->dtype() == DType::kUndefined)) {
    return OpSupport::No("Constant: value tensor of an unsupported dtype");
  }
  return OpSupport::Yes();
}

Status ConstantKernel(KernelContext& ctx) {
  const Node& n = ctx.node();
  if (const Tensor* t = n.attr_tensor("value")) {
    if (t->dtype() == DType::kUndefined) return ctx.Unsupported("value tensor has no dtype");
    ctx.set_output(0, *t);
    return Status::Ok();
  }
  if (const Attribute* a = n.attr("value_float")) {
    ctx.set_output(0, Tensor::FromVector<float>(DType::kF32, {}, {a->f}));
  } else if (const Attribute* a = n.attr("value_floats")) {
    ctx.set_output(0, Tensor::FromVector<float>(
                          DType::kF32, {static_cast<int64_t>(a->floats.size())}, a->floats));
  } else if (const Attribute* a = n.attr("value_int")) {
    ctx.set_output(0, Tensor::FromVector<int64_t>(DType::kI64, {}, {a->i}));
  } else if (const Attribute* a = n.attr("value_ints")) {
    ctx.set_output(0, Tensor::FromVector<int64_t>(DType::kI64,
                                                  {static_cast<int64_t>(a->ints.size())}, a->ints));
  } else {
    return ctx.Unsupported("no supported value attribute (value, value_float(s), value_int(s))");
  }
  return Status::Ok();
}

// Fills n elements of esz bytes at dst with copies of the element at value.
void FillElements(void* dst, const void* value, int64_t n, size_t esz) {
  visit_size(esz, [&](auto tag) {
    using U = typename decltype(tag)::type;
    U v;
    std::memcpy(&v, value, sizeof(U));
    std::fill(static_cast<U*>(dst), static_cast<U*>(dst) + n, v);
  });
}

Status ConstantOfShapeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  TRY_ASSIGN(std::vector<int64_t> shape, ReadIntsInput(ctx, 0, "input"));
  for (int64_t d : shape)
    if (d < 0) return ctx.Error("shape " + shape_to_string(shape) + " has a negative dim");
  const Tensor* value = ctx.node().attr_tensor("value");
  if (value != nullptr && (value->numel() != 1 || value->dtype() == DType::kUndefined)) {
    return ctx.Error("value must be a one-element tensor, got " + value->Describe());
  }
  const DType dt = value ? value->dtype() : DType::kF32;
  TRY_ASSIGN(Tensor out, NewTensor(ctx, dt, shape));
  if (value != nullptr && out.numel() > 0) {
    FillElements(out.raw_data(), value->raw_data(), out.numel(), dtype_size(dt));
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Range -------------------------------------------------------------------------------

Status RangeKernel(KernelContext& ctx) {
  for (size_t i = 0; i < 3; ++i) TRY_STATUS(RequireInput(ctx, i, "start/limit/delta"));
  const Tensor &s = *ctx.input(0), &l = *ctx.input(1), &d = *ctx.input(2);
  if (s.numel() != 1 || l.numel() != 1 || d.numel() != 1) {
    return ctx.Error("start, limit and delta must be scalars");
  }
  if (s.dtype() != l.dtype() || s.dtype() != d.dtype()) {
    return ctx.Error("start, limit and delta must have one dtype");
  }
  return visit_numeric_dtype(s.dtype(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<T>) {
      return ctx.Unsupported(std::string("dtype ") + dtype_name(s.dtype()) + " is not supported");
    } else {
      using C = compute_t<T>;
      const C start = to_compute(s.data<T>()[0]), limit = to_compute(l.data<T>()[0]),
              delta = to_compute(d.data<T>()[0]);
      if (delta == C(0)) return ctx.Error("delta must not be zero");
      int64_t n = 0;
      if constexpr (std::is_floating_point_v<C>) {
        const double cnt = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) /
                                     static_cast<double>(delta));
        if (!(cnt <= 1e12)) {
          if (std::isnan(cnt)) return ctx.Error("range length is NaN");
          return ctx.Error("range has too many elements");
        }
        n = cnt > 0 ? static_cast<int64_t>(cnt) : 0;
      } else {
        const double cnt = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) /
                                     static_cast<double>(delta));
        if (cnt > 1e12) return ctx.Error("range has too many elements");
        n = cnt > 0 ? static_cast<int64_t>(cnt) : 0;
      }
      TRY_ASSIGN(Tensor out, NewTensor(ctx, s.dtype(), {n}));
      T* o = out.data<T>();
      if constexpr (std::is_floating_point_v<C>) {
        for (int64_t i = 0; i < n; ++i) {
          o[i] = from_compute<T>(static_cast<C>(start + static_cast<C>(i) * delta));
        }
      } else {  // int64 math: i * delta can leave T's range before the sum comes back into it
        for (int64_t i = 0; i < n; ++i) {
          // In uint64 so it wraps instead of overflowing: start + i * delta always lands back
          // in T's range, but i * delta alone can exceed int64 (start=INT64_MIN, delta=2^62).
          o[i] = static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(start)) +
                                                     static_cast<uint64_t>(i) *
                                                         static_cast<uint64_t>(static_cast<int64_t>(delta))));
        }
      }
      ctx.set_output(0, std::move(out));
      return Status::Ok();
    }
  });
}

// ---- EyeLike / Trilu ---------------------------------------------------------------------

OpSupport EyeLikeSupports(const SupportQuery& q) {
  if (q.node.has_attr("dtype") && DTypeFromOnnxCode(q.node.attr_int("dtype", 0)) == DType::kUndefined) {
    return OpSupport::No("EyeLike: dtype " + Num(q.node.attr_int("dtype", 0)) +
                         " is not supported");
  }
  return OpSupport::Yes();
}

Status EyeLikeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() != 2) return ctx.Error("input must be 2-D, got " + x.Describe());
  DType dt = x.dtype();
  if (ctx.node().has_attr("dtype")) {
    dt = DTypeFromOnnxCode(ctx.node().attr_int("dtype", 0));
    if (dt == DType::kUndefined) return ctx.Unsupported("unsupported dtype attribute");
  }
  const int64_t k = ctx.node().attr_int("k", 0);
  TRY_ASSIGN(Tensor out, NewTensor(ctx, dt, x.shape()));
  const int64_t rows = x.dim(0), cols = x.dim(1);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t j = i + k;
    if (j >= 0 && j < cols) WriteFromDouble(out, i * cols + j, 1.0);
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

Status TriluKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() < 2) return ctx.Error("input must have rank >= 2, got " + x.Describe());
  int64_t k = 0;
  if (ctx.has_input(1)) {
    TRY_ASSIGN(k, ReadIntScalar(ctx, *ctx.input(1), "k"));
  }
  const bool upper = ctx.node().attr_int("upper", 1) != 0;
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), x.shape()));
  const int64_t n = x.dim(x.rank() - 2), m = x.dim(x.rank() - 1);
  const int64_t mats = n * m == 0 ? 0 : x.numel() / (n * m);
  const size_t esz = dtype_size(x.dtype());
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  // Each row keeps one contiguous run of columns; the rest stays zero from allocation.
  for (int64_t b = 0; b < mats; ++b) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t j0 = 0, j1 = m;  // kept columns [j0, j1)
      if (upper)
        j0 = std::clamp(i + k, int64_t{0}, m);
      else
        j1 = std::clamp(i + k + 1, int64_t{0}, m);
      if (j1 <= j0) continue;
      const size_t off = static_cast<size_t>((b * n + i) * m + j0) * esz;
      std::memcpy(dst + off, src + off, static_cast<size_t>(j1 - j0) * esz);
    }
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterViewOps(KernelRegistry& r) {
  r.Register("Identity", IdentityKernel);
  r.Register("Reshape", ReshapeKernel);
  r.Register("Flatten", FlattenKernel);
  r.Register("Squeeze", SqueezeKernel);
  r.Register("Unsqueeze", UnsqueezeKernel);
  r.Register("Shape", ShapeKernel);
  r.Register("Size", SizeKernel);
  r.Register("Constant", ConstantKernel, ConstantSupports);
  r.Register("ConstantOfShape", ConstantOfShapeKernel);
  r.Register("Range", RangeKernel,
             [](const SupportQuery& q) { return RequireNumeric(q, 0, "start"); });
  r.Register("EyeLike", EyeLikeKernel, EyeLikeSupports);
  r.Register("Trilu", TriluKernel);
}

}  // namespace shape_ops

void RegisterShapeOps(KernelRegistry& r) {
  shape_ops::RegisterViewOps(r);
  shape_ops::RegisterCopyOps(r);
  shape_ops::RegisterIndexOps(r);
  shape_ops::RegisterSortOps(r);
}

}  // namespace trinity
