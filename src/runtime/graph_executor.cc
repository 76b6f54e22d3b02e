#include "runtime/graph_executor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>

namespace trinity {
namespace {

SupportQuery MakeQuery(const Node& node, const Graph& graph) {
  SupportQuery q{node, graph.opset(node.domain), {}, {}, {}};
  for (const auto& in : node.inputs) {
    auto v = in.empty() ? std::nullopt : graph.FindValue(in);
    q.input_types.push_back(v ? v->dtype : DType::kUndefined);
    auto init = in.empty() ? graph.initializers.end() : graph.initializers.find(in);
    bool overridden = false;
    for (const auto& gi : graph.inputs) overridden |= gi.name == in;
    q.constant_inputs.push_back(init != graph.initializers.end() && !overridden ? &init->second
                                                                                : nullptr);
  }
  for (const auto& out : node.outputs) {
    auto v = out.empty() ? std::nullopt : graph.FindValue(out);
    q.output_types.push_back(v ? v->dtype : DType::kUndefined);
  }
  return q;
}

}  // namespace

std::vector<UnsupportedNode> FindUnsupportedNodes(const Graph& graph,
                                                  const KernelRegistry& registry) {
  std::vector<UnsupportedNode> out;
  graph.ForEachNode([&](const Node& n, const Graph& owner) {
    OpSupport s = registry.Supports(MakeQuery(n, owner));
    if (!s.supported) out.push_back({n.Label(), s.reason});
  });
  return out;
}

int GraphExecutor::SlotOf(const std::string& name) {
  auto [it, inserted] = slot_of_.emplace(name, static_cast<int>(slot_names_.size()));
  if (inserted) {
    slot_names_.push_back(name);
    constants_.emplace_back();
  }
  return it->second;
}

Result<std::unique_ptr<GraphExecutor>> GraphExecutor::Create(
    const Graph& graph, const KernelRegistry& registry, ThreadPool* pool,
    const std::unordered_set<std::string>& outer_constants) {
  std::unique_ptr<GraphExecutor> ex(new GraphExecutor(graph, pool));
  const char* prof = std::getenv("TRINITY_PROFILE");
  ex->profile_ = prof != nullptr && prof[0] == '1';
  ex->outer_constants_ = outer_constants;
  TRY_STATUS(ex->Compile(registry));
  return ex;
}

GraphExecutor::~GraphExecutor() {
  if (!profile_ || runs_ == 0) return;
  std::map<std::string, std::pair<double, int>> by_op;
  double total = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    auto& e = by_op[steps_[i].node->op_type];
    e.first += step_seconds_[i];
    e.second += 1;
    total += step_seconds_[i];
  }
  std::vector<std::pair<std::string, std::pair<double, int>>> rows(by_op.begin(), by_op.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::fprintf(stderr, "profile of graph '%s': %lld run(s), %.4f ms per run in %zu steps\n",
               graph_.name.c_str(), static_cast<long long>(runs_), 1e3 * total / runs_,
               steps_.size());
  for (const auto& [op, e] : rows)
    std::fprintf(stderr, "  %-24s %4d nodes %9.4f ms/run %5.1f%%\n", op.c_str(), e.second,
                 1e3 * e.first / runs_, total > 0 ? 100 * e.first / total : 0.0);
  std::vector<size_t> order(steps_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return step_seconds_[a] > step_seconds_[b]; });
  std::fprintf(stderr, "  slowest nodes:\n");
  for (size_t i = 0; i < order.size() && i < 8; ++i)
    std::fprintf(stderr, "    %9.4f ms/run  %s\n", 1e3 * step_seconds_[order[i]] / runs_,
                 steps_[order[i]].node->Label().c_str());
}

bool GraphExecutor::IsConstantSlot(int s) const {
  if (constants_[static_cast<size_t>(s)].defined()) return true;
  for (const auto& [slot, name] : free_slots_)
    if (slot == s) return outer_constants_.count(name) != 0;
  return false;
}

