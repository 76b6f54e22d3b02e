// IR builders and numeric helpers shared by the graph pass tests: graphs are built directly in
// the IR and run on the CPU executor with fixed-seed random data.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel.h"
#include "core/thread_pool.h"
#include "graph/graph.h"
#include "runtime/graph_executor.h"

namespace trinity::graph_test {

inline Node MakeNode(const std::string& op, std::vector<std::string> inputs,
                     std::vector<std::string> outputs,
                     std::map<std::string, Attribute> attrs = {}) {
  Node n;
  n.op_type = op;
  n.name = op + "_" + outputs.at(0);
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.attrs = std::move(attrs);
  return n;
}

inline ValueInfo F32Value(const std::string& name, const std::vector<int64_t>& shape) {
  return {name, DType::kF32, Shape::FromConcrete(shape)};
}

inline Attribute Ints(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::kInts;
  a.ints = std::move(v);
  return a;
}

inline Attribute Int(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = v;
  return a;
}

inline Attribute TensorAttr(Tensor t) {
  Attribute a;
  a.kind = Attribute::Kind::kTensor;
  a.t = std::move(t);
  return a;
}

inline Graph NewGraph() {
  Graph g;
  g.name = "test";
  g.opsets[""] = 17;
  return g;
}

inline Tensor F32(std::vector<int64_t> shape, std::vector<float> v) {
  return Tensor::FromVector(DType::kF32, std::move(shape), v);
}

// Uniform values in [lo, hi) from a fixed-seed generator, so failures reproduce.
inline Tensor RandomF32(std::vector<int64_t> shape, std::mt19937& rng, float lo = -1.f,
                        float hi = 1.f) {
  Tensor t = Tensor::Empty(DType::kF32, std::move(shape));
  std::uniform_real_distribution<float> dist(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(rng);
  return t;
}

inline std::vector<float> Values(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

inline std::vector<Tensor> Execute(const Graph& g, const std::vector<Tensor>& inputs) {
  ThreadPool pool(1);
  auto ex = GraphExecutor::Create(g, KernelRegistry::Cpu(), &pool);
  EXPECT_TRUE(ex.ok()) << ex.status().ToString();
  if (!ex.ok()) return {};
  auto out = (*ex)->Run(inputs);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? *out : std::vector<Tensor>{};
}

// |a - b| <= tol * max(1, |b|): absolute near zero, relative for large values.
inline void ExpectClose(const Tensor& a, const Tensor& b, float tol) {
  ASSERT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.dtype(), DType::kF32);
  for (int64_t i = 0; i < a.numel(); ++i) {
    const float x = a.data<float>()[i], y = b.data<float>()[i];
    ASSERT_LE(std::fabs(x - y), tol * std::max(1.f, std::fabs(y))) << "at " << i;
  }
}

inline size_t CountOps(const Graph& g, const std::string& op) {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.op_type == op;
  return n;
}

}  // namespace trinity::graph_test
