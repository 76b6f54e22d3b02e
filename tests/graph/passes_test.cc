// Graph passes: constant folding, Conv+BatchNormalization and MatMul+Add fusion, dead-node
// removal. Graphs are built directly in the IR; numerical checks run the graph before and after
// a pass on the CPU executor with fixed-seed random data.
#include "graph/passes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel.h"
#include "core/thread_pool.h"
#include "graph_test_util.h"
#include "runtime/graph_executor.h"

namespace trinity {
namespace {

using namespace trinity::graph_test;  // NOLINT: the shared IR builders

// Evaluates nodes with the CPU kernels, as the session does when it folds constants.
NodeEvaluator CpuEvaluator(const Graph& graph, ThreadPool* pool, int* calls = nullptr) {
  return [&graph, pool, calls](
             const Node& n, const std::vector<const Tensor*>& in) -> Result<std::vector<Tensor>> {
    if (calls) ++*calls;
    const KernelEntry* k = KernelRegistry::Cpu().Find(n.op_type, n.domain);
    if (!k) return Status::Unsupported("no kernel for " + n.op_type);
    KernelContext ctx(n, graph.opset(n.domain), in, n.outputs.size(), pool,
                      [](const Graph&, const std::vector<Tensor>&) -> Result<std::vector<Tensor>> {
                        return Status::Unsupported("subgraph");
                      });
    TRY_STATUS(k->run(ctx));
    return std::move(ctx.outputs());
  };
}

// ---- FoldConstants --------------------------------------------------------------------------

// c = Constant([2, 2]); s = Add(a, b) (initializers); p = Mul(s, c); y = Mul(x, p), x an input.
// Everything but the last Mul is constant.
Graph FoldableGraph() {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2})};
  g.outputs = {F32Value("y", {2})};
  g.initializers["a"] = F32({2}, {1, 2});
  g.initializers["b"] = F32({2}, {3, 4});
  g.nodes.push_back(MakeNode("Constant", {}, {"c"}, {{"value", TensorAttr(F32({2}, {2, 2}))}}));
  g.nodes.push_back(MakeNode("Add", {"a", "b"}, {"s"}));
  g.nodes.push_back(MakeNode("Mul", {"s", "c"}, {"p"}));
  g.nodes.push_back(MakeNode("Mul", {"x", "p"}, {"y"}));
  return g;
}

TEST(FoldConstants, FoldsConstantSubgraphAndKeepsNodesFedByInputs) {
  Graph g = FoldableGraph();
  const Tensor x = F32({2}, {1, -1});
  const std::vector<Tensor> before = Execute(g, {x});
  ThreadPool pool(1);
  auto removed = FoldConstants(g, CpuEvaluator(g, &pool));
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(*removed, 3);  // Constant, Add, Mul(s, c)
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op_type, "Mul");
  EXPECT_EQ(g.nodes[0].inputs[0], "x");
  ASSERT_TRUE(g.initializers.count("p"));
  EXPECT_EQ(Values(g.initializers.at("p")), (std::vector<float>{8, 12}));  // (a + b) * 2
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(Values(after[0]), Values(before[0]));
  EXPECT_EQ(Values(after[0]), (std::vector<float>{8, -12}));
}

TEST(FoldConstants, InitializerOverriddenByGraphInputIsNotConstant) {
  // ONNX lets a graph input carry a default value in an initializer of the same name; the
  // caller may replace it, so nodes reading it must stay.
  Graph g = NewGraph();
  g.inputs = {F32Value("w", {2})};
  g.outputs = {F32Value("y", {2})};
  g.initializers["w"] = F32({2}, {1, 2});
  g.initializers["b"] = F32({2}, {3, 4});
  g.nodes.push_back(MakeNode("Add", {"w", "b"}, {"y"}));
  ThreadPool pool(1);
  auto removed = FoldConstants(g, CpuEvaluator(g, &pool));
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 0);
  EXPECT_EQ(g.nodes.size(), 1u);
}

