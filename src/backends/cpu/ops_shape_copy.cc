// Tensor-manipulation ops, part 2: ops that copy strided views (Transpose, Slice, Expand, Tile,
// DepthToSpace, SpaceToDepth) or blocks (Concat, Split, Pad). All work on element bytes.
#include <algorithm>
#include <cstring>
#include <limits>
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

// Output = `x` viewed through (shape, strides) with `offset` elements added to its start.
Result<Tensor> CopyView(KernelContext& ctx, const Tensor& x, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& strides, int64_t offset = 0) {
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
  if (out.numel() > 0) {
    const size_t esz = dtype_size(x.dtype());
    StridedCopy(out.raw_data(), static_cast<const char*>(x.raw_data()) + offset * esz, shape,
                strides, esz, &ctx.pool());
  }
  return out;
}

// ---- Transpose ---------------------------------------------------------------------------

Status TransposeKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  const size_t r = x.rank();
  std::vector<int64_t> perm = ctx.node().attr_ints("perm");
  if (!ctx.node().has_attr("perm")) {
    perm.resize(r);
    for (size_t i = 0; i < r; ++i) perm[i] = static_cast<int64_t>(r - 1 - i);
  }
  if (perm.size() != r) {
    return ctx.Error("perm " + shape_to_string(perm) + " does not match input " + x.Describe());
  }
  std::vector<bool> seen(r, false);
  for (int64_t& p : perm) {
    if (p < 0) p += static_cast<int64_t>(r);
    if (p < 0 || p >= static_cast<int64_t>(r) || seen[p]) {
      return ctx.Error("perm " + shape_to_string(ctx.node().attr_ints("perm")) +
                       " is not a permutation of the input's " + Num(r) + " axes");
    }
    seen[p] = true;
  }
  const std::vector<int64_t> in_strides = ContiguousStrides(x.shape());
  std::vector<int64_t> shape(r), strides(r);
  for (size_t i = 0; i < r; ++i) {
    shape[i] = x.dim(perm[i]);
    strides[i] = in_strides[perm[i]];
  }
  TRY_ASSIGN(Tensor out, CopyView(ctx, x, shape, strides));
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Concat ------------------------------------------------------------------------------

