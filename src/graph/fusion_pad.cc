// FusePadIntoConv (passes.h): TensorFlow exports (tf2onnx) write "SAME" padding of strided
// convolutions as an explicit Pad before the Conv, a full copy of the feature map. Zero padding
// of the spatial dims is what Conv's own `pads` attribute does, so the Pad folds into it.
#include "graph/fusion_util.h"
#include "graph/passes.h"

namespace trinity {

using fusion::PairFuser;
using fusion::UseCounts;

namespace {

// The pads of a Pad node ([begin..., end...]) when it is a constant zero pad, else empty.
std::vector<int64_t> ZeroPads(const Graph& g, const Node& pad) {
  if (pad.attr_string("mode", "constant") != "constant") return {};
  if (g.opset(pad.domain) < 11) {
    if (pad.attr_float("value", 0.f) != 0.f) return {};
    return pad.attr_ints("pads");
  }
  if (pad.inputs.size() < 2 || pad.inputs.size() > 3) return {};  // no `axes` input
  auto p = g.initializers.find(pad.inputs[1]);
  if (p == g.initializers.end() || p->second.dtype() != DType::kI64) return {};
  for (const auto& in : g.inputs)
    if (in.name == pad.inputs[1]) return {};
  if (pad.inputs.size() == 3 && !pad.inputs[2].empty()) {
    auto v = g.initializers.find(pad.inputs[2]);
    if (v == g.initializers.end() || v->second.numel() != 1 || v->second.dtype() != DType::kF32 ||
        v->second.data<float>()[0] != 0.f) {
      return {};
    }
  }
  const Tensor& t = p->second;
  return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
}

}  // namespace

int FusePadIntoConv(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  int fused = 0;
  for (size_t ci = 0; ci < graph.nodes.size(); ++ci) {
    Node& conv = graph.nodes[ci];
    if (conv.op_type != "Conv" || !conv.domain.empty() || conv.inputs.size() < 2) continue;
    if (conv.attr_string("auto_pad", "NOTSET") != "NOTSET") continue;
    Node* pad = fuser.Producer(conv.inputs[0]);
    if (!pad || pad->op_type != "Pad" || !pad->domain.empty() || uses[pad->outputs[0]] != 1)
      continue;
    auto w = graph.initializers.find(conv.inputs[1]);
    if (w == graph.initializers.end()) continue;
    const size_t rank = w->second.rank(), spatial = rank - 2;
    const std::vector<int64_t> pads = ZeroPads(graph, *pad);
    if (rank < 3 || pads.size() != 2 * rank) continue;
    // Only spatial dims may be padded, and only outwards (negative pads crop).
    bool ok = pads[0] == 0 && pads[1] == 0 && pads[rank] == 0 && pads[rank + 1] == 0;
    for (int64_t v : pads) ok &= v >= 0;
    if (!ok) continue;
    std::vector<int64_t> cp = conv.attr_ints("pads", std::vector<int64_t>(2 * spatial, 0));
    if (cp.size() != 2 * spatial) continue;
    for (size_t d = 0; d < spatial; ++d) {
      cp[d] += pads[2 + d];
      cp[spatial + d] += pads[rank + 2 + d];
    }
    conv.attrs["pads"].kind = Attribute::Kind::kInts;
    conv.attrs["pads"].ints = cp;
    conv.inputs[0] = pad->inputs[0];
    fuser.Absorb(static_cast<size_t>(pad - graph.nodes.data()));
    ++fused;
  }
  return fused;
}

}  // namespace trinity
