#include "trinity/model.h"

#include "graph/graph.h"
#include "import/onnx/onnx_importer.h"

namespace trinity {

std::string TensorInfo::Describe() const { return std::string(dtype_name(dtype)) + shape.ToString(); }

Model::Model(std::shared_ptr<const Graph> graph, std::string path)
    : graph_(std::move(graph)), path_(std::move(path)) {
  for (const auto& v : graph_->inputs) inputs_.push_back({v.name, v.dtype, v.shape});
  for (const auto& v : graph_->outputs) outputs_.push_back({v.name, v.dtype, v.shape});
}

Result<std::shared_ptr<const Model>> Model::Load(const std::string& path) {
  TRY_ASSIGN(Graph g, ImportOnnxFile(path));
  return std::shared_ptr<const Model>(std::make_shared<Model>(std::make_shared<Graph>(std::move(g)), path));
}

Result<std::shared_ptr<const Model>> Model::LoadFromMemory(const void* data, size_t size) {
  TRY_ASSIGN(Graph g, ImportOnnxModel(data, size));
  return std::shared_ptr<const Model>(std::make_shared<Model>(std::make_shared<Graph>(std::move(g)), ""));
}

int Model::opset() const { return graph_->opset(""); }

std::map<std::string, int> Model::OpHistogram() const {
  std::map<std::string, int> h;
  graph_->ForEachNode([&](const Node& n, const Graph&) { ++h[n.op_type]; });
  return h;
}

int64_t Model::ParameterCount() const {
  int64_t count = 0;
  std::function<void(const Graph&)> visit = [&](const Graph& g) {
    for (const auto& [_, t] : g.initializers) count += t.numel();
    for (const auto& n : g.nodes) {
      for (const auto& [_, a] : n.attrs) {
        if (a.kind == Attribute::Kind::kTensor && n.op_type == "Constant") count += a.t.numel();
        if (a.g) visit(*a.g);
      }
    }
  };
  visit(*graph_);
  return count;
}

}  // namespace trinity