Status ConcatKernel(KernelContext& ctx) {
  if (ctx.num_inputs() == 0) return ctx.Error("needs at least one input");
  for (size_t i = 0; i < ctx.num_inputs(); ++i) TRY_STATUS(RequireInput(ctx, i, "tensor"));
  const Tensor& first = *ctx.input(0);
  if (!ctx.node().has_attr("axis")) return ctx.Error("attribute axis is required");
  if (first.rank() == 0) return ctx.Error("cannot concatenate scalars");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), first.rank()));
  std::vector<int64_t> out_shape = first.shape();
  out_shape[axis] = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& t = *ctx.input(i);
    if (t.dtype() != first.dtype() || t.rank() != first.rank()) {
      return ctx.Error("input " + Num(i) + " " + t.Describe() + " does not match input 0 " +
                       first.Describe());
    }
    for (size_t d = 0; d < t.rank(); ++d) {
      if (static_cast<int64_t>(d) != axis && t.dim(d) != first.dim(d)) {
        return ctx.Error("input " + Num(i) + " " + t.Describe() + " does not match input 0 " +
                         first.Describe() + " outside axis " + Num(axis));
      }
    }
    out_shape[axis] += t.dim(axis);
  }
  TRY_ASSIGN(Tensor out, NewTensor(ctx, first.dtype(), out_shape));
  const size_t esz = dtype_size(first.dtype());
  const int64_t outer = Prod(out_shape, 0, axis);
  const int64_t inner = Prod(out_shape, axis + 1, out_shape.size());
  const size_t out_row = static_cast<size_t>(out_shape[axis] * inner) * esz;
  std::vector<const char*> srcs;
  std::vector<size_t> chunk, offs;
  size_t off = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    srcs.push_back(static_cast<const char*>(ctx.input(i)->raw_data()));
    chunk.push_back(static_cast<size_t>(ctx.input(i)->dim(axis) * inner) * esz);
    offs.push_back(off);
    off += chunk.back();
  }
  char* dst = static_cast<char*>(out.raw_data());
  auto body = [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      for (size_t i = 0; i < srcs.size(); ++i) {
        if (chunk[i] != 0)
          std::memcpy(dst + o * out_row + offs[i], srcs[i] + o * chunk[i], chunk[i]);
      }
    }
  };
  if (out.nbytes() > 0) {
    const int64_t grain = std::max<int64_t>(1, 262144 / static_cast<int64_t>(out_row + 1));
    ctx.pool().ParallelFor(outer, grain, body);
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Split -------------------------------------------------------------------------------

Status SplitKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() == 0) return ctx.Error("cannot split a scalar");
  TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, ctx.node().attr_int("axis", 0), x.rank()));
  const int64_t dim = x.dim(axis);
  const int64_t n = static_cast<int64_t>(ctx.num_outputs());
  if (n == 0) return ctx.Error("needs at least one output");
  std::vector<int64_t> sizes;
  if (ctx.opset() >= 13) {
    TRY_ASSIGN(sizes, ReadIntsInput(ctx, 1, "split"));
  } else {
    sizes = ctx.node().attr_ints("split");
  }
  if (!sizes.empty()) {
    if (static_cast<int64_t>(sizes.size()) != n) {
      return ctx.Error("split " + shape_to_string(sizes) + " has " + Num(sizes.size()) +
                       " entries for " + Num(n) + " outputs");
    }
    int64_t sum = 0;
    for (int64_t s : sizes) {
      if (s < 0) return ctx.Error("split " + shape_to_string(sizes) + " has a negative size");
      sum += s;
    }
    if (sum != dim) {
      return ctx.Error("split " + shape_to_string(sizes) + " sums to " + Num(sum) + " but axis " +
                       Num(axis) + " of " + x.Describe() + " has " + Num(dim));
    }
  } else if (ctx.opset() >= 18 && ctx.node().has_attr("num_outputs")) {
    const int64_t k = ctx.node().attr_int("num_outputs", 0);
    if (k != n) {
      return ctx.Error("num_outputs " + Num(k) + " does not match the " + Num(n) + " outputs");
    }
    const int64_t chunk = (dim + n - 1) / n;
    int64_t left = dim;
    for (int64_t i = 0; i < n; ++i) {
      sizes.push_back(std::min(chunk, left));
      left -= sizes.back();
    }
  } else {
    if (dim % n != 0) {
      return ctx.Error("axis " + Num(axis) + " of " + x.Describe() + " cannot be split into " +
                       Num(n) + " equal parts");
    }
    sizes.assign(n, dim / n);
  }
  const size_t esz = dtype_size(x.dtype());
  const int64_t outer = Prod(x.shape(), 0, axis);
  const int64_t inner = Prod(x.shape(), axis + 1, x.rank());
  const size_t in_row = static_cast<size_t>(dim * inner) * esz;
  const char* src = static_cast<const char*>(x.raw_data());
  size_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> shape = x.shape();
    shape[axis] = sizes[i];
    TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
    const size_t row = static_cast<size_t>(sizes[i] * inner) * esz;
    char* dst = static_cast<char*>(out.raw_data());
    if (row > 0) {
      const int64_t grain = std::max<int64_t>(1, 262144 / static_cast<int64_t>(row));
      ctx.pool().ParallelFor(outer, grain, [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o) std::memcpy(dst + o * row, src + o * in_row + off, row);
      });
    }
    off += row;
    ctx.set_output(i, std::move(out));
  }
  return Status::Ok();
}

// ---- Slice -------------------------------------------------------------------------------