std::unordered_set<std::string> GraphExecutor::VisibleConstants() const {
  // This graph's constants, plus enclosing ones that no local value shadows.
  std::unordered_set<std::string> names;
  for (const auto& [name, slot] : slot_of_)
    if (IsConstantSlot(slot)) names.insert(name);
  for (const auto& name : outer_constants_)
    if (!slot_of_.count(name)) names.insert(name);
  return names;
}

Status GraphExecutor::Compile(const KernelRegistry& registry) {
  for (const auto& in : graph_.inputs) input_slots_.push_back(SlotOf(in.name));
  for (const auto& [name, t] : graph_.initializers) {
    int s = SlotOf(name);
    // A graph input with the same name as an initializer overrides it (ONNX semantics).
    if (!constants_[static_cast<size_t>(s)].defined()) constants_[static_cast<size_t>(s)] = t;
  }
  for (const auto& in : graph_.inputs)
    constants_[static_cast<size_t>(slot_of_[in.name])] = Tensor();

  std::unordered_map<std::string, bool> defined;
  for (const auto& in : graph_.inputs) defined[in.name] = true;
  for (const auto& [name, _] : graph_.initializers) defined[name] = true;
  for (const auto& n : graph_.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) defined[o] = true;
  for (const auto& name : graph_.FreeValues())
    if (!defined.count(name)) free_slots_.emplace_back(SlotOf(name), name);

  std::vector<int> last_use;
  for (const Node& n : graph_.nodes) {
    SupportQuery q = MakeQuery(n, graph_);
    OpSupport s = registry.Supports(q);
    if (!s.supported) return Status::Unsupported(n.Label() + ": " + s.reason);
    Step step{&n, registry.Find(n.op_type, n.domain), q.opset, {}, {}, {}, {}};
    for (const auto& in : n.inputs) step.inputs.push_back(in.empty() ? -1 : SlotOf(in));
    for (const auto& out : n.outputs) step.outputs.push_back(out.empty() ? -1 : SlotOf(out));
    for (const auto& [_, a] : n.attrs) {
      if (!a.g) continue;
      auto sub = GraphExecutor::Create(*a.g, registry, pool_, VisibleConstants());
      if (!sub.ok()) return sub.status().WithContext(n.Label() + " subgraph");
      subgraphs_[a.g.get()] = std::move(sub).value();
    }
    steps_.push_back(std::move(step));
  }
  for (const auto& out : graph_.outputs) output_slots_.push_back(SlotOf(out.name));
  for (Step& step : steps_)
    for (int s : step.inputs) step.constant_inputs.push_back(s >= 0 && IsConstantSlot(s));

  // Release each intermediate after its last reader (a subgraph reads its free values
  // through the node that owns it). Inputs of the graph, constants and outputs are kept.
  last_use.assign(slot_names_.size(), -1);
  for (size_t i = 0; i < steps_.size(); ++i) {
    for (int s : steps_[i].inputs)
      if (s >= 0) last_use[static_cast<size_t>(s)] = static_cast<int>(i);
    for (const auto& [_, a] : steps_[i].node->attrs)
      if (a.g)
        for (const auto& f : a.g->FreeValues()) {
          auto it = slot_of_.find(f);
          if (it != slot_of_.end()) last_use[static_cast<size_t>(it->second)] = static_cast<int>(i);
        }
  }
  env_ = constants_;
  for (size_t s = 0; s < slot_names_.size(); ++s)
    if (!constants_[s].defined()) variable_slots_.push_back(static_cast<int>(s));
  std::vector<bool> keep(slot_names_.size(), false);
  for (int s : output_slots_) keep[static_cast<size_t>(s)] = true;
  for (size_t s = 0; s < slot_names_.size(); ++s) {
    if (keep[s] || constants_[s].defined() || last_use[s] < 0) continue;
    steps_[static_cast<size_t>(last_use[s])].release.push_back(static_cast<int>(s));
  }
  return Status::Ok();
}

