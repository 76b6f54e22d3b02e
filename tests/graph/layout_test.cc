// The NHWC layout pass: which nodes it rewrites, where it puts transposes, and that the
// rewritten graph computes what the NCHW graph computes (CPU executor, fixed-seed data).
#include <gtest/gtest.h>

#include <random>

#include "graph/passes.h"
#include "graph_test_util.h"

namespace trinity {
namespace {

using namespace trinity::graph_test;  // NOLINT: the shared IR builders

Attribute Float(float v) {
  Attribute a;
  a.kind = Attribute::Kind::kFloat;
  a.f = v;
  return a;
}

size_t CountNhwc(const Graph& g) {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.attr_string(kLayoutAttr, "") == kLayoutNhwc;
  return n;
}

// x[1,3,9,11] -> Conv(pad 1) -> LeakyRelu -> MaxPool(3x3 s2 pad 1) -> Add(per-channel const)
//   -> Mul(x2) where x2 = Conv(1x1) of the same pooled value -> Concat(axis 1, with itself)
//   -> Pad(constant, H and W) -> Resize(linear, x2) -> AveragePool(2x2, count_include_pad)
//   -> GlobalAveragePool -> Flatten -> y; also z = Sigmoid(conv) as a second output.
Graph ChainGraph(std::mt19937& rng) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 3, 9, 11})};
  g.outputs = {F32Value("y", {1, 16}), F32Value("z", {1, 4, 9, 11})};
  g.initializers["w1"] = RandomF32({4, 3, 3, 3}, rng);
  g.initializers["b1"] = RandomF32({4}, rng);
  g.initializers["w2"] = RandomF32({4, 4, 1, 1}, rng);
  g.initializers["bias_c"] = RandomF32({4, 1, 1}, rng);
  g.initializers["pads"] =
      Tensor::FromVector(DType::kI64, {8}, std::vector<int64_t>{0, 0, 1, 0, 0, 0, 2, 1});
  g.initializers["scales"] = F32({4}, {1, 1, 2, 2});
  g.nodes.push_back(MakeNode("Conv", {"x", "w1", "b1"}, {"c1"}, {{"pads", Ints({1, 1, 1, 1})}}));
  g.nodes.push_back(MakeNode("LeakyRelu", {"c1"}, {"a1"}, {{"alpha", Float(0.1f)}}));
  g.nodes.push_back(MakeNode("Sigmoid", {"c1"}, {"z"}));
  g.nodes.push_back(MakeNode(
      "MaxPool", {"a1"}, {"p1"},
      {{"kernel_shape", Ints({3, 3})}, {"strides", Ints({2, 2})}, {"pads", Ints({1, 1, 1, 1})}}));
  g.nodes.push_back(MakeNode("Add", {"p1", "bias_c"}, {"s1"}));
  g.nodes.push_back(MakeNode("Conv", {"p1", "w2"}, {"c2"}));
  g.nodes.push_back(MakeNode("Mul", {"s1", "c2"}, {"m1"}));
  g.nodes.push_back(MakeNode("Concat", {"m1", "m1"}, {"cat"}, {{"axis", Int(1)}}));
  g.nodes.push_back(MakeNode("Pad", {"cat", "pads"}, {"pad"}));
  Attribute linear;
  linear.kind = Attribute::Kind::kString;
  linear.s = "linear";
  g.nodes.push_back(MakeNode("Resize", {"pad", "", "scales"}, {"rs"}, {{"mode", linear}}));
  g.nodes.push_back(MakeNode("AveragePool", {"rs"}, {"ap"},
                             {{"kernel_shape", Ints({2, 2})},
                              {"pads", Ints({1, 0, 1, 1})},
                              {"count_include_pad", Int(1)}}));
  g.nodes.push_back(MakeNode("GlobalAveragePool", {"ap"}, {"gap"}));
  g.nodes.push_back(MakeNode("Flatten", {"gap"}, {"y"}));
  return g;
}

