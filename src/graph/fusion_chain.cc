// FuseElementwiseChains (passes.h): runs of single-input elementwise steps become one node that
// makes one pass over memory. PP-OCR's exports follow every Conv with Mul(a), Add(b),
// hard-swish, Mul(a2), Add(b2): five full passes over large feature maps, now one.
#include <optional>

#include "graph/fusion_util.h"
#include "graph/passes.h"

namespace trinity {

using fusion::ConstF32;
using fusion::PairFuser;
using fusion::ScalarF32;
using fusion::UseCounts;

namespace {

// The chain step a node is, reading `x`, or nullopt. Steps hold the node's exact arithmetic.
std::optional<ChainStep> StepOf(const Graph& g, const Node& n, std::string* x) {
  if (!n.domain.empty() || n.outputs.size() != 1 || n.inputs.empty()) return std::nullopt;
  const std::string& op = n.op_type;
  if (op == "Relu" && n.inputs.size() == 1) {
    *x = n.inputs[0];
    return ChainStep{ChainStep::kRelu, 0, 0};
  }
  if (op == "HardSwish" && n.inputs.size() == 1) {
    *x = n.inputs[0];
    return ChainStep{
        n.attr_int(kSpelledHardSwishAttr, 0) ? ChainStep::kHardSwishSpelled : ChainStep::kHardSwish,
        0, 0};
  }
  if (op == "LeakyRelu" && n.inputs.size() == 1) {
    *x = n.inputs[0];
    return ChainStep{ChainStep::kLeakyRelu, n.attr_float("alpha", 0.01f), 0};
  }
  if (op == "HardSigmoid" && n.inputs.size() == 1) {
    *x = n.inputs[0];
    return ChainStep{ChainStep::kHardSigmoid, n.attr_float("alpha", 0.2f),
                     n.attr_float("beta", 0.5f)};
  }
  if (op == "Clip" && g.opset(n.domain) >= 11 && n.inputs.size() == 3) {
    auto lo = ScalarF32(g, n.inputs[1]), hi = ScalarF32(g, n.inputs[2]);
    if (!lo || !hi) return std::nullopt;
    *x = n.inputs[0];
    return ChainStep{ChainStep::kClip, *lo, *hi};
  }
  const bool mul = op == "Mul", add = op == "Add", sub = op == "Sub", div = op == "Div";
  const bool max = op == "Max", min = op == "Min";
  if ((mul || add || sub || div || max || min) && n.inputs.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      auto c = ScalarF32(g, n.inputs[static_cast<size_t>(1 - side)]);
      if (!c) continue;
      *x = n.inputs[static_cast<size_t>(side)];
      const bool left = side == 1;  // the constant is the first operand: c - x, c / x
      if (mul) return ChainStep{ChainStep::kMul, *c, 0};
      if (add) return ChainStep{ChainStep::kAdd, *c, 0};
      if (sub) return ChainStep{left ? ChainStep::kSubFrom : ChainStep::kSub, *c, 0};
      if (max) return ChainStep{left ? ChainStep::kMaxConstFirst : ChainStep::kMax, *c, 0};
      if (min) return ChainStep{left ? ChainStep::kMinConstFirst : ChainStep::kMin, *c, 0};
      return ChainStep{left ? ChainStep::kDivInto : ChainStep::kDiv, *c, 0};
    }
  }
  return std::nullopt;
}

}  // namespace

int FuseElementwiseChains(Graph& graph) {
  UseCounts uses(graph);
  PairFuser fuser(graph);
  // Consumer index of each value read by exactly one node.
  std::unordered_map<std::string, size_t> consumer;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (const auto& in : graph.nodes[i].inputs) consumer[in] = i;
  std::vector<bool> in_chain(graph.nodes.size(), false);
  int fused = 0;
  for (size_t head = 0; head < graph.nodes.size(); ++head) {
    if (in_chain[head]) continue;
    std::string x;
    auto first = StepOf(graph, graph.nodes[head], &x);
    if (!first) continue;
    // x's dtype must be f32: the constants are f32, and Relu/HardSwish may see other types.
    auto xinfo = graph.FindValue(x);
    if (!xinfo || xinfo->dtype != DType::kF32) continue;
    std::vector<ChainStep> steps = {*first};
    std::vector<size_t> members = {head};
    std::string out = graph.nodes[head].outputs[0];
    while (uses[out] == 1) {
      auto it = consumer.find(out);
      if (it == consumer.end() || in_chain[it->second]) break;
      std::string next_x;
      auto step = StepOf(graph, graph.nodes[it->second], &next_x);
      if (!step || next_x != out) break;
      steps.push_back(*step);
      members.push_back(it->second);
      out = graph.nodes[it->second].outputs[0];
    }
    if (steps.size() < 2) continue;
    Node chain;
    chain.name = graph.nodes[head].name + "_chain";
    chain.op_type = kElementwiseChainOp;
    chain.domain = kTrinityDomain;
    chain.inputs = {x};
    chain.outputs = {out};
    Attribute kinds, a, b;
    kinds.kind = Attribute::Kind::kInts;
    a.kind = b.kind = Attribute::Kind::kFloats;
    for (const ChainStep& s : steps) {
      kinds.ints.push_back(s.kind);
      a.floats.push_back(s.a);
      b.floats.push_back(s.b);
    }
    chain.attrs["steps"] = kinds;
    chain.attrs["a"] = a;
    chain.attrs["b"] = b;
    for (size_t m : members) in_chain[m] = true;
    // The last member's slot holds the chain (it runs where the chain's output is made).
    for (size_t k = 0; k + 1 < members.size(); ++k) fuser.Absorb(members[k]);
    graph.nodes[members.back()] = std::move(chain);
    ++fused;
  }
  return fused;
}

}  // namespace trinity