TEST(FoldConstants, LeavesRandomOpsSubgraphsAndCustomDomainsAlone) {
  // Random ops must draw new values on every run, so they are never evaluated at load time;
  // control flow and custom-domain ops are beyond the single-node evaluator.
  Graph g = NewGraph();
  g.outputs = {F32Value("r", {3}), F32Value("rl", {2}), F32Value("z", {2}), F32Value("i", {2})};
  g.initializers["a"] = F32({2}, {1, 2});
  g.initializers["cond"] = Tensor::FromVector<uint8_t>(DType::kBool, {}, {1});
  auto branch = std::make_shared<Graph>(NewGraph());
  branch->outputs = {F32Value("bo", {2})};
  branch->nodes.push_back(MakeNode("Identity", {"a"}, {"bo"}));
  Attribute g_attr;
  g_attr.kind = Attribute::Kind::kGraph;
  g_attr.g = branch;
  g.nodes.push_back(
      MakeNode("If", {"cond"}, {"i"}, {{"then_branch", g_attr}, {"else_branch", g_attr}}));
  g.nodes.push_back(MakeNode("RandomUniform", {}, {"r"}, {{"shape", Ints({3})}}));
  g.nodes.push_back(MakeNode("RandomNormalLike", {"a"}, {"rl"}));
  Node custom = MakeNode("Relu", {"a"}, {"z"});
  custom.domain = "com.example";
  g.nodes.push_back(custom);
  int calls = 0;
  ThreadPool pool(1);
  auto removed = FoldConstants(g, CpuEvaluator(g, &pool, &calls));
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 0);
  EXPECT_EQ(calls, 0);  // not even evaluated
  EXPECT_EQ(g.nodes.size(), 4u);
}

TEST(FoldConstants, KeepsNodesWhoseEvaluationFails) {
  // The node fails again at run time, with its full context; folding must not hide or
  // replace that error.
  Graph g = NewGraph();
  g.outputs = {F32Value("y", {2})};
  g.initializers["a"] = F32({2}, {1, 2});
  g.nodes.push_back(MakeNode("Relu", {"a"}, {"y"}));
  ThreadPool pool(1);
  NodeEvaluator failing = [](const Node&,
                             const std::vector<const Tensor*>&) -> Result<std::vector<Tensor>> {
    return Status::RuntimeError("boom");
  };
  auto removed = FoldConstants(g, failing);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 0);
  EXPECT_EQ(g.nodes.size(), 1u);
}

TEST(FoldConstants, KeepsResultsThatWouldBloatMemory) {
  // Expand of a 1-element constant to 1000 elements: folding would store 4000 bytes instead of
  // 4, so with max_bytes = 100 it must stay; with the default limit it folds.
  auto make = [] {
    Graph g = NewGraph();
    g.outputs = {F32Value("y", {1000})};
    g.initializers["one"] = F32({1}, {1});
    g.initializers["shape"] = Tensor::FromVector<int64_t>(DType::kI64, {1}, {1000});
    g.nodes.push_back(MakeNode("Expand", {"one", "shape"}, {"y"}));
    return g;
  };
  ThreadPool pool(1);
  Graph small = make();
  auto r1 = FoldConstants(small, CpuEvaluator(small, &pool), /*max_bytes=*/100);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(*r1, 0);
  Graph big = make();
  auto r2 = FoldConstants(big, CpuEvaluator(big, &pool));
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(*r2, 1);
  EXPECT_EQ(big.initializers.at("y").numel(), 1000);
}

TEST(FoldConstants, FoldedGraphOutputIsStillReturned) {
  // Every node constant, including the one producing the graph output.
  Graph g = NewGraph();
  g.outputs = {F32Value("y", {2})};
  g.initializers["a"] = F32({2}, {-1, 2});
  g.nodes.push_back(MakeNode("Relu", {"a"}, {"y"}));
  ThreadPool pool(1);
  auto removed = FoldConstants(g, CpuEvaluator(g, &pool));
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 1);
  EXPECT_TRUE(g.nodes.empty());
  EXPECT_EQ(RemoveDeadNodes(g), 0);
  const std::vector<Tensor> out = Execute(g, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values(out[0]), (std::vector<float>{0, 2}));
}

// ---- FuseConvBatchNorm ----------------------------------------------------------------------

