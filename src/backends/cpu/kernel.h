// The CPU backend's kernel interface. One kernel per ONNX op type; each op family lives in its
// own ops_<family>.cc and registers its kernels in a Register<Family>Ops(KernelRegistry&) call.
//
// A kernel reads inputs, reads attributes from the node, allocates its outputs (shapes are
// computed at run time, so dynamic dims just work) and returns a Status whose message names the
// problem. Kernels may throw std::bad_alloc (Tensor::Empty); the executor turns it into a Status.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/thread_pool.h"
#include "graph/graph.h"
#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

// What supports() sees: the node, the model's opset for its domain, and the input/output dtypes
// where shape inference knows them (kUndefined otherwise).
struct SupportQuery {
  const Node& node;
  int opset;
  std::vector<DType> input_types;
  std::vector<DType> output_types;
  // The value of each input that is a constant of the model (an initializer), else nullptr.
  // Lets a backend accept, say, a Dropout whose training_mode is a constant false.
  std::vector<const Tensor*> constant_inputs;
  const Tensor* constant_input(size_t i) const {
    return i < constant_inputs.size() ? constant_inputs[i] : nullptr;
  }
  DType input_type(size_t i) const {
    return i < input_types.size() ? input_types[i] : DType::kUndefined;
  }
  DType output_type(size_t i) const {
    return i < output_types.size() ? output_types[i] : DType::kUndefined;
  }
};

// Either "yes" or "no, because ...".
struct OpSupport {
  bool supported = true;
  std::string reason;
  static OpSupport Yes() { return {}; }
  static OpSupport No(std::string why) { return {false, std::move(why)}; }
};

class KernelContext {
 public:
  using SubgraphRunner =
      std::function<Result<std::vector<Tensor>>(const Graph&, const std::vector<Tensor>&)>;

  KernelContext(const Node& node, int opset, std::vector<const Tensor*> inputs, size_t num_outputs,
                ThreadPool* pool, SubgraphRunner run_subgraph)
      : node_(node),
        opset_(opset),
        inputs_(std::move(inputs)),
        outputs_(num_outputs),
        pool_(pool),
        owned_runner_(std::move(run_subgraph)),
        run_subgraph_(&owned_runner_) {}
  // The executor's form: borrows the runner (it outlives the context), so building a context
  // per node costs no std::function copy.
  KernelContext(const Node& node, int opset, std::vector<const Tensor*> inputs, size_t num_outputs,
                ThreadPool* pool, const SubgraphRunner* run_subgraph)
      : node_(node),
        opset_(opset),
        inputs_(std::move(inputs)),
        outputs_(num_outputs),
        pool_(pool),
        run_subgraph_(run_subgraph) {}
  KernelContext(const KernelContext&) = delete;
  KernelContext& operator=(const KernelContext&) = delete;

  const Node& node() const { return node_; }
  int opset() const { return opset_; }

  size_t num_inputs() const { return inputs_.size(); }
  // nullptr when the optional input is omitted (or i is past the end).
  const Tensor* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  bool has_input(size_t i) const { return input(i) != nullptr; }

  size_t num_outputs() const { return outputs_.size(); }
  // False for an optional output the model does not use; kernels may skip computing it.
  bool output_wanted(size_t i) const {
    return i < node_.outputs.size() && !node_.outputs[i].empty();
  }
  void set_output(size_t i, Tensor t) { outputs_[i] = std::move(t); }
  Tensor& output(size_t i) { return outputs_[i]; }
  std::vector<Tensor>& outputs() { return outputs_; }

  // True when input i is a constant of the model (an initializer or folded value): its bytes
  // never change while the session lives, so kernels may cache work derived from it (packed
  // or transposed weights) keyed by its address. Set by the executor; false by default.
  bool input_is_constant(size_t i) const {
    return constant_inputs_ != nullptr && i < constant_inputs_->size() && (*constant_inputs_)[i];
  }
  // `flags` must outlive the context (the executor's per-step table does).
  void set_constant_inputs(const std::vector<bool>* flags) { constant_inputs_ = flags; }
  // Hands the input pointer vector back (the executor reuses its storage for the next node).
  std::vector<const Tensor*> take_inputs() { return std::move(inputs_); }

