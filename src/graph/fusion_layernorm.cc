// FuseLayerNorm (passes.h): PyTorch exports of LayerNorm before opset 17 (openWakeWord's heads,
// PP-OCR rec's transformer blocks) spell it out as nine ops over the last axis:
//   m = ReduceMean(x); d = x - m; v = ReduceMean(d ^ 2); n = d / Sqrt(v + eps); n * g + b
// One LayerNormalization node does the same in one pass per row (ONNX Runtime fuses it too).
#include <optional>

#include "graph/fusion_util.h"
#include "graph/passes.h"

namespace trinity {

using fusion::ConstF32;
using fusion::FreshName;
using fusion::PairFuser;
using fusion::ScalarF32;
using fusion::UseCounts;

namespace {

// Whether a ReduceMean keeps dims and reduces only the last axis of `x` (rank from types).
bool MeanOverLastAxis(const Graph& g, const Node& n, const std::string& x) {
  if (n.op_type != "ReduceMean" || !n.domain.empty() || n.attr_int("keepdims", 1) != 1)
    return false;
  std::vector<int64_t> axes = n.attr_ints("axes");
  if (n.inputs.size() > 1 && !n.inputs[1].empty()) {  // opset 18: axes as an input
    auto it = g.initializers.find(n.inputs[1]);
    if (it == g.initializers.end() || it->second.dtype() != DType::kI64) return false;
    axes.assign(it->second.data<int64_t>(), it->second.data<int64_t>() + it->second.numel());
  }
  if (axes.size() != 1) return false;
  if (axes[0] == -1) return true;
  auto info = g.FindValue(x);
  return info && info->shape.rank_known && axes[0] == static_cast<int64_t>(info->shape.rank()) - 1;
}

}  // namespace

int FuseLayerNorm(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  auto index = [&](const Node* n) { return static_cast<size_t>(n - graph.nodes.data()); };
  int fused = 0;
  for (size_t di = 0; di < graph.nodes.size(); ++di) {
    Node& div = graph.nodes[di];
    if (div.op_type != "Div" || !div.domain.empty() || div.inputs.size() != 2) continue;
    Node* sqrt = fuser.Producer(div.inputs[1]);
    if (!sqrt || sqrt->op_type != "Sqrt" || uses[sqrt->outputs[0]] != 1) continue;
    Node* add = fuser.Producer(sqrt->inputs[0]);
    if (!add || add->op_type != "Add" || add->inputs.size() != 2 || uses[add->outputs[0]] != 1)
      continue;
    const int var_side = ScalarF32(graph, add->inputs[1]) ? 0 : 1;
    auto eps = ScalarF32(graph, add->inputs[static_cast<size_t>(1 - var_side)]);
    Node* var = fuser.Producer(add->inputs[static_cast<size_t>(var_side)]);
    if (!eps || !var || uses[var->outputs[0]] != 1) continue;
    Node* pow = fuser.Producer(var->inputs[0]);
    if (!pow || pow->op_type != "Pow" || pow->inputs.size() != 2 ||
        ScalarF32(graph, pow->inputs[1]) != 2.f || uses[pow->outputs[0]] != 1) {
      continue;
    }
    const std::string& d = div.inputs[0];
    if (pow->inputs[0] != d || uses[d] != 2) continue;
    Node* sub = fuser.Producer(d);
    if (!sub || sub->op_type != "Sub" || sub->inputs.size() != 2) continue;
    const std::string& x = sub->inputs[0];
    Node* mean = fuser.Producer(sub->inputs[1]);
    if (!mean || mean->inputs.empty() || mean->inputs[0] != x || uses[mean->outputs[0]] != 1)
      continue;
    if (!MeanOverLastAxis(graph, *mean, x) || !MeanOverLastAxis(graph, *var, d)) continue;
    auto xinfo = graph.FindValue(x);
    if (!xinfo || xinfo->dtype != DType::kF32 || !xinfo->shape.rank_known ||
        xinfo->shape.rank() == 0 || !xinfo->shape.dims.back().known()) {
      continue;
    }
    const int64_t width = xinfo->shape.dims.back().value;
    // Optional affine: Mul by a constant of the row's width, then Add of one.
    std::vector<size_t> absorbed = {index(sqrt), index(add), index(var),
                                    index(pow),  index(sub), index(mean)};
    std::string gamma, beta, out = div.outputs[0];
    Node* last = &div;
    if (uses[out] == 1) {
      for (size_t i = di + 1; i < graph.nodes.size() && gamma.empty(); ++i) {
        Node& m = graph.nodes[i];
        if (m.op_type != "Mul" || m.inputs.size() != 2) continue;
        for (int side = 0; side < 2 && gamma.empty(); ++side) {
          const Tensor* gt = ConstF32(graph, m.inputs[static_cast<size_t>(1 - side)]);
          if (m.inputs[static_cast<size_t>(side)] == out && gt && gt->numel() == width &&
              gt->rank() == 1) {
            gamma = m.inputs[static_cast<size_t>(1 - side)];
            absorbed.push_back(index(last));
            last = &m;
          }
        }
      }
    }
    if (!gamma.empty() && uses[last->outputs[0]] == 1) {
      for (size_t i = index(last) + 1; i < graph.nodes.size() && beta.empty(); ++i) {
        Node& a = graph.nodes[i];
        if (a.op_type != "Add" || a.inputs.size() != 2) continue;
        for (int side = 0; side < 2 && beta.empty(); ++side) {
          const Tensor* bt = ConstF32(graph, a.inputs[static_cast<size_t>(1 - side)]);
          if (a.inputs[static_cast<size_t>(side)] == last->outputs[0] && bt &&
              bt->numel() == width && bt->rank() == 1) {
            beta = a.inputs[static_cast<size_t>(1 - side)];
            absorbed.push_back(index(last));
            last = &a;
          }
        }
      }
    }
    if (gamma.empty()) {
      gamma = FreshName(graph, div.name + "_ln_scale");
      graph.initializers[gamma] =
          Tensor::FromVector(DType::kF32, {width}, std::vector<float>(width, 1.f));
    }
    Node ln;
    ln.name = last->name + "_layernorm";
    ln.op_type = "LayerNormalization";
    ln.inputs = {x, gamma};
    if (!beta.empty()) ln.inputs.push_back(beta);
    ln.outputs = {last->outputs[0]};
    ln.attrs["axis"].kind = Attribute::Kind::kInt;
    ln.attrs["axis"].i = -1;
    ln.attrs["epsilon"].kind = Attribute::Kind::kFloat;
    ln.attrs["epsilon"].f = *eps;
    for (size_t a : absorbed) fuser.Absorb(a);
    *last = std::move(ln);
    ++fused;
  }
  return fused;
}

}  // namespace trinity