Status SliceKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() >= 10) {
    TRY_STATUS(RequireInput(ctx, 1, "starts"));
    TRY_STATUS(RequireInput(ctx, 2, "ends"));
    TRY_ASSIGN(starts, ReadIntsInput(ctx, 1, "starts"));
    TRY_ASSIGN(ends, ReadIntsInput(ctx, 2, "ends"));
    TRY_ASSIGN(axes, ReadIntsInput(ctx, 3, "axes"));
    TRY_ASSIGN(steps, ReadIntsInput(ctx, 4, "steps"));
  } else {
    starts = ctx.node().attr_ints("starts");
    ends = ctx.node().attr_ints("ends");
    axes = ctx.node().attr_ints("axes");
  }
  if (starts.size() != ends.size()) return ctx.Error("starts and ends differ in length");
  if (!ctx.has_input(3) && axes.empty()) {
    axes.resize(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) {
    return ctx.Error("starts, ends, axes and steps must have one length");
  }
  std::vector<int64_t> shape = x.shape();
  const std::vector<int64_t> in_strides = ContiguousStrides(x.shape());
  std::vector<int64_t> strides = in_strides;
  std::vector<bool> seen(r, false);
  int64_t offset = 0;
  for (size_t i = 0; i < axes.size(); ++i) {
    TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, axes[i], r));
    if (seen[ax]) return ctx.Error("axis " + Num(axes[i]) + " is repeated in axes");
    seen[ax] = true;
    const int64_t d = x.dim(ax), step = steps[i];
    if (step == 0) return ctx.Error("steps must not be zero");
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += d;
    if (e < 0) e += d;
    int64_t len;
    // Written so that no step (up to INT64_MAX / INT64_MIN) overflows: 1 + (span - 1) / |step|.
    if (step > 0) {
      s = std::clamp(s, int64_t{0}, d);
      e = std::clamp(e, int64_t{0}, d);
      len = e > s ? 1 + (e - s - 1) / step : 0;
    } else {
      s = std::clamp(s, int64_t{0}, d - 1);
      e = std::clamp(e, int64_t{-1}, d - 1);
      const int64_t mag = step == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -step;
      len = s > e ? 1 + (s - e - 1) / mag : 0;
    }
    shape[ax] = len;
    // With len > 1, |step| < d, so the product fits; otherwise the stride is never used.
    strides[ax] = len > 1 ? in_strides[ax] * step : 0;
    if (len > 0) offset += s * in_strides[ax];
  }
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), shape));
  if (out.numel() > 0) {
    const size_t esz = dtype_size(x.dtype());
    StridedCopy(out.raw_data(), static_cast<const char*>(x.raw_data()) + offset * esz, shape,
                strides, esz, &ctx.pool());
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Expand / Tile -----------------------------------------------------------------------

Status ExpandKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  TRY_STATUS(RequireInput(ctx, 1, "shape"));
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(std::vector<int64_t> shape, ReadIntsInput(ctx, 1, "shape"));
  for (int64_t d : shape)
    if (d < 0) return ctx.Error("shape " + shape_to_string(shape) + " has a negative dim");
  TRY_ASSIGN(std::vector<int64_t> out_shape, BroadcastShapes(ctx, x.shape(), shape));
  TRY_ASSIGN(Tensor out, CopyView(ctx, x, out_shape, BroadcastStrides(x.shape(), out_shape)));
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

Status TileKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  TRY_STATUS(RequireInput(ctx, 1, "repeats"));
  const Tensor& x = *ctx.input(0);
  TRY_ASSIGN(std::vector<int64_t> reps, ReadIntsInput(ctx, 1, "repeats"));
  if (reps.size() != x.rank()) {
    return ctx.Error("repeats " + shape_to_string(reps) + " does not match input " + x.Describe());
  }
  const std::vector<int64_t> in_strides = ContiguousStrides(x.shape());
  std::vector<int64_t> out_shape, view_shape, view_strides;
  for (size_t i = 0; i < reps.size(); ++i) {
    if (reps[i] < 0) return ctx.Error("repeats " + shape_to_string(reps) + " has a negative value");
    int64_t out_dim = 0;
    if (__builtin_mul_overflow(reps[i], x.dim(i), &out_dim)) return ctx.Error("output shape overflows");
    out_shape.push_back(out_dim);
    // Output axis i is (repeat, dim) in row-major order: the repeat index does not move the source.
    view_shape.insert(view_shape.end(), {reps[i], x.dim(i)});
    view_strides.insert(view_strides.end(), {0, in_strides[i]});
  }
  if (shape_numel(view_shape) < 0) return ctx.Error("output shape overflows");
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), out_shape));
  if (out.numel() > 0) {
    StridedCopy(out.raw_data(), x.raw_data(), view_shape, view_strides, dtype_size(x.dtype()),
                &ctx.pool());
  }
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- Pad ---------------------------------------------------------------------------------

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

bool ParsePadMode(const std::string& s, PadMode* m) {
  if (s == "constant")
    *m = PadMode::kConstant;
  else if (s == "reflect")
    *m = PadMode::kReflect;
  else if (s == "edge")
    *m = PadMode::kEdge;
  else if (s == "wrap")
    *m = PadMode::kWrap;
  else
    return false;
  return true;
}

OpSupport PadSupports(const SupportQuery& q) {
  PadMode m;
  const std::string mode = q.node.attr_string("mode", "constant");
  if (!ParsePadMode(mode, &m)) return OpSupport::No("Pad: mode '" + mode + "' is not supported");
  return OpSupport::Yes();
}

// Source index for output position o of a padded dim, or -1 for the constant value.
int64_t PadSource(int64_t o, int64_t before, int64_t d, PadMode mode) {
  int64_t i = o - before;
  if (i >= 0 && i < d) return i;
  switch (mode) {
    case PadMode::kConstant:
      return -1;
    case PadMode::kEdge:
      return i < 0 ? 0 : d - 1;
    case PadMode::kWrap:
      return ((i % d) + d) % d;
    case PadMode::kReflect: {
      if (d == 1) return 0;
      const int64_t period = 2 * (d - 1);
      i = ((i % period) + period) % period;
      return i < d ? i : period - i;
    }
  }
  return -1;
}