// x[1,4,8,8] -> Conv(w[4,4/group,3,3], optional bias, pad 1) -> BatchNormalization -> y.
Graph ConvBnGraph(std::mt19937& rng, bool conv_bias, int64_t group = 1) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 4, 8, 8})};
  g.outputs = {F32Value("y", {1, 4, 8, 8})};
  g.initializers["w"] = RandomF32({4, 4 / group, 3, 3}, rng);
  std::vector<std::string> conv_in = {"x", "w"};
  if (conv_bias) {
    g.initializers["b"] = RandomF32({4}, rng);
    conv_in.push_back("b");
  }
  g.initializers["scale"] = RandomF32({4}, rng, 0.5f, 2.f);
  g.initializers["shift"] = RandomF32({4}, rng);
  g.initializers["mean"] = RandomF32({4}, rng);
  g.initializers["var"] = RandomF32({4}, rng, 0.1f, 2.f);  // positive, as variances are
  g.nodes.push_back(
      MakeNode("Conv", conv_in, {"c"}, {{"pads", Ints({1, 1, 1, 1})}, {"group", Int(group)}}));
  g.nodes.push_back(MakeNode("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"y"}));
  return g;
}

TEST(FuseConvBatchNorm, MatchesUnfusedWithAndWithoutConvBias) {
  for (const bool conv_bias : {true, false}) {
    for (const int64_t group : {1, 2}) {
      SCOPED_TRACE(testing::Message() << "bias " << conv_bias << " group " << group);
      std::mt19937 rng(42);
      Graph g = ConvBnGraph(rng, conv_bias, group);
      const Tensor x = RandomF32({1, 4, 8, 8}, rng);
      const std::vector<Tensor> before = Execute(g, {x});
      EXPECT_EQ(FuseConvBatchNorm(g), 1);
      ASSERT_EQ(g.nodes.size(), 1u);
      EXPECT_EQ(g.nodes[0].op_type, "Conv");
      EXPECT_EQ(g.nodes[0].inputs.size(), 3u);
      EXPECT_EQ(g.nodes[0].outputs[0], "y");
      const std::vector<Tensor> after = Execute(g, {x});
      ASSERT_EQ(after.size(), 1u);
      // Folding the BN scale into the weights reorders float rounding only; 1e-5 relative
      // leaves room for that on sums of 36 products of values in [-2, 2].
      ExpectClose(after[0], before[0], 1e-5f);
    }
  }
}

TEST(FuseConvBatchNorm, DoesNotModifyTheOriginalWeights) {
  // Sessions copy the model's graph but share its weight bytes; the pass must write new
  // tensors, never scale the shared ones in place.
  std::mt19937 rng(7);
  Graph g = ConvBnGraph(rng, true);
  const std::vector<float> w = Values(g.initializers.at("w"));
  const std::vector<float> b = Values(g.initializers.at("b"));
  Graph copy = g;
  EXPECT_EQ(FuseConvBatchNorm(copy), 1);
  EXPECT_EQ(Values(g.initializers.at("w")), w);
  EXPECT_EQ(Values(g.initializers.at("b")), b);
}

TEST(FuseConvBatchNorm, CountsEachFusion) {
  // Two Conv+BN pairs in a row fuse into two Convs.
  std::mt19937 rng(3);
  Graph g = ConvBnGraph(rng, true);
  g.outputs = {F32Value("y2", {1, 4, 8, 8})};
  g.initializers["w2"] = RandomF32({4, 4, 3, 3}, rng);
  g.nodes.push_back(MakeNode("Conv", {"y", "w2"}, {"c2"}, {{"pads", Ints({1, 1, 1, 1})}}));
  g.nodes.push_back(
      MakeNode("BatchNormalization", {"c2", "scale", "shift", "mean", "var"}, {"y2"}));
  const Tensor x = RandomF32({1, 4, 8, 8}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(FuseConvBatchNorm(g), 2);
  EXPECT_EQ(CountOps(g, "Conv"), 2u);
  EXPECT_EQ(CountOps(g, "BatchNormalization"), 0u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  // The second layer sums rounding differences of the first (values up to ~|6| after BN with
  // var >= 0.1), and cancellation can leave an output much smaller than its terms, so the
  // bound is 1e-5 relative to the largest output rather than to each element.
  float largest = 1.f;
  for (float v : Values(before[0])) largest = std::max(largest, std::fabs(v));
  const std::vector<float> a = Values(after[0]), b = Values(before[0]);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_LE(std::fabs(a[i] - b[i]), 1e-5f * largest) << i;
}

TEST(FuseConvBatchNorm, SkipsWhenConvOutputIsAlsoUsedElsewhere) {
  std::mt19937 rng(1);
  Graph g = ConvBnGraph(rng, true);
  g.outputs.push_back(F32Value("c", {1, 4, 8, 8}));  // the un-normalised conv output is wanted
  EXPECT_EQ(FuseConvBatchNorm(g), 0);
  EXPECT_EQ(g.nodes.size(), 2u);
}

TEST(FuseConvBatchNorm, SkipsNonConstantStatisticsAndTrainingMode) {
  std::mt19937 rng(1);
  Graph g = ConvBnGraph(rng, true);
  g.inputs.push_back(F32Value("mean", {4}));  // overridable by the caller
  EXPECT_EQ(FuseConvBatchNorm(g), 0);

  Graph t = ConvBnGraph(rng, true);
  t.nodes[1].attrs["training_mode"] = Int(1);
  EXPECT_EQ(FuseConvBatchNorm(t), 0);
}

// ---- FuseMatMulAdd --------------------------------------------------------------------------

// y = MatMul(a, w) + bias (or bias + MatMul when bias_first), a an input of shape a_shape.
Graph MatMulAddGraph(std::mt19937& rng, std::vector<int64_t> a_shape, bool bias_first = false) {
  Graph g = NewGraph();
  std::vector<int64_t> y_shape = a_shape;
  y_shape.back() = 5;
  g.inputs = {F32Value("a", a_shape)};
  g.outputs = {F32Value("y", y_shape)};
  g.initializers["w"] = RandomF32({3, 5}, rng);
  g.initializers["bias"] = RandomF32({5}, rng);
  g.nodes.push_back(MakeNode("MatMul", {"a", "w"}, {"m"}));
  g.nodes.push_back(MakeNode(
      "Add",
      bias_first ? std::vector<std::string>{"bias", "m"} : std::vector<std::string>{"m", "bias"},
      {"y"}));
  return g;
}

TEST(FuseMatMulAdd, FusesTwoDimensionalInputWithConstantWeightAndBias) {
  for (const bool bias_first : {false, true}) {
    SCOPED_TRACE(bias_first ? "Add(bias, MatMul)" : "Add(MatMul, bias)");
    std::mt19937 rng(11);
    Graph g = MatMulAddGraph(rng, {4, 3}, bias_first);
    const Tensor a = RandomF32({4, 3}, rng);
    const std::vector<Tensor> before = Execute(g, {a});
    EXPECT_EQ(FuseMatMulAdd(g), 1);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].op_type, "Gemm");
    EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"a", "w", "bias"}));
    EXPECT_EQ(g.nodes[0].outputs[0], "y");
    const std::vector<Tensor> after = Execute(g, {a});
    ASSERT_EQ(after.size(), 1u);
    ExpectClose(after[0], before[0], 1e-5f);  // Gemm may sum in another order
  }
}

