#include <cmath>
#include <limits>
#include <unordered_map>

#include "graph/fusion_util.h"
#include "graph/passes.h"

namespace trinity {

using fusion::ConstF32;
using fusion::FreshName;
using fusion::PairFuser;
using fusion::UseCounts;

int FuseConvBatchNorm(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  int fused = 0;
  for (size_t bi = 0; bi < graph.nodes.size(); ++bi) {
    Node& bn = graph.nodes[bi];
    if (bn.op_type != "BatchNormalization" || !bn.domain.empty() || bn.inputs.size() != 5) continue;
    if (bn.attr_int("training_mode", 0) != 0 || bn.outputs.size() > 1) continue;
    Node* conv_ptr = fuser.Producer(bn.inputs[0]);
    if (!conv_ptr) continue;
    Node& conv = *conv_ptr;
    if (conv.op_type != "Conv" || !conv.domain.empty() || uses[conv.outputs[0]] != 1) continue;
    const Tensor* w = ConstF32(graph, conv.inputs.size() > 1 ? conv.inputs[1] : "");
    const Tensor* b = conv.inputs.size() > 2 ? ConstF32(graph, conv.inputs[2]) : nullptr;
    if (!w || (conv.inputs.size() > 2 && !conv.inputs[2].empty() && !b)) continue;
    const Tensor* scale = ConstF32(graph, bn.inputs[1]);
    const Tensor* shift = ConstF32(graph, bn.inputs[2]);
    const Tensor* mean = ConstF32(graph, bn.inputs[3]);
    const Tensor* var = ConstF32(graph, bn.inputs[4]);
    if (!scale || !shift || !mean || !var || w->rank() < 3) continue;
    const int64_t oc = w->dim(0);
    if (scale->numel() != oc || shift->numel() != oc || mean->numel() != oc || var->numel() != oc ||
        (b && b->numel() != oc)) {
      continue;
    }
    const float eps = bn.attr_float("epsilon", 1e-5f);
    // y = (conv(x) + b - mean) * scale / sqrt(var + eps) + shift
    //   = conv_{w * k}(x) + (b - mean) * k + shift,  k = scale / sqrt(var + eps)
    Tensor nw = w->Clone();
    Tensor nb = Tensor::Empty(DType::kF32, {oc});
    const int64_t per_oc = w->numel() / oc;
    for (int64_t c = 0; c < oc; ++c) {
      const float k = scale->data<float>()[c] / std::sqrt(var->data<float>()[c] + eps);
      float* wc = nw.data<float>() + c * per_oc;
      for (int64_t j = 0; j < per_oc; ++j) wc[j] *= k;
      const float bias = b ? b->data<float>()[c] : 0.f;
      nb.data<float>()[c] = (bias - mean->data<float>()[c]) * k + shift->data<float>()[c];
    }
    const std::string wn = FreshName(graph, conv.inputs[1] + "_bnfused");
    graph.initializers[wn] = nw;
    const std::string bname = FreshName(graph, conv.name + "_bias_bnfused");
    graph.initializers[bname] = nb;
    conv.inputs.resize(3);
    conv.inputs[1] = wn;
    conv.inputs[2] = bname;
    conv.outputs[0] = bn.outputs[0];
    fuser.Absorb(bi);
    ++fused;
  }
  return fused;
}

int FuseMatMulAdd(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  int fused = 0;
  for (size_t ai = 0; ai < graph.nodes.size(); ++ai) {
    Node& add = graph.nodes[ai];
    if (add.op_type != "Add" || !add.domain.empty() || add.inputs.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      Node* mm_ptr = fuser.Producer(add.inputs[static_cast<size_t>(side)]);
      if (!mm_ptr) continue;
      Node& mm = *mm_ptr;
      if (mm.op_type != "MatMul" || !mm.domain.empty() || uses[mm.outputs[0]] != 1) continue;
      const Tensor* w = ConstF32(graph, mm.inputs[1]);
      const Tensor* bias = ConstF32(graph, add.inputs[static_cast<size_t>(1 - side)]);
      auto a_info = graph.FindValue(mm.inputs[0]);
      // Gemm needs a 2-D A; its rank must be known from the model's type information.
      if (!w || !bias || w->rank() != 2 || !a_info || !a_info->shape.rank_known ||
          a_info->shape.rank() != 2 || a_info->dtype != DType::kF32) {
        continue;
      }
      if (!(bias->rank() == 1 && bias->dim(0) == w->dim(1)) &&
          !(bias->rank() == 2 && bias->dim(0) == 1 && bias->dim(1) == w->dim(1))) {
        continue;
      }
      mm.op_type = "Gemm";
      mm.inputs = {mm.inputs[0], mm.inputs[1], add.inputs[static_cast<size_t>(1 - side)]};
      mm.outputs = add.outputs;
      fuser.Absorb(ai);
      ++fused;
      break;
    }
  }
  return fused;
}

}  // namespace trinity

namespace trinity {
namespace {

// Reads a constant scalar float (Clip's min/max inputs from opset 11).
bool ConstScalar(const Graph& g, const Node& n, size_t input, float* out) {
  if (input >= n.inputs.size() || n.inputs[input].empty()) return true;  // omitted: keep default
  const Tensor* t = ConstF32(g, n.inputs[input]);
  if (!t || t->numel() != 1) return false;
  *out = t->data<float>()[0];
  return true;
}

}  // namespace

int FuseConvActivation(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  int fused = 0;
  for (size_t ai = 0; ai < graph.nodes.size(); ++ai) {
    const Node& act = graph.nodes[ai];
    if (!act.domain.empty() || act.inputs.empty() ||
        (act.op_type != "Relu" && act.op_type != "Clip"))
      continue;
    Node* conv_ptr = fuser.Producer(act.inputs[0]);
    if (!conv_ptr) continue;
    Node& conv = *conv_ptr;
    if (conv.op_type != "Conv" || !conv.domain.empty() || uses[conv.outputs[0]] != 1 ||
        conv.has_attr(kFusedMinAttr)) {
      continue;
    }
    // Only float convs clamp; the type must be known to be f32.
    auto info = graph.FindValue(conv.outputs[0]);
    if (!info || info->dtype != DType::kF32) continue;
    float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
    if (act.op_type == "Relu") {
      lo = 0.f;
    } else if (graph.opset() < 11) {
      lo = act.attr_float("min", lo);
      hi = act.attr_float("max", hi);
    } else if (!ConstScalar(graph, act, 1, &lo) || !ConstScalar(graph, act, 2, &hi)) {
      continue;
    }
    if (!(lo <= hi)) continue;  // Clip with min > max has its own semantics; leave it
    Attribute amin, amax;
    amin.kind = amax.kind = Attribute::Kind::kFloat;
    amin.f = lo;
    amax.f = hi;
    conv.attrs[kFusedMinAttr] = amin;
    conv.attrs[kFusedMaxAttr] = amax;
    conv.outputs[0] = act.outputs[0];
    fuser.Absorb(ai);
    ++fused;
  }
  return fused;
}

}  // namespace trinity