  ThreadPool& pool() const { return *pool_; }
  // Runs a subgraph (If/Loop/Scan bodies) with the given inputs; outer-scope values resolve
  // to the enclosing graph's values.
  Result<std::vector<Tensor>> RunSubgraph(const Graph& g, const std::vector<Tensor>& inputs) const {
    return (*run_subgraph_)(g, inputs);
  }

  // An error that names the node: "Conv 'conv1': <msg>".
  Status Error(const std::string& msg) const {
    return Status::InvalidArgument(node_.Label() + ": " + msg);
  }
  Status Unsupported(const std::string& msg) const {
    return Status::Unsupported(node_.Label() + ": " + msg);
  }

 private:
  const Node& node_;
  int opset_;
  std::vector<const Tensor*> inputs_;
  std::vector<Tensor> outputs_;
  const std::vector<bool>* constant_inputs_ = nullptr;
  ThreadPool* pool_;
  SubgraphRunner owned_runner_;
  const SubgraphRunner* run_subgraph_;
};

using KernelFn = std::function<Status(KernelContext&)>;
using SupportFn = std::function<OpSupport(const SupportQuery&)>;

struct KernelEntry {
  KernelFn run;
  SupportFn supports;  // empty means "every instance is supported"
};

class KernelRegistry {
 public:
  // Registers the kernel for op_type in the ai.onnx domain (or `domain`).
  void Register(const std::string& op_type, KernelFn run, SupportFn supports = {},
                const std::string& domain = "");
  const KernelEntry* Find(const std::string& op_type, const std::string& domain = "") const;
  // Is this node runnable? Unknown op types get "no kernel for op X".
  OpSupport Supports(const SupportQuery& q) const;
  std::vector<std::string> OpTypes() const;

  // The registry with every CPU kernel.
  static const KernelRegistry& Cpu();

 private:
  std::map<std::string, KernelEntry> entries_;  // key: domain + "::" + op_type
};

// One call per op family; each is defined in its ops_<family>.cc.
void RegisterElementwiseOps(KernelRegistry& r);  // ops_elementwise.cc
void RegisterShapeOps(KernelRegistry& r);        // ops_shape.cc (tensor manipulation)
void RegisterReductionOps(KernelRegistry& r);    // ops_reduction.cc (reduce, softmax, norms)
void RegisterNnOps(KernelRegistry& r);           // ops_nn.cc (conv, gemm, pooling: XNNPACK)
void RegisterControlFlowOps(KernelRegistry& r);  // ops_control_flow.cc (If, Loop, Scan)
void RegisterMiscOps(KernelRegistry& r);         // ops_misc.cc (RNNs, signal, quantization...)

// Helpers shared by kernels.
// Normalises a possibly negative axis against rank; fails naming the node when out of range.
Result<int64_t> NormalizeAxis(const KernelContext& ctx, int64_t axis, int64_t rank);
// Reads a 1-D integer tensor (i32 or i64) into int64 values.
Result<std::vector<int64_t>> ReadInts(const KernelContext& ctx, const Tensor& t, const char* what);
// Numpy-style broadcast of two shapes; fails naming both shapes.
Result<std::vector<int64_t>> BroadcastShapes(const KernelContext& ctx,
                                             const std::vector<int64_t>& a,
                                             const std::vector<int64_t>& b);
// ONNX TensorProto.DataType code (Cast 'to', EyeLike 'dtype', window 'output_datatype') to a
// DType; kUndefined for string, complex, float8 and unknown codes.
DType DTypeFromOnnxCode(int64_t code);
// Row-major strides of a shape, and strides of `in` broadcast to `out` (0 on broadcast dims).
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape);
std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out);

}  // namespace trinity
