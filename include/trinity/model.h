// Model: a loaded, validated model. Immutable once loaded, so one Model can back many sessions
// (on different devices, in different threads) that share its weights.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "trinity/shape.h"
#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

struct Graph;  // internal IR

struct TensorInfo {
  std::string name;
  DType dtype = DType::kUndefined;
  Shape shape;
  // "f32[1,3,batch,224]".
  std::string Describe() const;
};

class Model {
 public:
  // Loads an ONNX model. Weights stored as external data stay in a read-only file mapping.
  // Errors name what is wrong: missing file, truncated or corrupt bytes, unsupported IR
  // version or opset, unsupported dtype, a node reading a value nobody defines, absurd dims.
  static Result<std::shared_ptr<const Model>> Load(const std::string& path);
  static Result<std::shared_ptr<const Model>> LoadFromMemory(const void* data, size_t size);

  const std::string& path() const { return path_; }
  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  // The model's ai.onnx opset.
  int opset() const;
  // Number of nodes per op type, subgraphs included.
  std::map<std::string, int> OpHistogram() const;
  // Elements in all constant tensors (initializers and Constant nodes), subgraphs included.
  int64_t ParameterCount() const;

  // Internal: the IR, for sessions and tools inside Trinity.
  const Graph& graph() const { return *graph_; }

  explicit Model(std::shared_ptr<const Graph> graph, std::string path);

 private:
  std::shared_ptr<const Graph> graph_;
  std::string path_;
  std::vector<TensorInfo> inputs_, outputs_;
};

}  // namespace trinity
