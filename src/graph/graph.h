// Trinity's graph IR: nodes that consume and produce named values, as in ONNX, plus typed value
// declarations, constant initializers (which may live in a mapped file) and subgraphs for
// control flow. Backends, passes and the executor work on this IR, never on protobuf.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "trinity/shape.h"
#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

struct Graph;

struct Attribute {
  enum class Kind { kInt, kFloat, kString, kTensor, kGraph, kInts, kFloats, kStrings, kGraphs };
  Kind kind = Kind::kInt;
  int64_t i = 0;
  float f = 0.f;
  std::string s;
  Tensor t;
  std::shared_ptr<Graph> g;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> strings;
};

struct Node {
  std::string name;     // may be empty in the model; then the importer names it "<op>_<index>"
  std::string op_type;  // "Conv"
  std::string domain;   // "" for ai.onnx
  std::vector<std::string> inputs;   // "" marks an omitted optional input
  std::vector<std::string> outputs;  // "" marks an unwanted optional output
  std::map<std::string, Attribute> attrs;

  bool has_attr(const std::string& n) const { return attrs.count(n) != 0; }
  const Attribute* attr(const std::string& n) const;
  int64_t attr_int(const std::string& n, int64_t def) const;
  float attr_float(const std::string& n, float def) const;
  std::string attr_string(const std::string& n, const std::string& def) const;
  std::vector<int64_t> attr_ints(const std::string& n, std::vector<int64_t> def = {}) const;
  std::vector<float> attr_floats(const std::string& n, std::vector<float> def = {}) const;
  const Tensor* attr_tensor(const std::string& n) const;
  const Graph* attr_graph(const std::string& n) const;
  // "Conv 'conv1'": used in every message about the node.
  std::string Label() const;
};

struct ValueInfo {
  std::string name;
  DType dtype = DType::kUndefined;
  Shape shape{{}, false};
};

struct Graph {
  std::string name;
  std::vector<Node> nodes;  // topologically sorted after import
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::map<std::string, ValueInfo> value_info;  // types of intermediate values where known
  std::map<std::string, Tensor> initializers;   // constant weights
  std::map<std::string, int> opsets;            // domain -> version ("" is ai.onnx)

  int opset(const std::string& domain = "") const;
  // Type of any value (input, output, intermediate, initializer) when known.
  std::optional<ValueInfo> FindValue(const std::string& name) const;
  // Every node of this graph and of all nested subgraphs.
  void ForEachNode(const std::function<void(const Node&, const Graph&)>& fn) const;
  // Sorts nodes so each runs after its producers; fails naming a node in a cycle.
  Status TopologicalSort();
  // Names this graph consumes but does not define (outer-scope values of a subgraph).
  std::vector<std::string> FreeValues() const;
};

}  // namespace trinity
