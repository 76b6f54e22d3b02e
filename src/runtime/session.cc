#include "trinity/session.h"

#include <thread>

#include "backends/cpu/kernel.h"
#include "graph/passes.h"
#include "runtime/graph_executor.h"
#include "trinity/device.h"

namespace trinity {

struct Session::Impl {
  Graph graph;  // optimised copy; weights are shared with the Model's graph
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<GraphExecutor> executor;
  // Host byte ranges of the graph's constants (shared with the Model and its other sessions).
  std::vector<std::pair<const char*, const char*>> constant_ranges;
};

Session::Session(std::shared_ptr<const Model> model, SessionOptions options)
    : model_(std::move(model)), options_(std::move(options)), impl_(std::make_unique<Impl>()) {}

Session::~Session() = default;

size_t Session::num_nodes() const { return impl_->graph.nodes.size(); }

namespace {

Status Optimize(Graph& graph, ThreadPool* pool) {
  const KernelRegistry& reg = KernelRegistry::Cpu();
  NodeEvaluator eval = [&](const Node& n,
                           const std::vector<const Tensor*>& in) -> Result<std::vector<Tensor>> {
    const KernelEntry* k = reg.Find(n.op_type, n.domain);
    if (!k) return Status::Unsupported("no kernel");
    KernelContext ctx(n, graph.opset(n.domain), in, n.outputs.size(), pool,
                      [](const Graph&, const std::vector<Tensor>&) -> Result<std::vector<Tensor>> {
                        return Status::Unsupported("subgraph");
                      });
    try {
      TRY_STATUS(k->run(ctx));
    } catch (const std::exception& e) {
      return Status::RuntimeError(e.what());
    }
    for (size_t i = 0; i < n.outputs.size(); ++i)
      if (!n.outputs[i].empty() && !ctx.output(i).defined())
        return Status::Internal("missing output");
    return std::move(ctx.outputs());
  };
  TRY_ASSIGN(int folded, FoldConstants(graph, eval));
  (void)folded;
  FuseConvBatchNorm(graph);
  FusePadIntoConv(graph);
  FuseHardSwish(graph);
  FuseLayerNorm(graph);
  FuseConvActivation(graph);
  FuseMatMulAdd(graph);
  FuseElementwiseChains(graph);
  ConvertToNhwc(graph);
  RemoveDeadNodes(graph);
  // Bodies of If/Loop/Scan get the same treatment: their Constant nodes become initializers,
  // so kernels see them as constants (and can cache prepared weights) instead of re-running
  // them on every call. Subgraphs are shared with the Model, so each is copied first.
  // Outer-scope values a body reads that are constants here become the body's own
  // initializers, so constant chains that cross the boundary fold too.
  for (Node& n : graph.nodes) {
    for (auto& [_, a] : n.attrs) {
      if (!a.g) continue;
      a.g = std::make_shared<Graph>(*a.g);
      for (const std::string& name : a.g->FreeValues()) {
        auto it = graph.initializers.find(name);
        bool is_input = false;
        for (const auto& in : graph.inputs) is_input |= in.name == name;
        if (it != graph.initializers.end() && !is_input)
          a.g->initializers.emplace(name, it->second);
      }
      TRY_STATUS(Optimize(*a.g, pool));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Session>> Session::Create(std::shared_ptr<const Model> model,
                                                 const SessionOptions& options) {
  if (!model) return Status::InvalidArgument("Session::Create: model is null");
  if (options.device != "cpu") {
    std::string ids;
    for (const auto& d : ListDevices()) ids += (ids.empty() ? "" : ", ") + d.id;
    return Status::NotFound("device '" + options.device + "' is not available (available: " + ids +
                            ")");
  }
  if (options.num_threads < 0) return Status::InvalidArgument("num_threads must be >= 0");
  std::unique_ptr<Session> s(new Session(model, options));
  const int threads = options.num_threads > 0
                          ? options.num_threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s->impl_->pool = std::make_unique<ThreadPool>(threads);
  s->impl_->graph = model->graph();
  // Refuse unsupported nodes before optimising, so errors name the model's own nodes.
  auto refused = FindUnsupportedNodes(s->impl_->graph, KernelRegistry::Cpu());
  if (!refused.empty()) {
    std::string msg = "device cpu cannot run " + std::to_string(refused.size()) + " node(s):";
    for (size_t i = 0; i < refused.size() && i < 10; ++i)
      msg += "\n  " + refused[i].label + ": " + refused[i].reason;
    return Status::Unsupported(msg);
  }
  if (options.optimize) TRY_STATUS(Optimize(s->impl_->graph, s->impl_->pool.get()));
  TRY_ASSIGN(s->impl_->executor,
             GraphExecutor::Create(s->impl_->graph, KernelRegistry::Cpu(), s->impl_->pool.get()));
  for (const auto& [_, t] : s->impl_->graph.initializers) {
    const char* p = static_cast<const char*>(t.raw_data());
    if (p != nullptr && t.nbytes() > 0) s->impl_->constant_ranges.emplace_back(p, p + t.nbytes());
  }
  return s;
}

Result<std::map<std::string, Tensor>> Session::Run(const std::map<std::string, Tensor>& inputs) {
  const auto& declared = model_->inputs();
  for (const auto& [name, _] : inputs) {
    bool known = false;
    for (const auto& d : declared) known |= d.name == name;
    if (!known) {
      std::string names;
      for (const auto& d : declared) names += (names.empty() ? "" : ", ") + d.name;
      return Status::InvalidArgument("unknown input '" + name + "' (model inputs: " + names + ")");
    }
  }
  std::vector<Tensor> ordered;
  ordered.reserve(declared.size());
  for (const auto& d : declared) {
    auto it = inputs.find(d.name);
    if (it == inputs.end())
      return Status::InvalidArgument("missing input '" + d.name + "' (" + d.Describe() + ")");
    const Tensor& t = it->second;
    if (t.raw_data() == nullptr && t.numel() > 0) {
      return Status::InvalidArgument("input '" + d.name + "' has no host-readable data");
    }
    if ((d.dtype != DType::kUndefined && t.dtype() != d.dtype) || !d.shape.Matches(t.shape())) {
      return Status::InvalidArgument("input '" + d.name + "': expected " + d.Describe() + ", got " +
                                     t.Describe());
    }
    ordered.push_back(t);
  }
  TRY_ASSIGN(auto outs, impl_->executor->Run(ordered));
  std::map<std::string, Tensor> result;
  // The caller owns the outputs and may write to them: an output that is (a view of) a constant
  // is copied, so that writing to it cannot change the weights (or fault on mapped ones).
  auto aliases_constant = [&](const Tensor& t) {
    const char* p = static_cast<const char*>(t.raw_data());
    if (p == nullptr || t.nbytes() == 0) return false;
    for (const auto& [begin, end] : impl_->constant_ranges)
      if (p < end && begin < p + t.nbytes()) return true;
    return false;
  };
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor& t = outs[i];
    result[impl_->graph.outputs[i].name] = aliases_constant(t) ? t.Clone() : std::move(t);
  }
  return result;
}

}  // namespace trinity