template <class U>
void PadRows(U* dst, const U* src, const std::vector<std::vector<int64_t>>& maps,
             const std::vector<int64_t>& out_shape, const std::vector<int64_t>& in_strides, U cval,
             int64_t before_last, int64_t in_last, int64_t row_begin, int64_t row_end) {
  const size_t r = out_shape.size();
  const int64_t inner = out_shape[r - 1];
  const std::vector<int64_t>& imap = maps[r - 1];
  for (int64_t row = row_begin; row < row_end; ++row) {
    U* o = dst + row * inner;
    int64_t rem = row, off = 0;
    bool pad = false;
    for (size_t d = r - 1; d-- > 0;) {
      const int64_t s = maps[d][rem % out_shape[d]];
      rem /= out_shape[d];
      if (s < 0) pad = true;
      off += s * in_strides[d];
    }
    if (pad) {
      std::fill(o, o + inner, cval);
      continue;
    }
    // The middle of the row, [before, before + n), is a straight copy of the input row in
    // every mode; only the padded ends go through the map.
    const U* srow = src + off;
    const int64_t lo = std::clamp<int64_t>(before_last, 0, inner);
    const int64_t hi = std::clamp<int64_t>(before_last + in_last, lo, inner);
    for (int64_t j = 0; j < lo; ++j) o[j] = imap[j] < 0 ? cval : srow[imap[j]];
    if (hi > lo) std::memcpy(o + lo, srow + (lo - before_last), (hi - lo) * sizeof(U));
    for (int64_t j = hi; j < inner; ++j) o[j] = imap[j] < 0 ? cval : srow[imap[j]];
  }
}

Status PadKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "data"));
  const Tensor& x = *ctx.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  PadMode mode;
  const std::string mode_s = ctx.node().attr_string("mode", "constant");
  if (!ParsePadMode(mode_s, &mode))
    return ctx.Unsupported("mode '" + mode_s + "' is not supported");
  std::vector<int64_t> pads, axes;
  Tensor cval = Tensor::Zeros(x.dtype(), {});  // zero unless given
  if (ctx.opset() >= 11) {
    TRY_STATUS(RequireInput(ctx, 1, "pads"));
    TRY_ASSIGN(pads, ReadIntsInput(ctx, 1, "pads"));
    if (const Tensor* c = ctx.input(2); c != nullptr && c->defined() && c->numel() > 0) {
      if (c->dtype() != x.dtype() || c->numel() != 1) {
        return ctx.Error("constant_value must be one " + std::string(dtype_name(x.dtype())) +
                         ", got " + c->Describe());
      }
      std::memcpy(cval.raw_data(), c->raw_data(), dtype_size(x.dtype()));
    }
    TRY_ASSIGN(axes, ReadIntsInput(ctx, 3, "axes"));
  } else {
    pads = ctx.node().attr_ints("pads");
    WriteFromDouble(cval, 0, ctx.node().attr_float("value", 0.f));
  }
  if (axes.empty()) {
    axes.resize(r);
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (pads.size() != 2 * axes.size()) {
    return ctx.Error("pads " + shape_to_string(pads) + " must have 2 * " + Num(axes.size()) +
                     " values for input " + x.Describe());
  }
  std::vector<int64_t> before(r, 0), after(r, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    TRY_ASSIGN(int64_t ax, NormalizeAxis(ctx, axes[i], r));
    before[ax] = pads[i];
    after[ax] = pads[i + axes.size()];
  }
  std::vector<int64_t> out_shape(r);
  std::vector<std::vector<int64_t>> maps(r);
  for (int64_t d = 0; d < r; ++d) {
    const int64_t n = x.dim(d);
    out_shape[d] = n + before[d] + after[d];
    if (out_shape[d] < 0) {
      return ctx.Error("pads " + shape_to_string(pads) + " make axis " + Num(d) + " of " +
                       x.Describe() + " negative");
    }
    if (mode != PadMode::kConstant && n == 0 && out_shape[d] > 0) {
      return ctx.Error("cannot " + mode_s + "-pad empty axis " + Num(d) + " of " + x.Describe());
    }
    maps[d].resize(out_shape[d]);
    for (int64_t o = 0; o < out_shape[d]; ++o) maps[d][o] = PadSource(o, before[d], n, mode);
  }
  TRY_ASSIGN(Tensor out, NewTensor(ctx, x.dtype(), out_shape));
  if (out.numel() == 0) {
    ctx.set_output(0, std::move(out));
    return Status::Ok();
  }
  if (r == 0) {
    std::memcpy(out.raw_data(), x.raw_data(), dtype_size(x.dtype()));
    ctx.set_output(0, std::move(out));
    return Status::Ok();
  }
  const std::vector<int64_t> in_strides = ContiguousStrides(x.shape());
  const int64_t rows = out.numel() / out_shape[r - 1];
  visit_size(dtype_size(x.dtype()), [&](auto tag) {
    using U = typename decltype(tag)::type;
    U cv;
    std::memcpy(&cv, cval.raw_data(), sizeof(U));
    const int64_t grain = std::max<int64_t>(1, 65536 / out_shape[r - 1]);
    ctx.pool().ParallelFor(rows, grain, [&](int64_t b, int64_t e) {
      PadRows<U>(out.data<U>(), x.data<U>(), maps, out_shape, in_strides, cv, before[r - 1],
                 x.dim(r - 1), b, e);
    });
  });
  ctx.set_output(0, std::move(out));
  return Status::Ok();
}