TEST(FuseMatMulAdd, SkipsBatchedInput) {
  // Gemm is 2-D only; a 3-D A must keep MatMul's batching.
  std::mt19937 rng(11);
  Graph g = MatMulAddGraph(rng, {2, 4, 3});
  EXPECT_EQ(FuseMatMulAdd(g), 0);
  EXPECT_EQ(CountOps(g, "MatMul"), 1u);
}

TEST(FuseMatMulAdd, SkipsInputOfUnknownRank) {
  std::mt19937 rng(11);
  Graph g = MatMulAddGraph(rng, {4, 3});
  g.inputs[0].shape = Shape{{}, false};
  EXPECT_EQ(FuseMatMulAdd(g), 0);
}

TEST(FuseMatMulAdd, SkipsNonConstantWeightOrBias) {
  std::mt19937 rng(11);
  Graph w_input = MatMulAddGraph(rng, {4, 3});
  w_input.initializers.erase("w");
  w_input.inputs.push_back(F32Value("w", {3, 5}));
  EXPECT_EQ(FuseMatMulAdd(w_input), 0);

  Graph b_input = MatMulAddGraph(rng, {4, 3});
  b_input.inputs.push_back(F32Value("bias", {5}));  // overrides the initializer
  EXPECT_EQ(FuseMatMulAdd(b_input), 0);
}

TEST(FuseMatMulAdd, SkipsBiasThatIsNotPerColumn) {
  // A [4,5] bias is a full matrix, not one value per output column.
  std::mt19937 rng(11);
  Graph g = MatMulAddGraph(rng, {4, 3});
  g.initializers["bias"] = RandomF32({4, 5}, rng);
  EXPECT_EQ(FuseMatMulAdd(g), 0);
}

TEST(FuseMatMulAdd, SkipsWhenMatMulOutputIsAlsoUsedElsewhere) {
  std::mt19937 rng(11);
  Graph g = MatMulAddGraph(rng, {4, 3});
  g.outputs.push_back(F32Value("m", {4, 5}));
  EXPECT_EQ(FuseMatMulAdd(g), 0);
}

// ---- RemoveDeadNodes ------------------------------------------------------------------------

TEST(RemoveDeadNodes, RemovesUnreadChainsAndTheirInitializers) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2})};
  g.outputs = {F32Value("y", {2})};
  g.initializers["k"] = F32({2}, {1, 1});
  g.initializers["unused"] = F32({2}, {5, 5});
  g.nodes.push_back(MakeNode("Relu", {"x"}, {"y"}));
  g.nodes.push_back(MakeNode("Add", {"x", "unused"}, {"d1"}));  // dead
  g.nodes.push_back(MakeNode("Neg", {"d1"}, {"d2"}));           // dead, and makes d1 look used
  g.nodes.push_back(MakeNode("Mul", {"x", "k"}, {"d3"}));       // dead
  EXPECT_EQ(RemoveDeadNodes(g), 3);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op_type, "Relu");
  EXPECT_TRUE(g.initializers.empty());
}

