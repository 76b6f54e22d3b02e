// Helpers shared by the fusion passes (fusion.cc, fusion_elementwise.cc).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"

namespace trinity::fusion {

// Consumers of each value, and whether it is a graph output (then it cannot be fused away).
struct UseCounts {
  std::unordered_map<std::string, int> count;
  explicit UseCounts(const Graph& g) {
    for (const auto& n : g.nodes) {
      for (const auto& in : n.inputs) ++count[in];
      for (const auto& [_, a] : n.attrs)
        if (a.g)
          for (const auto& f : a.g->FreeValues()) ++count[f];
    }
    for (const auto& o : g.outputs) count[o.name] += 1000;
  }
  int operator[](const std::string& v) const {
    auto it = count.find(v);
    return it == count.end() ? 0 : it->second;
  }
};

inline const Tensor* ConstF32(const Graph& g, const std::string& name) {
  if (name.empty()) return nullptr;
  auto it = g.initializers.find(name);
  if (it == g.initializers.end() || it->second.dtype() != DType::kF32) return nullptr;
  for (const auto& in : g.inputs)
    if (in.name == name) return nullptr;  // overridable by the caller
  return &it->second;
}

// The value of an f32 constant holding one element with rank 0 or 1 (so broadcasting it against
// another operand cannot change that operand's shape), else nullopt.
inline std::optional<float> ScalarF32(const Graph& g, const std::string& name) {
  const Tensor* t = ConstF32(g, name);
  if (!t || t->numel() != 1 || t->rank() > 1) return std::nullopt;
  return t->data<float>()[0];
}

inline std::string FreshName(const Graph& g, const std::string& base) {
  std::string name = base;
  for (int i = 0; g.initializers.count(name); ++i) name = base + "_" + std::to_string(i);
  return name;
}

// Pairs a node with the node that produces one of its inputs, and removes the nodes a fusion
// absorbed once the pass is done (so indices stay valid while it runs).
class PairFuser {
 public:
  explicit PairFuser(Graph& g) : graph_(g), dead_(g.nodes.size(), false) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
      for (const auto& o : g.nodes[i].outputs) producer_[o] = i;
  }
  // The live node producing `value`, or nullptr.
  Node* Producer(const std::string& value) {
    auto it = producer_.find(value);
    return it == producer_.end() || dead_[it->second] ? nullptr : &graph_.nodes[it->second];
  }
  void Absorb(size_t node_index) { dead_[node_index] = true; }
  ~PairFuser() {
    std::vector<Node> kept;
    for (size_t i = 0; i < graph_.nodes.size(); ++i)
      if (!dead_[i]) kept.push_back(std::move(graph_.nodes[i]));
    graph_.nodes = std::move(kept);
  }

 private:
  Graph& graph_;
  std::vector<bool> dead_;
  std::unordered_map<std::string, size_t> producer_;
};

}  // namespace trinity::fusion
