// trinity::ElementwiseChain: the node FuseElementwiseChains (graph/fusion_chain.cc) makes from a
// run of single-input f32 elementwise ops. The tensor is processed in L1-sized blocks; each step
// sweeps the block in place, so memory is read and written once for the whole chain.
//
// Every step's arithmetic is written exactly as the kernel of the op it replaced (Relu,
// LeakyRelu, Clip, HardSigmoid, HardSwish in ops_elementwise_unary.cc; Add/Sub/Mul/Div/Max/Min
// in ops_elementwise.cc),
// and steps are separate loops (no contraction across them), so the chain's output is
// bit-identical to running the ops one by one.
#pragma GCC optimize("-fvect-cost-model=dynamic", "-fno-trapping-math")

#include <algorithm>
#include <vector>

#include "backends/cpu/kernel.h"
#include "graph/passes.h"

namespace trinity {
namespace {

void ApplyStep(const ChainStep& s, float* v, int64_t n) {
  const float a = s.a, b = s.b;
  switch (s.kind) {
    case ChainStep::kRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] < 0.f ? 0.f : v[i];
      break;
    case ChainStep::kClip:
      for (int64_t i = 0; i < n; ++i) {
        float x = v[i];
        x = x < a ? a : x;
        v[i] = x > b ? b : x;
      }
      break;
    case ChainStep::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) {
        const float h = a * v[i] + b;
        v[i] = h < 0.f ? 0.f : (h > 1.f ? 1.f : h);
      }
      break;
    case ChainStep::kHardSwish:
      for (int64_t i = 0; i < n; ++i) {
        const float h = v[i] / 6.f + 0.5f;
        v[i] = v[i] * (h < 0.f ? 0.f : (h > 1.f ? 1.f : h));
      }
      break;
    case ChainStep::kHardSwishSpelled:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] * std::min(std::max(v[i] + 3.f, 0.f), 6.f) / 6.f;
      break;
    case ChainStep::kAdd:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] + a;
      break;
    case ChainStep::kSub:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] - a;
      break;
    case ChainStep::kSubFrom:
      for (int64_t i = 0; i < n; ++i) v[i] = a - v[i];
      break;
    case ChainStep::kMul:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] * a;
      break;
    case ChainStep::kDiv:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] / a;
      break;
    case ChainStep::kDivInto:
      for (int64_t i = 0; i < n; ++i) v[i] = a / v[i];
      break;
    case ChainStep::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = std::max(v[i], 0.f) + a * std::min(v[i], 0.f);
      break;
    // Max/Min as ops_elementwise.cc's MaxOp/MinOp(p, q): a NaN p wins, then a NaN or larger
    // (smaller) q. The constant is never NaN here, so only operand order needs keeping.
    case ChainStep::kMax:  // Max(x, a)
      for (int64_t i = 0; i < n; ++i) v[i] = (v[i] != v[i]) ? v[i] : (a > v[i] ? a : v[i]);
      break;
    case ChainStep::kMaxConstFirst:  // Max(a, x)
      for (int64_t i = 0; i < n; ++i) v[i] = (v[i] > a || v[i] != v[i]) ? v[i] : a;
      break;
    case ChainStep::kMin:  // Min(x, a)
      for (int64_t i = 0; i < n; ++i) v[i] = (v[i] != v[i]) ? v[i] : (a < v[i] ? a : v[i]);
      break;
    case ChainStep::kMinConstFirst:  // Min(a, x)
      for (int64_t i = 0; i < n; ++i) v[i] = (v[i] < a || v[i] != v[i]) ? v[i] : a;
      break;
  }
}

Result<std::vector<ChainStep>> ReadSteps(const KernelContext& ctx) {
  const auto kinds = ctx.node().attr_ints("steps");
  const auto a = ctx.node().attr_floats("a"), b = ctx.node().attr_floats("b");
  if (kinds.empty() || a.size() != kinds.size() || b.size() != kinds.size())
    return ctx.Error("steps, a and b must be non-empty and of equal length");
  std::vector<ChainStep> steps;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] < ChainStep::kRelu || kinds[i] > ChainStep::kMinConstFirst)
      return ctx.Error("unknown step kind " + std::to_string(kinds[i]));
    steps.push_back({static_cast<ChainStep::Kind>(kinds[i]), a[i], b[i]});
  }
  return steps;
}

Status ElementwiseChainKernel(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (x == nullptr) return ctx.Error("input is required");
  if (x->dtype() != DType::kF32) {
    return ctx.Unsupported(std::string("ElementwiseChain supports f32 only, got ") +
                           dtype_name(x->dtype()));
  }
  TRY_ASSIGN(const std::vector<ChainStep> steps, ReadSteps(ctx));
  Tensor y = Tensor::Empty(DType::kF32, x->shape());
  const float* src = x->data<float>();
  float* dst = y.data<float>();
  constexpr int64_t kBlock = 2048;  // 8 KiB: stays in L1 across the steps
  const int64_t blocks = (x->numel() + kBlock - 1) / kBlock;
  ctx.pool().ParallelFor(blocks, 4, [&](int64_t b0, int64_t b1) {
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t i0 = blk * kBlock, n = std::min(kBlock, x->numel() - i0);
      std::copy(src + i0, src + i0 + n, dst + i0);
      for (const ChainStep& s : steps) ApplyStep(s, dst + i0, n);
    }
  });
  ctx.set_output(0, std::move(y));
  return Status::Ok();
}

}  // namespace

void RegisterElementwiseChainOp(KernelRegistry& r) {
  r.Register(kElementwiseChainOp, ElementwiseChainKernel, {}, kTrinityDomain);
}

}  // namespace trinity
