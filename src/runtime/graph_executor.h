// Runs a Graph on the CPU kernels, node by node in topological order.
//
// Create() resolves every value name to a slot and every node to its kernel once, so a run does
// no string lookups. Intermediate tensors are released right after their last consumer runs.
// Subgraphs (If/Loop/Scan bodies) get executors of their own, created at Create() time; their
// outer-scope values are read from the running parent's slots.
//
// Threading: one Run() at a time per executor (kernels share the session's ThreadPool); the
// slot table is a member, reused by every run.
#pragma once

#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/cpu/kernel.h"
#include "graph/graph.h"

namespace trinity {

class GraphExecutor {
 public:
  // Looks up an outer-scope value by name (nullptr when unknown).
  using OuterLookup = std::function<const Tensor*(const std::string&)>;

  // Fails naming the first node no kernel supports (with the backend's reason).
  // outer_constants: names of enclosing-scope values that are model constants (for subgraphs).
  static Result<std::unique_ptr<GraphExecutor>> Create(
      const Graph& graph, const KernelRegistry& registry, ThreadPool* pool,
      const std::unordered_set<std::string>& outer_constants = {});

  // inputs: one per graph.inputs, in order. Returns one tensor per graph.outputs.
  Result<std::vector<Tensor>> Run(const std::vector<Tensor>& inputs,
                                  const OuterLookup* outer = nullptr);

  const Graph& graph() const { return graph_; }

  // With TRINITY_PROFILE=1 in the environment, every step is timed and the destructor prints
  // time per op type to stderr (a developer aid for finding where a model spends its time).
  ~GraphExecutor();

 private:
  struct Step {
    const Node* node;
    const KernelEntry* kernel;
    int opset;
    std::vector<int> inputs;            // slot per input, -1 when omitted
    std::vector<bool> constant_inputs;  // input is a model constant (see KernelContext)
    std::vector<int> outputs;           // slot per output, -1 when unwanted
    std::vector<int> release;           // slots whose last reader is this step
  };

  GraphExecutor(const Graph& g, ThreadPool* pool) : graph_(g), pool_(pool) {}
  Status Compile(const KernelRegistry& registry);
  int SlotOf(const std::string& name);
  // Whether slot s always holds a model constant (own initializer or constant outer value).
  bool IsConstantSlot(int s) const;
  std::unordered_set<std::string> VisibleConstants() const;

  const Graph& graph_;
  ThreadPool* pool_;
  std::unordered_map<std::string, int> slot_of_;
  std::vector<std::string> slot_names_;
  std::vector<Tensor> constants_;  // slot -> initializer (undefined for other slots)
  std::vector<Tensor> env_;        // slot -> value during a run; constants stay between runs
  std::vector<int> variable_slots_;  // slots that are not constants (cleared after each run)
  std::vector<int> input_slots_, output_slots_;
  std::vector<std::pair<int, std::string>> free_slots_;  // outer-scope values
  std::unordered_set<std::string> outer_constants_;      // enclosing-scope model constants
  std::vector<Step> steps_;
  std::unordered_map<const Graph*, std::unique_ptr<GraphExecutor>> subgraphs_;
  bool profile_ = false;
  std::vector<double> step_seconds_;  // per step, summed over runs (profile_ only)
  int64_t runs_ = 0;
};

// Collects why each node of a graph (and its subgraphs) is or is not supported.
struct UnsupportedNode {
  std::string label;
  std::string reason;
};
std::vector<UnsupportedNode> FindUnsupportedNodes(const Graph& graph,
                                                  const KernelRegistry& registry);

}  // namespace trinity
