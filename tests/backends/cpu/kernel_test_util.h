// Runs one CPU kernel directly, without a model: the building block of per-op unit tests.
#pragma once

#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/dtype_dispatch.h"

namespace trinity::testing {

// Builds a node "op_type 'test'" with the given attributes and as many inputs/outputs as given,
// runs its CPU kernel on `inputs` (nullptr = omitted optional input) and returns the outputs.
inline Result<std::vector<Tensor>> RunKernel(const std::string& op_type,
                                             std::map<std::string, Attribute> attrs,
                                             const std::vector<const Tensor*>& inputs,
                                             size_t num_outputs = 1, int opset = 17,
                                             int threads = 1) {
  Node node;
  node.name = "test";
  node.op_type = op_type;
  node.attrs = std::move(attrs);
  for (size_t i = 0; i < inputs.size(); ++i) node.inputs.push_back(inputs[i] ? "in" + std::to_string(i) : "");
  for (size_t i = 0; i < num_outputs; ++i) node.outputs.push_back("out" + std::to_string(i));
  const KernelEntry* k = KernelRegistry::Cpu().Find(op_type);
  if (k == nullptr) return Status::Unsupported("no kernel " + op_type);
  ThreadPool pool(threads);
  KernelContext ctx(node, opset, inputs, num_outputs, &pool,
                    [](const Graph&, const std::vector<Tensor>&) -> Result<std::vector<Tensor>> {
                      return Status::Unsupported("no subgraphs in kernel unit tests");
                    });
  TRY_STATUS(k->run(ctx));
  return std::move(ctx.outputs());
}

inline Attribute IntAttr(int64_t v) { Attribute a; a.kind = Attribute::Kind::kInt; a.i = v; return a; }
inline Attribute FloatAttr(float v) { Attribute a; a.kind = Attribute::Kind::kFloat; a.f = v; return a; }
inline Attribute StringAttr(std::string v) { Attribute a; a.kind = Attribute::Kind::kString; a.s = std::move(v); return a; }
inline Attribute IntsAttr(std::vector<int64_t> v) { Attribute a; a.kind = Attribute::Kind::kInts; a.ints = std::move(v); return a; }
inline Attribute FloatsAttr(std::vector<float> v) { Attribute a; a.kind = Attribute::Kind::kFloats; a.floats = std::move(v); return a; }

inline Tensor F32(std::vector<int64_t> shape, const std::vector<float>& v) {
  return Tensor::FromVector(DType::kF32, std::move(shape), v);
}
inline Tensor I64(std::vector<int64_t> shape, const std::vector<int64_t>& v) {
  return Tensor::FromVector(DType::kI64, std::move(shape), v);
}

template <class T>
std::vector<T> ToVector(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

}  // namespace trinity::testing