TEST(RemoveDeadNodes, KeepsNodesWithAtLeastOneUsedOutput) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {4})};
  g.outputs = {F32Value("a", {2})};
  g.initializers["split"] = Tensor::FromVector<int64_t>(DType::kI64, {2}, {2, 2});
  g.nodes.push_back(MakeNode("Split", {"x", "split"}, {"a", "b"}));
  EXPECT_EQ(RemoveDeadNodes(g), 0);
  EXPECT_EQ(g.nodes.size(), 1u);
  EXPECT_TRUE(g.initializers.count("split"));
}

TEST(RemoveDeadNodes, KeepsValuesReadBySubgraphs) {
  // An If branch reads "v" from the outer scope: its producer is live although no node of
  // the outer graph names "v" as an input.
  auto branch = std::make_shared<Graph>(NewGraph());
  branch->outputs = {F32Value("bo", {2})};
  branch->nodes.push_back(MakeNode("Identity", {"v"}, {"bo"}));
  Attribute g_attr;
  g_attr.kind = Attribute::Kind::kGraph;
  g_attr.g = branch;
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2}), {"cond", DType::kBool, Shape::FromConcrete({})}};
  g.outputs = {F32Value("y", {2})};
  g.nodes.push_back(MakeNode("Neg", {"x"}, {"v"}));
  g.nodes.push_back(
      MakeNode("If", {"cond"}, {"y"}, {{"then_branch", g_attr}, {"else_branch", g_attr}}));
  EXPECT_EQ(RemoveDeadNodes(g), 0);
  EXPECT_EQ(g.nodes.size(), 2u);
}

// ---- FuseConvActivation ---------------------------------------------------------------------

// x[1,4,8,8] -> Conv(w, b, pad 1) -> c -> act -> y, with c typed f32 (as shape inference does).
Graph ConvActGraph(std::mt19937& rng, const std::string& act,
                   std::vector<std::string> act_extra = {}) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 4, 8, 8})};
  g.outputs = {F32Value("y", {1, 4, 8, 8})};
  g.value_info["c"] = F32Value("c", {1, 4, 8, 8});
  g.initializers["w"] = RandomF32({4, 4, 3, 3}, rng);
  g.initializers["b"] = RandomF32({4}, rng);
  g.nodes.push_back(MakeNode("Conv", {"x", "w", "b"}, {"c"}, {{"pads", Ints({1, 1, 1, 1})}}));
  std::vector<std::string> act_in = {"c"};
  act_in.insert(act_in.end(), act_extra.begin(), act_extra.end());
  g.nodes.push_back(MakeNode(act, act_in, {"y"}));
  return g;
}

TEST(FuseConvActivation, ReluAndConstantClipMatchUnfused) {
  for (const std::string act : {"Relu", "Clip"}) {
    SCOPED_TRACE(act);
    std::mt19937 rng(11);
    Graph g = act == "Relu" ? ConvActGraph(rng, "Relu") : ConvActGraph(rng, "Clip", {"lo", "hi"});
    g.initializers["lo"] = F32({}, {-0.5f});
    g.initializers["hi"] = F32({}, {0.75f});
    const Tensor x = RandomF32({1, 4, 8, 8}, rng);
    const std::vector<Tensor> before = Execute(g, {x});
    EXPECT_EQ(FuseConvActivation(g), 1);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].outputs[0], "y");
    EXPECT_EQ(g.nodes[0].attr_float(kFusedMinAttr, 1.f), act == "Relu" ? 0.f : -0.5f);
    const std::vector<Tensor> after = Execute(g, {x});
    ASSERT_EQ(after.size(), 1u);
    // The clamp is exact; only the convolution's own rounding may differ (none expected).
    ExpectClose(after[0], before[0], 1e-6f);
  }
}

TEST(FuseConvActivation, SkipsClipWithRuntimeBoundsAndSharedConvOutput) {
  std::mt19937 rng(5);
  Graph g = ConvActGraph(rng, "Clip", {"lo"});
  g.inputs.push_back(F32Value("lo", {}));  // bound is a graph input: not constant
  EXPECT_EQ(FuseConvActivation(g), 0);

  Graph shared = ConvActGraph(rng, "Relu");
  shared.outputs.push_back(F32Value("c", {1, 4, 8, 8}));  // pre-activation value also returned
  EXPECT_EQ(FuseConvActivation(shared), 0);
}

}  // namespace
}  // namespace trinity
