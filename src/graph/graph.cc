#include "graph/graph.h"

#include <algorithm>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace trinity {

const Attribute* Node::attr(const std::string& n) const {
  auto it = attrs.find(n);
  return it == attrs.end() ? nullptr : &it->second;
}

int64_t Node::attr_int(const std::string& n, int64_t def) const {
  const Attribute* a = attr(n);
  return a ? a->i : def;
}

float Node::attr_float(const std::string& n, float def) const {
  const Attribute* a = attr(n);
  return a ? a->f : def;
}

std::string Node::attr_string(const std::string& n, const std::string& def) const {
  const Attribute* a = attr(n);
  return a ? a->s : def;
}

std::vector<int64_t> Node::attr_ints(const std::string& n, std::vector<int64_t> def) const {
  const Attribute* a = attr(n);
  return a ? a->ints : def;
}

std::vector<float> Node::attr_floats(const std::string& n, std::vector<float> def) const {
  const Attribute* a = attr(n);
  return a ? a->floats : def;
}

const Tensor* Node::attr_tensor(const std::string& n) const {
  const Attribute* a = attr(n);
  return a && a->kind == Attribute::Kind::kTensor ? &a->t : nullptr;
}

const Graph* Node::attr_graph(const std::string& n) const {
  const Attribute* a = attr(n);
  return a && a->kind == Attribute::Kind::kGraph ? a->g.get() : nullptr;
}

std::string Node::Label() const { return op_type + " '" + name + "'"; }

int Graph::opset(const std::string& domain) const {
  auto it = opsets.find(domain);
  if (it == opsets.end() && domain == "ai.onnx") it = opsets.find("");
  return it == opsets.end() ? 0 : it->second;
}

std::optional<ValueInfo> Graph::FindValue(const std::string& name) const {
  for (const auto& v : inputs)
    if (v.name == name) return v;
  for (const auto& v : outputs)
    if (v.name == name) return v;
  auto it = value_info.find(name);
  if (it != value_info.end()) return it->second;
  auto init = initializers.find(name);
  if (init != initializers.end()) {
    ValueInfo v;
    v.name = name;
    v.dtype = init->second.dtype();
    v.shape = Shape::FromConcrete(init->second.shape());
    return v;
  }
  return std::nullopt;
}

void Graph::ForEachNode(const std::function<void(const Node&, const Graph&)>& fn) const {
  for (const Node& n : nodes) {
    fn(n, *this);
    for (const auto& [_, a] : n.attrs)
      if (a.g) a.g->ForEachNode(fn);
  }
}

Status Graph::TopologicalSort() {
  // Kahn's algorithm over intra-graph producer/consumer edges; values produced outside
  // (inputs, initializers, outer scope) are ready from the start.
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes[i].outputs)
      if (!o.empty()) producer[o] = i;

  // A subgraph's free values are also dependencies of the node that owns it.
  auto deps_of = [&](const Node& n) {
    std::vector<std::string> d;
    for (const auto& in : n.inputs)
      if (!in.empty()) d.push_back(in);
    for (const auto& [_, a] : n.attrs)
      if (a.g)
        for (auto& f : a.g->FreeValues()) d.push_back(f);
    return d;
  };

  std::vector<int> pending(nodes.size(), 0);
  std::vector<std::vector<size_t>> consumers(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::set<size_t> seen;
    for (const auto& d : deps_of(nodes[i])) {
      auto it = producer.find(d);
      // A node reading its own output is the smallest cycle; the self-edge is skipped below
      // (so it must be caught here) or the node would run with that input never computed.
      if (it != producer.end() && it->second == i &&
          std::find(nodes[i].inputs.begin(), nodes[i].inputs.end(), d) != nodes[i].inputs.end()) {
        return Status::CorruptModel("graph has a cycle: node " + nodes[i].Label() +
                                    " reads its own output '" + d + "'");
      }
      if (it == producer.end() || it->second == i || !seen.insert(it->second).second) continue;
      ++pending[i];
      consumers[it->second].push_back(i);
    }
  }
  std::queue<size_t> ready;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<Node> sorted;
  sorted.reserve(nodes.size());
  std::vector<bool> done(nodes.size(), false);
  while (!ready.empty()) {
    size_t i = ready.front();
    ready.pop();
    done[i] = true;
    sorted.push_back(nodes[i]);
    for (size_t c : consumers[i])
      if (--pending[c] == 0) ready.push(c);
  }
  if (sorted.size() != nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i)
      if (!done[i])
        return Status::CorruptModel("graph has a cycle through node " + nodes[i].Label());
  }
  nodes = std::move(sorted);
  return Status::Ok();
}

std::vector<std::string> Graph::FreeValues() const {
  std::unordered_set<std::string> defined;
  for (const auto& v : inputs) defined.insert(v.name);
  for (const auto& [k, _] : initializers) defined.insert(k);
  for (const auto& n : nodes)
    for (const auto& o : n.outputs) defined.insert(o);
  std::vector<std::string> free;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& s) {
    if (!s.empty() && !defined.count(s) && seen.insert(s).second) free.push_back(s);
  };
  for (const auto& n : nodes) {
    for (const auto& in : n.inputs) add(in);
    for (const auto& [_, a] : n.attrs)
      if (a.g)
        for (const auto& f : a.g->FreeValues()) add(f);
  }
  for (const auto& o : outputs) add(o.name);
  return free;
}

}  // namespace trinity
