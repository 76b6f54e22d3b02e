// Control flow: If, Loop and Scan. Bodies run through KernelContext::RunSubgraph, which gives
// them access to the enclosing graph's values (outer scope), as ONNX specifies.
#include <cstring>

#include "backends/cpu/kernel.h"

namespace trinity {
namespace {

Result<bool> ReadBoolScalar(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1) return ctx.Error(std::string(what) + " must hold one element, got " + t.Describe());
  switch (t.dtype()) {
    case DType::kBool: return *t.data<bool>();
    case DType::kU8: return *t.data<uint8_t>() != 0;
    case DType::kI32: return *t.data<int32_t>() != 0;
    case DType::kI64: return *t.data<int64_t>() != 0;
    case DType::kF32: return *t.data<float>() != 0.f;
    default: return ctx.Error(std::string(what) + " must be bool, got " + t.Describe());
  }
}

Status RunIf(KernelContext& ctx) {
  const Tensor* cond = ctx.input(0);
  if (!cond) return ctx.Error("missing condition input");
  TRY_ASSIGN(bool c, ReadBoolScalar(ctx, *cond, "condition"));
  const Graph* branch = ctx.node().attr_graph(c ? "then_branch" : "else_branch");
  if (!branch) return ctx.Error(std::string("missing ") + (c ? "then_branch" : "else_branch"));
  TRY_ASSIGN(auto outs, ctx.RunSubgraph(*branch, {}));
  if (outs.size() != ctx.num_outputs()) {
    return ctx.Error("branch produced " + std::to_string(outs.size()) + " outputs, node has " +
                     std::to_string(ctx.num_outputs()));
  }
  for (size_t i = 0; i < outs.size(); ++i) ctx.set_output(i, std::move(outs[i]));
  return Status::Ok();
}

// Stacks per-iteration tensors of equal shape along a new leading axis.
Result<Tensor> Stack(const KernelContext& ctx, const std::vector<Tensor>& parts, DType dtype,
                     const std::vector<int64_t>& elem_shape, const std::string& what) {
  std::vector<int64_t> shape = {static_cast<int64_t>(parts.size())};
  shape.insert(shape.end(), elem_shape.begin(), elem_shape.end());
  Tensor out = Tensor::Empty(dtype, shape);
  char* dst = static_cast<char*>(out.raw_data());
  for (const Tensor& p : parts) {
    if (p.shape() != elem_shape || p.dtype() != dtype) {
      return ctx.Error(what + " changes shape across iterations: " + p.Describe() + " vs " +
                       std::string(dtype_name(dtype)) + shape_to_string(elem_shape));
    }
    std::memcpy(dst, p.raw_data(), p.nbytes());
    dst += p.nbytes();
  }
  return out;
}

Status RunLoop(KernelContext& ctx) {
  const Graph* body = ctx.node().attr_graph("body");
  if (!body) return ctx.Error("missing body");
  int64_t max_trip = INT64_MAX;
  if (const Tensor* m = ctx.input(0)) {
    TRY_ASSIGN(auto v, ReadInts(ctx, *m, "M"));
    if (v.size() != 1) return ctx.Error("M must be a scalar");
    max_trip = v[0];
  }
  bool cond = true;
  if (const Tensor* c = ctx.input(1)) {
    TRY_ASSIGN(cond, ReadBoolScalar(ctx, *c, "cond"));
  }
  const size_t num_carried = ctx.num_inputs() > 2 ? ctx.num_inputs() - 2 : 0;
  if (body->inputs.size() != num_carried + 2) {
    return ctx.Error("body takes " + std::to_string(body->inputs.size()) + " inputs, expected " +
                     std::to_string(num_carried + 2));
  }
  if (body->outputs.size() < num_carried + 1) return ctx.Error("body has too few outputs");
  const size_t num_scan = body->outputs.size() - 1 - num_carried;
  if (ctx.num_outputs() != num_carried + num_scan) {
    return ctx.Error("node has " + std::to_string(ctx.num_outputs()) + " outputs, body yields " +
                     std::to_string(num_carried + num_scan));
  }
  std::vector<Tensor> carried;
  for (size_t i = 0; i < num_carried; ++i) {
    const Tensor* t = ctx.input(2 + i);
    if (!t) return ctx.Error("loop-carried input " + std::to_string(i) + " is missing");
    carried.push_back(*t);
  }
  std::vector<std::vector<Tensor>> scans(num_scan);
  Tensor iter = Tensor::Empty(DType::kI64, {});
  Tensor cond_t = Tensor::Empty(DType::kBool, {});
  constexpr int64_t kMaxIterations = int64_t{1} << 31;  // guards against a runaway loop
  for (int64_t i = 0; i < max_trip && cond; ++i) {
    if (i >= kMaxIterations) return ctx.Error("loop exceeded 2^31 iterations");
    iter = Tensor::Empty(DType::kI64, {});
    *iter.data<int64_t>() = i;
    cond_t = Tensor::Empty(DType::kBool, {});
    *cond_t.data<bool>() = cond;
    std::vector<Tensor> in = {iter, cond_t};
    in.insert(in.end(), carried.begin(), carried.end());
    TRY_ASSIGN(auto outs, ctx.RunSubgraph(*body, in));
    TRY_ASSIGN(cond, ReadBoolScalar(ctx, outs[0], "body condition output"));
    for (size_t k = 0; k < num_carried; ++k) carried[k] = std::move(outs[1 + k]);
    for (size_t k = 0; k < num_scan; ++k) scans[k].push_back(std::move(outs[1 + num_carried + k]));
  }
  for (size_t k = 0; k < num_carried; ++k) ctx.set_output(k, carried[k]);
  for (size_t k = 0; k < num_scan; ++k) {
    if (scans[k].empty()) {
      // Zero iterations: the element shape comes from the body's declared output type.
      const ValueInfo& vi = body->outputs[1 + num_carried + k];
      std::vector<int64_t> shape = {0};
      for (const Dim& d : vi.shape.dims) shape.push_back(d.known() ? d.value : 0);
      const DType dt = vi.dtype == DType::kUndefined ? DType::kF32 : vi.dtype;
      ctx.set_output(num_carried + k, Tensor::Empty(dt, shape));
      continue;
    }
    TRY_ASSIGN(Tensor stacked, Stack(ctx, scans[k], scans[k][0].dtype(), scans[k][0].shape(),
                                     "scan output " + std::to_string(k)));
    ctx.set_output(num_carried + k, std::move(stacked));
  }
  return Status::Ok();
}

// Moves `axis` of t to the front (a copy), so slices along it are contiguous.
Tensor MoveAxisToFront(const Tensor& t, int64_t axis) {
  if (axis == 0) return t;
  const auto& s = t.shape();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= s[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(axis) + 1; i < s.size(); ++i) inner *= s[i];
  const int64_t n = s[static_cast<size_t>(axis)];
  const size_t esz = dtype_size(t.dtype());
  std::vector<int64_t> shape = {n};
  for (size_t i = 0; i < s.size(); ++i)
    if (static_cast<int64_t>(i) != axis) shape.push_back(s[i]);
  Tensor out = Tensor::Empty(t.dtype(), shape);
  const char* src = static_cast<const char*>(t.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < n; ++k)
      std::memcpy(dst + ((k * outer + o) * inner) * esz, src + ((o * n + k) * inner) * esz, inner * esz);
  return out;
}

// Inverse of MoveAxisToFront: t has the scanned axis first; put it at `axis`.
Tensor MoveFrontToAxis(const Tensor& t, int64_t axis) {
  if (axis == 0) return t;
  const auto& s = t.shape();
  const int64_t n = s[0];
  int64_t outer = 1, inner = 1;
  for (int64_t i = 1; i <= axis; ++i) outer *= s[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(axis) + 1; i < s.size(); ++i) inner *= s[i];
  std::vector<int64_t> shape(s.begin() + 1, s.end());
  shape.insert(shape.begin() + axis, n);
  const size_t esz = dtype_size(t.dtype());
  Tensor out = Tensor::Empty(t.dtype(), shape);
  const char* src = static_cast<const char*>(t.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (int64_t k = 0; k < n; ++k)
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(dst + ((o * n + k) * inner) * esz, src + ((k * outer + o) * inner) * esz, inner * esz);
  return out;
}

Status RunScan(KernelContext& ctx) {
  const Graph* body = ctx.node().attr_graph("body");
  if (!body) return ctx.Error("missing body");
  const int64_t num_scan_in = ctx.node().attr_int("num_scan_inputs", -1);
  const int64_t num_inputs = static_cast<int64_t>(ctx.num_inputs());
  if (num_scan_in < 1 || num_scan_in > num_inputs) return ctx.Error("invalid num_scan_inputs");
  const int64_t num_state = num_inputs - num_scan_in;
  const int64_t num_scan_out = static_cast<int64_t>(ctx.num_outputs()) - num_state;
  if (num_scan_out < 0 || static_cast<int64_t>(body->outputs.size()) != num_state + num_scan_out ||
      static_cast<int64_t>(body->inputs.size()) != num_inputs) {
    return ctx.Error("body signature does not match the node's inputs and outputs");
  }
  auto in_axes = ctx.node().attr_ints("scan_input_axes", std::vector<int64_t>(num_scan_in, 0));
  auto in_dirs = ctx.node().attr_ints("scan_input_directions", std::vector<int64_t>(num_scan_in, 0));
  auto out_axes = ctx.node().attr_ints("scan_output_axes", std::vector<int64_t>(num_scan_out, 0));
  auto out_dirs = ctx.node().attr_ints("scan_output_directions", std::vector<int64_t>(num_scan_out, 0));
  if (static_cast<int64_t>(in_axes.size()) != num_scan_in || static_cast<int64_t>(in_dirs.size()) != num_scan_in ||
      static_cast<int64_t>(out_axes.size()) != num_scan_out || static_cast<int64_t>(out_dirs.size()) != num_scan_out) {
    return ctx.Error("scan axes/directions attributes have the wrong length");
  }
  std::vector<Tensor> state;
  for (int64_t i = 0; i < num_state; ++i) {
    if (!ctx.input(static_cast<size_t>(i))) return ctx.Error("state input missing");
    state.push_back(*ctx.input(static_cast<size_t>(i)));
  }
  std::vector<Tensor> scan_in;
  int64_t length = -1;
  for (int64_t k = 0; k < num_scan_in; ++k) {
    const Tensor* t = ctx.input(static_cast<size_t>(num_state + k));
    if (!t) return ctx.Error("scan input missing");
    TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, in_axes[static_cast<size_t>(k)], static_cast<int64_t>(t->rank())));
    Tensor front = MoveAxisToFront(*t, axis);
    if (length >= 0 && front.dim(0) != length) return ctx.Error("scan inputs have different lengths");
    length = front.dim(0);
    scan_in.push_back(std::move(front));
  }
  std::vector<std::vector<Tensor>> outs(static_cast<size_t>(num_scan_out));
  for (int64_t it = 0; it < length; ++it) {
    std::vector<Tensor> in = state;
    for (int64_t k = 0; k < num_scan_in; ++k) {
      const Tensor& f = scan_in[static_cast<size_t>(k)];
      const int64_t idx = in_dirs[static_cast<size_t>(k)] ? length - 1 - it : it;
      std::vector<int64_t> elem(f.shape().begin() + 1, f.shape().end());
      const size_t bytes = static_cast<size_t>(shape_numel(elem)) * dtype_size(f.dtype());
      in.push_back(Tensor(f.dtype(), elem, f.buffer(), f.byte_offset() + static_cast<size_t>(idx) * bytes));
    }
    TRY_ASSIGN(auto res, ctx.RunSubgraph(*body, in));
    for (int64_t i = 0; i < num_state; ++i) state[static_cast<size_t>(i)] = res[static_cast<size_t>(i)];
    for (int64_t k = 0; k < num_scan_out; ++k) outs[static_cast<size_t>(k)].push_back(res[static_cast<size_t>(num_state + k)]);
  }
  for (int64_t i = 0; i < num_state; ++i) ctx.set_output(static_cast<size_t>(i), state[static_cast<size_t>(i)]);
  for (int64_t k = 0; k < num_scan_out; ++k) {
    auto& parts = outs[static_cast<size_t>(k)];
    if (parts.empty()) return ctx.Error("scan over zero iterations is not supported");
    if (out_dirs[static_cast<size_t>(k)]) std::reverse(parts.begin(), parts.end());
    TRY_ASSIGN(Tensor stacked, Stack(ctx, parts, parts[0].dtype(), parts[0].shape(), "scan output"));
    TRY_ASSIGN(int64_t axis, NormalizeAxis(ctx, out_axes[static_cast<size_t>(k)], static_cast<int64_t>(stacked.rank())));
    ctx.set_output(static_cast<size_t>(num_state + k), MoveFrontToAxis(stacked, axis));
  }
  return Status::Ok();
}

}  // namespace

void RegisterControlFlowOps(KernelRegistry& r) {
  r.Register("If", RunIf);
  r.Register("Loop", RunLoop);
  r.Register("Scan", RunScan, [](const SupportQuery& q) {
    if (q.opset < 9) return OpSupport::No("Scan before opset 9 (batched, with sequence_lens) is not supported");
    return OpSupport::Yes();
  });
}

}  // namespace trinity
