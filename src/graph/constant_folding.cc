#include <unordered_set>

#include "graph/passes.h"

namespace trinity {
namespace {

bool IsNondeterministic(const Node& n) {
  static const std::unordered_set<std::string> kRandom = {"RandomUniform",     "RandomNormal",
                                                          "RandomUniformLike", "RandomNormalLike",
                                                          "Multinomial",       "Bernoulli"};
  return kRandom.count(n.op_type) != 0;
}

bool HasSubgraph(const Node& n) {
  for (const auto& [_, a] : n.attrs)
    if (a.g) return true;
  return false;
}

}  // namespace

Result<int> FoldConstants(Graph& graph, const NodeEvaluator& eval, size_t max_bytes) {
  std::unordered_set<std::string> graph_inputs;
  for (const auto& in : graph.inputs) graph_inputs.insert(in.name);
  std::unordered_set<std::string> graph_outputs;
  for (const auto& out : graph.outputs) graph_outputs.insert(out.name);

  int removed = 0;
  std::vector<Node> kept;
  kept.reserve(graph.nodes.size());
  for (Node& n : graph.nodes) {
    if (!n.domain.empty() || IsNondeterministic(n) || HasSubgraph(n)) {
      kept.push_back(std::move(n));
      continue;
    }
    std::vector<const Tensor*> inputs;
    bool all_const = true;
    for (const auto& in : n.inputs) {
      if (in.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      auto it = graph.initializers.find(in);
      // A graph input may override an initializer of the same name: not constant.
      if (it == graph.initializers.end() || graph_inputs.count(in)) {
        all_const = false;
        break;
      }
      inputs.push_back(&it->second);
    }
    if (!all_const) {
      kept.push_back(std::move(n));
      continue;
    }
    auto outs = eval(n, inputs);
    if (!outs.ok()) {
      // Leave the node to fail (or succeed) at run time with its full context.
      kept.push_back(std::move(n));
      continue;
    }
    size_t bytes = 0;
    for (const auto& t : *outs) bytes += t.nbytes();
    size_t in_bytes = 0;
    for (const Tensor* t : inputs) in_bytes += t ? t->nbytes() : 0;
    if (bytes > max_bytes && bytes > in_bytes) {
      kept.push_back(std::move(n));
      continue;
    }
    for (size_t i = 0; i < n.outputs.size() && i < outs->size(); ++i)
      if (!n.outputs[i].empty()) graph.initializers[n.outputs[i]] = (*outs)[i];
    ++removed;
  }
  graph.nodes = std::move(kept);
  return removed;
}

int RemoveDeadNodes(Graph& graph) {
  std::unordered_set<std::string> live;
  for (const auto& o : graph.outputs) live.insert(o.name);
  std::vector<bool> keep(graph.nodes.size(), false);
  for (size_t i = graph.nodes.size(); i-- > 0;) {
    const Node& n = graph.nodes[i];
    bool used = false;
    for (const auto& o : n.outputs) used |= !o.empty() && live.count(o);
    if (!used) continue;
    keep[i] = true;
    for (const auto& in : n.inputs) live.insert(in);
    for (const auto& [_, a] : n.attrs)
      if (a.g)
        for (const auto& f : a.g->FreeValues()) live.insert(f);
  }
  std::vector<Node> kept;
  int removed = 0;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (keep[i])
      kept.push_back(std::move(graph.nodes[i]));
    else
      ++removed;
  }
  graph.nodes = std::move(kept);
  for (auto it = graph.initializers.begin(); it != graph.initializers.end();) {
    if (!live.count(it->first))
      it = graph.initializers.erase(it);
    else
      ++it;
  }
  return removed;
}

}  // namespace trinity
