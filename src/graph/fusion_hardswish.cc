// FuseHardSwish (passes.h): PaddlePaddle's exports spell hard-swish out as four ops, four
// passes over large feature maps; one HardSwish node makes one.
#include <optional>

#include "graph/fusion_util.h"
#include "graph/passes.h"

namespace trinity {

using fusion::ConstF32;
using fusion::PairFuser;
using fusion::ScalarF32;
using fusion::UseCounts;

namespace {

// Clip bounds of a Clip node when they are constants (attributes before opset 11).
bool ClipBounds(const Graph& g, const Node& clip, float* lo, float* hi) {
  if (g.opset(clip.domain) < 11) {
    *lo = clip.attr_float("min", -3.4028235e38f);
    *hi = clip.attr_float("max", 3.4028235e38f);
    return true;
  }
  if (clip.inputs.size() != 3) return false;
  auto l = ScalarF32(g, clip.inputs[1]), h = ScalarF32(g, clip.inputs[2]);
  if (!l || !h) return false;
  *lo = *l;
  *hi = *h;
  return true;
}

}  // namespace

int FuseHardSwish(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  int fused = 0;
  for (size_t di = 0; di < graph.nodes.size(); ++di) {
    Node& div = graph.nodes[di];
    // Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)
    if (div.op_type != "Div" || !div.domain.empty() || div.inputs.size() != 2) continue;
    if (ScalarF32(graph, div.inputs[1]) != 6.f) continue;
    Node* mul = fuser.Producer(div.inputs[0]);
    if (!mul || mul->op_type != "Mul" || mul->inputs.size() != 2 || uses[mul->outputs[0]] != 1) {
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const std::string& x = mul->inputs[static_cast<size_t>(side)];
      Node* clip = fuser.Producer(mul->inputs[static_cast<size_t>(1 - side)]);
      if (!clip || clip->op_type != "Clip" || uses[clip->outputs[0]] != 1) continue;
      float lo, hi;
      if (!ClipBounds(graph, *clip, &lo, &hi) || lo != 0.f || hi != 6.f) continue;
      Node* add = fuser.Producer(clip->inputs[0]);
      if (!add || add->op_type != "Add" || add->inputs.size() != 2 || uses[add->outputs[0]] != 1) {
        continue;
      }
      const bool x_first = add->inputs[0] == x && ScalarF32(graph, add->inputs[1]) == 3.f;
      const bool x_second = add->inputs[1] == x && ScalarF32(graph, add->inputs[0]) == 3.f;
      if (!x_first && !x_second) continue;
      // The x value is f32 (the constants are); a HardSwish marked "spelled" computes
      // x * clip(x + 3, 0, 6) / 6 in this very order, so the fused result is bit-identical.
      Node hs;
      hs.name = div.name + "_hardswish";
      hs.op_type = "HardSwish";
      hs.attrs[kSpelledHardSwishAttr].kind = Attribute::Kind::kInt;
      hs.attrs[kSpelledHardSwishAttr].i = 1;
      hs.inputs = {x};
      hs.outputs = {div.outputs[0]};
      const size_t mul_i = static_cast<size_t>(mul - graph.nodes.data());
      const size_t clip_i = static_cast<size_t>(clip - graph.nodes.data());
      const size_t add_i = static_cast<size_t>(add - graph.nodes.data());
      fuser.Absorb(mul_i);
      fuser.Absorb(clip_i);
      fuser.Absorb(add_i);
      div = std::move(hs);
      ++fused;
      break;
    }
  }
  return fused;
}

}  // namespace trinity
