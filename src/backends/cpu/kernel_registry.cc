#include <algorithm>
#include <limits>

#include "backends/cpu/kernel.h"

namespace trinity {

void KernelRegistry::Register(const std::string& op_type, KernelFn run, SupportFn supports,
                              const std::string& domain) {
  entries_[domain + "::" + op_type] = KernelEntry{std::move(run), std::move(supports)};
}

const KernelEntry* KernelRegistry::Find(const std::string& op_type, const std::string& domain) const {
  const std::string d = domain == "ai.onnx" ? "" : domain;
  auto it = entries_.find(d + "::" + op_type);
  return it == entries_.end() ? nullptr : &it->second;
}

OpSupport KernelRegistry::Supports(const SupportQuery& q) const {
  const KernelEntry* e = Find(q.node.op_type, q.node.domain);
  if (e == nullptr) {
    return OpSupport::No("no CPU kernel for op " +
                         (q.node.domain.empty() ? "" : q.node.domain + ".") + q.node.op_type);
  }
  if (e->supports) return e->supports(q);
  return OpSupport::Yes();
}

std::vector<std::string> KernelRegistry::OpTypes() const {
  std::vector<std::string> ops;
  for (const auto& [k, _] : entries_) ops.push_back(k.substr(k.find("::") + 2));
  return ops;
}

const KernelRegistry& KernelRegistry::Cpu() {
  static const KernelRegistry* reg = [] {
    auto* r = new KernelRegistry();
    RegisterElementwiseOps(*r);
    RegisterShapeOps(*r);
    RegisterReductionOps(*r);
    RegisterNnOps(*r);
    RegisterControlFlowOps(*r);
    RegisterMiscOps(*r);
    return r;
  }();
  return *reg;
}

Result<int64_t> NormalizeAxis(const KernelContext& ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return ctx.Error("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> ReadInts(const KernelContext& ctx, const Tensor& t, const char* what) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  if (t.dtype() == DType::kI64) {
    std::copy(t.data<int64_t>(), t.data<int64_t>() + t.numel(), v.begin());
  } else if (t.dtype() == DType::kI32) {
    std::copy(t.data<int32_t>(), t.data<int32_t>() + t.numel(), v.begin());
  } else {
    return ctx.Error(std::string(what) + " must be an integer tensor, got " + t.Describe());
  }
  return v;
}

Result<std::vector<int64_t>> BroadcastShapes(const KernelContext& ctx, const std::vector<int64_t>& a,
                                             const std::vector<int64_t>& b) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else
      return ctx.Error("shapes " + shape_to_string(a) + " and " + shape_to_string(b) +
                       " cannot be broadcast");
  }
  return out;
}

DType DTypeFromOnnxCode(int64_t code) {
  // Codes from onnx.proto's TensorProto.DataType.
  switch (code) {
    case 1: return DType::kF32;
    case 2: return DType::kU8;
    case 3: return DType::kI8;
    case 4: return DType::kU16;
    case 5: return DType::kI16;
    case 6: return DType::kI32;
    case 7: return DType::kI64;
    case 9: return DType::kBool;
    case 10: return DType::kF16;
    case 11: return DType::kF64;
    case 12: return DType::kU32;
    case 13: return DType::kU64;
    case 16: return DType::kBF16;
    default: return DType::kUndefined;
  }
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    // An empty tensor may have other dims whose product overflows ([0, 2^40, 2^40]); its
    // strides are never used to address memory, so saturate instead of overflowing.
    if (__builtin_mul_overflow(acc, shape[i], &acc)) acc = std::numeric_limits<int64_t>::max();
  }
  return s;
}

std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  std::vector<int64_t> s(out.size(), 0);
  const std::vector<int64_t> cs = ContiguousStrides(in);
  const size_t off = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) s[i + off] = in[i] == 1 ? 0 : cs[i];
  return s;
}

}  // namespace trinity