TEST(ConvertToNhwc, RewritesTheChainAndMatchesNchw) {
  std::mt19937 rng(5);
  Graph g = ChainGraph(rng);
  const Tensor x = RandomF32({1, 3, 9, 11}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  ASSERT_EQ(before.size(), 2u);

  // Conv, LeakyRelu, Sigmoid, MaxPool, Add, Conv, Mul, Concat, Pad, Resize, AveragePool,
  // GlobalAveragePool: everything but Flatten.
  EXPECT_EQ(ConvertToNhwc(g), 12);
  EXPECT_EQ(CountNhwc(g), 12u);
  // One transpose in (x), one out before Flatten, one out for the output z.
  EXPECT_EQ(CountOps(g, "Transpose"), 3u);
  ASSERT_TRUE(g.TopologicalSort().ok());

  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 2u);
  ExpectClose(after[0], before[0], 1e-5f);
  ExpectClose(after[1], before[1], 1e-5f);
}

TEST(ConvertToNhwc, LeavesGraphsWithoutConvAlone) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 2, 3, 3})};
  g.outputs = {F32Value("y", {1, 2, 3, 3})};
  g.nodes.push_back(MakeNode("Relu", {"x"}, {"y"}));
  EXPECT_EQ(ConvertToNhwc(g), 0);
  EXPECT_EQ(g.nodes.size(), 1u);
}

// An op the pass does not know (Softmax over axis 1) reads the conv output in NCHW: one
// transpose back, and the result is unchanged.
TEST(ConvertToNhwc, UnknownConsumerGetsNchwBack) {
  std::mt19937 rng(9);
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2, 3, 5, 4})};
  g.outputs = {F32Value("y", {2, 6, 5, 4})};
  g.initializers["w"] = RandomF32({6, 3, 3, 3}, rng);
  g.nodes.push_back(MakeNode("Conv", {"x", "w"}, {"c"}, {{"pads", Ints({1, 1, 1, 1})}}));
  g.nodes.push_back(MakeNode("Softmax", {"c"}, {"y"}, {{"axis", Int(1)}}));
  const Tensor x = RandomF32({2, 3, 5, 4}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(ConvertToNhwc(g), 1);
  EXPECT_EQ(CountOps(g, "Transpose"), 2u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectClose(after[0], before[0], 1e-5f);
}

// A tf2onnx-style model: NHWC input, Transpose to NCHW, Conv, Transpose back to NHWC. The
// model's own transposes cancel against the pass's: no data is transposed at run time.
TEST(ConvertToNhwc, ModelTransposesCancel) {
  std::mt19937 rng(3);
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 6, 7, 3})};
  g.outputs = {F32Value("y", {1, 6, 7, 5})};
  g.initializers["w"] = RandomF32({5, 3, 3, 3}, rng);
  g.value_info["t"] = F32Value("t", {1, 3, 6, 7});
  g.value_info["c"] = F32Value("c", {1, 5, 6, 7});
  g.nodes.push_back(MakeNode("Transpose", {"x"}, {"t"}, {{"perm", Ints({0, 3, 1, 2})}}));
  g.nodes.push_back(MakeNode("Conv", {"t", "w"}, {"c"}, {{"pads", Ints({1, 1, 1, 1})}}));
  g.nodes.push_back(MakeNode("Transpose", {"c"}, {"y"}, {{"perm", Ints({0, 2, 3, 1})}}));
  const Tensor x = RandomF32({1, 6, 7, 3}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(ConvertToNhwc(g), 1);
  EXPECT_EQ(RemoveDeadNodes(g), 1);  // the model's first Transpose
  EXPECT_EQ(CountOps(g, "Transpose"), 0u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectClose(after[0], before[0], 1e-5f);
}

// ConvTranspose (stride 2, output padding) joins the chain as PP-OCR det's upsampling does.
TEST(ConvertToNhwc, ConvTransposeRunsInNhwc) {
  std::mt19937 rng(13);
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 4, 5, 6})};
  g.outputs = {F32Value("y", {1, 3, 12, 14})};
  g.initializers["w"] = RandomF32({4, 3, 3, 3}, rng);
  g.initializers["b"] = RandomF32({3}, rng);
  g.nodes.push_back(MakeNode(
      "ConvTranspose", {"x", "w", "b"}, {"d"},
      {{"strides", Ints({2, 2})}, {"pads", Ints({0, 0, 0, 0})}, {"output_padding", Ints({1, 1})}}));
  g.nodes.push_back(MakeNode("Relu", {"d"}, {"y"}));
  const Tensor x = RandomF32({1, 4, 5, 6}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(ConvertToNhwc(g), 2);
  EXPECT_EQ(CountOps(g, "Transpose"), 2u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectClose(after[0], before[0], 1e-5f);
}

}  // namespace
}  // namespace trinity