Result<std::vector<Tensor>> GraphExecutor::Run(const std::vector<Tensor>& inputs,
                                               const OuterLookup* outer) {
  if (inputs.size() != input_slots_.size()) {
    return Status::InvalidArgument("graph '" + graph_.name + "' takes " +
                                   std::to_string(input_slots_.size()) + " inputs, got " +
                                   std::to_string(inputs.size()));
  }
  // The slot table lives across runs, so constants are not copied (shape vectors and all) on
  // every run; whatever a run leaves in the other slots is dropped when it returns.
  std::vector<Tensor>& env = env_;
  struct ClearOnExit {
    std::vector<Tensor>& env;
    const std::vector<int>& slots;
    ~ClearOnExit() {
      for (int s : slots) env[static_cast<size_t>(s)] = Tensor();
    }
  } clear_on_exit{env, variable_slots_};
  for (size_t i = 0; i < inputs.size(); ++i) env[static_cast<size_t>(input_slots_[i])] = inputs[i];
  for (const auto& [slot, name] : free_slots_) {
    const Tensor* t = outer ? (*outer)(name) : nullptr;
    if (t == nullptr)
      return Status::InvalidArgument("graph '" + graph_.name + "' reads undefined value '" + name +
                                     "'");
    env[static_cast<size_t>(slot)] = *t;
  }

  // Subgraphs see this graph's values (and, through it, every enclosing scope).
  OuterLookup lookup = [&](const std::string& name) -> const Tensor* {
    auto it = slot_of_.find(name);
    if (it != slot_of_.end() && env[static_cast<size_t>(it->second)].defined())
      return &env[static_cast<size_t>(it->second)];
    return outer ? (*outer)(name) : nullptr;
  };
  KernelContext::SubgraphRunner run_sub =
      [&](const Graph& g, const std::vector<Tensor>& in) -> Result<std::vector<Tensor>> {
    auto it = subgraphs_.find(&g);
    if (it == subgraphs_.end())
      return Status::Internal("subgraph '" + g.name + "' was not compiled");
    return it->second->Run(in, &lookup);
  };

  std::vector<const Tensor*> in_ptrs;
  if (profile_) {
    step_seconds_.resize(steps_.size());
    ++runs_;
  }
  for (size_t si = 0; si < steps_.size(); ++si) {
    const Step& step = steps_[si];
    const auto t0 = profile_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    in_ptrs.clear();
    for (int s : step.inputs) {
      const Tensor* t = s >= 0 ? &env[static_cast<size_t>(s)] : nullptr;
      if (t && !t->defined()) {
        return Status::Internal(step.node->Label() + ": input '" +
                                slot_names_[static_cast<size_t>(s)] + "' was not computed");
      }
      in_ptrs.push_back(t);
    }
    KernelContext ctx(*step.node, step.opset, std::move(in_ptrs), step.outputs.size(), pool_,
                      &run_sub);
    ctx.set_constant_inputs(&step.constant_inputs);
    Status st;
    try {
      st = step.kernel->run(ctx);
    } catch (const std::bad_alloc&) {
      st = Status::RuntimeError(step.node->Label() +
                                ": out of memory (or an output shape too large to allocate)");
    } catch (const std::exception& e) {
      st = Status::RuntimeError(step.node->Label() + ": " + e.what());
    }
    if (!st.ok()) return st;
    for (size_t i = 0; i < step.outputs.size(); ++i) {
      const int s = step.outputs[i];
      if (s < 0) continue;
      if (!ctx.output(i).defined()) {
        return Status::Internal(step.node->Label() + ": kernel did not produce output " +
                                std::to_string(i));
      }
      env[static_cast<size_t>(s)] = std::move(ctx.output(i));
    }
    for (int s : step.release) env[static_cast<size_t>(s)] = Tensor();
    in_ptrs = ctx.take_inputs();
    if (profile_)
      step_seconds_[si] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::vector<Tensor> outs;
  outs.reserve(output_slots_.size());
  for (size_t i = 0; i < output_slots_.size(); ++i) {
    const Tensor& t = env[static_cast<size_t>(output_slots_[i])];
    if (!t.defined())
      return Status::Internal("graph output '" + graph_.outputs[i].name + "' was not computed");
    outs.push_back(t);
  }
  return outs;
}

}  // namespace trinity