// ---- DepthToSpace / SpaceToDepth ---------------------------------------------------------

OpSupport DepthToSpaceSupports(const SupportQuery& q) {
  const std::string mode = q.node.attr_string("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") {
    return OpSupport::No("DepthToSpace: mode '" + mode + "' is not supported");
  }
  return OpSupport::Yes();
}

Status DepthToSpaceKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() != 4) return ctx.Error("input must be 4-D, got " + x.Describe());
  const int64_t b = ctx.node().attr_int("blocksize", 0);
  if (b <= 0) return ctx.Error("blocksize must be positive, got " + Num(b));
  const std::string mode = ctx.node().attr_string("mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    return ctx.Unsupported("mode '" + mode + "' is not supported");
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  if (C % (b * b) != 0) {
    return ctx.Error("channels of " + x.Describe() + " are not divisible by blocksize^2 " +
                     Num(b * b));
  }
  const int64_t c = C / (b * b);
  const std::vector<int64_t> shape = {N, c, H, b, W, b};
  std::vector<int64_t> strides;
  if (mode == "DCR") {  // input viewed as [N, b, b, c, H, W]
    const auto s = ContiguousStrides({N, b, b, c, H, W});
    strides = {s[0], s[3], s[4], s[1], s[5], s[2]};
  } else {  // CRD: input viewed as [N, c, b, b, H, W]
    const auto s = ContiguousStrides({N, c, b, b, H, W});
    strides = {s[0], s[1], s[4], s[2], s[5], s[3]};
  }
  TRY_ASSIGN(Tensor out, CopyView(ctx, x, shape, strides));
  ctx.set_output(0, out.Reshaped({N, c, H * b, W * b}));
  return Status::Ok();
}

Status SpaceToDepthKernel(KernelContext& ctx) {
  TRY_STATUS(RequireInput(ctx, 0, "input"));
  const Tensor& x = *ctx.input(0);
  if (x.rank() != 4) return ctx.Error("input must be 4-D, got " + x.Describe());
  const int64_t b = ctx.node().attr_int("blocksize", 0);
  if (b <= 0) return ctx.Error("blocksize must be positive, got " + Num(b));
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  if (H % b != 0 || W % b != 0) {
    return ctx.Error("spatial dims of " + x.Describe() + " are not divisible by blocksize " +
                     Num(b));
  }
  const int64_t h = H / b, w = W / b;
  const auto s = ContiguousStrides({N, C, h, b, w, b});
  TRY_ASSIGN(Tensor out,
             CopyView(ctx, x, {N, b, b, C, h, w}, {s[0], s[3], s[5], s[1], s[2], s[4]}));
  ctx.set_output(0, out.Reshaped({N, C * b * b, h, w}));
  return Status::Ok();
}

}  // namespace

void RegisterCopyOps(KernelRegistry& r) {
  r.Register("Transpose", TransposeKernel);
  r.Register("Concat", ConcatKernel);
  r.Register("Split", SplitKernel);
  r.Register("Slice", SliceKernel);
  r.Register("Expand", ExpandKernel);
  r.Register("Tile", TileKernel);
  r.Register("Pad", PadKernel, PadSupports);
  r.Register("DepthToSpace", DepthToSpaceKernel, DepthToSpaceSupports);
  r.Register("SpaceToDepth", SpaceToDepthKernel);
}

}  // namespace trinity::shape_ops
