// FuseHardSwish, FuseElementwiseChains, FusePadIntoConv and FuseLayerNorm: what they fuse, what
// they leave alone, and that the fused graph computes what the unfused one does (fixed-seed data).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>

#include "graph/passes.h"
#include "graph_test_util.h"

namespace trinity {
namespace {

using namespace trinity::graph_test;  // NOLINT: the shared IR builders

// Values spread over [-8, 8] so every clamp branch is taken.
Tensor Spread(std::vector<int64_t> shape, std::mt19937& rng) {
  return RandomF32(std::move(shape), rng, -8.f, 8.f);
}

void ExpectBitIdentical(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.shape(), b.shape());
  for (int64_t i = 0; i < a.numel(); ++i)
    ASSERT_EQ(a.data<float>()[i], b.data<float>()[i]) << "at " << i;
}

// y = x * Clip(x + 3, 0, 6) / 6, with `extra` also reading the Clip when asked.
Graph SpelledHardSwish(bool clip_read_twice) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2, 3, 40})};
  g.outputs = {F32Value("y", {2, 3, 40})};
  if (clip_read_twice) g.outputs.push_back(F32Value("c", {2, 3, 40}));
  g.initializers["three"] = F32({}, {3.f});
  g.initializers["zero"] = F32({}, {0.f});
  g.initializers["six"] = F32({}, {6.f});
  g.nodes.push_back(MakeNode("Add", {"x", "three"}, {"a"}));
  g.nodes.push_back(MakeNode("Clip", {"a", "zero", "six"}, {"c"}));
  g.nodes.push_back(MakeNode("Mul", {"x", "c"}, {"m"}));
  g.nodes.push_back(MakeNode("Div", {"m", "six"}, {"y"}));
  return g;
}

TEST(FuseHardSwish, FusesTheSpelledOutFormBitIdentically) {
  std::mt19937 rng(17);
  Graph g = SpelledHardSwish(false);
  const Tensor x = Spread({2, 3, 40}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(FuseHardSwish(g), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op_type, "HardSwish");
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectBitIdentical(after[0], before[0]);
}

TEST(FuseHardSwish, LeavesItWhenAnIntermediateIsReadElsewhere) {
  Graph g = SpelledHardSwish(true);
  EXPECT_EQ(FuseHardSwish(g), 0);
  EXPECT_EQ(g.nodes.size(), 4u);
}

// x -> Mul(2) -> Add(1) -> Relu -> Sub(5 - .) -> Div(. / 4) -> Clip(-1, 1) -> HardSigmoid -> y
Graph ArithmeticChain() {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {3, 1000})};
  g.outputs = {F32Value("y", {3, 1000})};
  g.initializers["two"] = F32({1}, {2.f});
  g.initializers["one"] = F32({}, {1.f});
  g.initializers["five"] = F32({}, {5.f});
  g.initializers["four"] = F32({}, {4.f});
  g.initializers["lo"] = F32({}, {-1.f});
  g.initializers["hi"] = F32({}, {1.f});
  g.nodes.push_back(MakeNode("Mul", {"two", "x"}, {"a"}));
  g.nodes.push_back(MakeNode("Add", {"a", "one"}, {"b"}));
  g.nodes.push_back(MakeNode("Relu", {"b"}, {"c"}));
  g.nodes.push_back(MakeNode("Sub", {"five", "c"}, {"d"}));
  g.nodes.push_back(MakeNode("Div", {"d", "four"}, {"e"}));
  g.nodes.push_back(MakeNode("Clip", {"e", "lo", "hi"}, {"f"}));
  g.nodes.push_back(MakeNode("HardSigmoid", {"f"}, {"y"}));
  return g;
}

TEST(FuseElementwiseChains, OneNodeBitIdenticalToTheOps) {
  std::mt19937 rng(23);
  Graph g = ArithmeticChain();
  const Tensor x = Spread({3, 1000}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(FuseElementwiseChains(g), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op_type, kElementwiseChainOp);
  EXPECT_EQ(g.nodes[0].attr_ints("steps").size(), 7u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectBitIdentical(after[0], before[0]);
}

// openWakeWord's embedding model: LeakyRelu then Max with a constant, both operand orders, and
// Min; NaN and -0 inputs must come out as the separate ops give them.
TEST(FuseElementwiseChains, LeakyReluMaxMinKeepTheOpsRounding) {
  std::mt19937 rng(29);
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {4, 500})};
  g.outputs = {F32Value("y", {4, 500})};
  g.initializers["lo"] = F32({}, {-0.5f});
  g.initializers["hi"] = F32({1}, {2.f});
  Attribute alpha;
  alpha.kind = Attribute::Kind::kFloat;
  alpha.f = 0.2f;
  g.nodes.push_back(MakeNode("LeakyRelu", {"x"}, {"a"}, {{"alpha", alpha}}));
  g.nodes.push_back(MakeNode("Max", {"a", "lo"}, {"b"}));
  g.nodes.push_back(MakeNode("Max", {"lo", "b"}, {"c"}));
  g.nodes.push_back(MakeNode("Min", {"c", "hi"}, {"d"}));
  g.nodes.push_back(MakeNode("Min", {"hi", "d"}, {"y"}));
  Tensor x = Spread({4, 500}, rng);
  x.data<float>()[7] = std::numeric_limits<float>::quiet_NaN();
  x.data<float>()[8] = -0.f;
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(FuseElementwiseChains(g), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float p = after[0].data<float>()[i], q = before[0].data<float>()[i];
    ASSERT_TRUE(std::memcmp(&p, &q, sizeof p) == 0 || (p != p && q != q)) << "at " << i;
  }
}

TEST(FuseElementwiseChains, StopsWhereAValueIsReadTwiceAndSkipsTensorOperands) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {4}), F32Value("z", {4})};
  g.outputs = {F32Value("y", {4}), F32Value("b", {4})};
  g.initializers["k"] = F32({}, {3.f});
  g.nodes.push_back(MakeNode("Mul", {"x", "k"}, {"a"}));
  g.nodes.push_back(MakeNode("Relu", {"a"}, {"b"}));  // b is also a graph output
  g.nodes.push_back(MakeNode("Add", {"b", "k"}, {"c"}));
  g.nodes.push_back(MakeNode("Add", {"c", "z"}, {"y"}));  // a tensor operand: not a step
  EXPECT_EQ(FuseElementwiseChains(g), 1);                 // Mul + Relu only
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].op_type, kElementwiseChainOp);
  EXPECT_EQ(g.nodes[0].outputs[0], "b");
}

// x -> Pad(zeros on H and W, asymmetric) -> Conv(pads 1) -> y, and a Pad that also pads the
// channel dim, which must stay.
Graph PadConv(std::mt19937& rng, std::vector<int64_t> pads) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {1, 3, 7, 8})};
  g.outputs = {F32Value("y", {})};
  g.initializers["w"] = RandomF32({4, 3, 3, 3}, rng);
  g.initializers["pads"] = Tensor::FromVector(DType::kI64, {8}, pads);
  g.nodes.push_back(MakeNode("Pad", {"x", "pads"}, {"p"}));
  g.nodes.push_back(MakeNode("Conv", {"p", "w"}, {"y"},
                             {{"pads", Ints({1, 1, 1, 1})}, {"strides", Ints({2, 2})}}));
  return g;
}

TEST(FusePadIntoConv, SpatialZeroPadBecomesConvPads) {
  std::mt19937 rng(31);
  Graph g = PadConv(rng, {0, 0, 0, 1, 0, 0, 1, 0});
  const Tensor x = RandomF32({1, 3, 7, 8}, rng);
  const std::vector<Tensor> before = Execute(g, {x});
  EXPECT_EQ(FusePadIntoConv(g), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].attr_ints("pads"), (std::vector<int64_t>{1, 2, 2, 1}));
  const std::vector<Tensor> after = Execute(g, {x});
  ASSERT_EQ(after.size(), 1u);
  ExpectClose(after[0], before[0], 1e-6f);
}

TEST(FusePadIntoConv, LeavesChannelPadsAlone) {
  std::mt19937 rng(37);
  Graph g = PadConv(rng, {0, 1, 0, 0, 0, 0, 0, 0});
  g.initializers["w"] = RandomF32({4, 4, 3, 3}, rng);
  EXPECT_EQ(FusePadIntoConv(g), 0);
  EXPECT_EQ(g.nodes.size(), 2u);
}

// The LayerNorm that PyTorch exports before opset 17 write out, with its affine.
Graph SpelledLayerNorm(std::mt19937& rng, bool affine) {
  Graph g = NewGraph();
  g.inputs = {F32Value("x", {2, 3, 16})};
  g.outputs = {F32Value("y", {2, 3, 16})};
  g.initializers["two"] = F32({}, {2.f});
  g.initializers["eps"] = F32({}, {1e-5f});
  g.initializers["gamma"] = RandomF32({16}, rng);
  g.initializers["beta"] = RandomF32({16}, rng);
  g.nodes.push_back(MakeNode("ReduceMean", {"x"}, {"m"}, {{"axes", Ints({-1})}}));
  g.nodes.push_back(MakeNode("Sub", {"x", "m"}, {"d"}));
  g.nodes.push_back(MakeNode("Pow", {"d", "two"}, {"p"}));
  g.nodes.push_back(MakeNode("ReduceMean", {"p"}, {"v"}, {{"axes", Ints({-1})}}));
  g.nodes.push_back(MakeNode("Add", {"v", "eps"}, {"e"}));
  g.nodes.push_back(MakeNode("Sqrt", {"e"}, {"s"}));
  g.nodes.push_back(MakeNode("Div", {"d", "s"}, {affine ? "n" : "y"}));
  if (affine) {
    g.nodes.push_back(MakeNode("Mul", {"n", "gamma"}, {"g"}));
    g.nodes.push_back(MakeNode("Add", {"g", "beta"}, {"y"}));
  }
  return g;
}

TEST(FuseLayerNorm, NineOpsBecomeOneLayerNormalization) {
  for (bool affine : {true, false}) {
    SCOPED_TRACE(affine ? "with scale and bias" : "bare");
    std::mt19937 rng(41);
    Graph g = SpelledLayerNorm(rng, affine);
    const Tensor x = RandomF32({2, 3, 16}, rng, -3.f, 5.f);
    const std::vector<Tensor> before = Execute(g, {x});
    EXPECT_EQ(FuseLayerNorm(g), 1);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].op_type, "LayerNormalization");
    EXPECT_EQ(g.nodes[0].inputs.size(), affine ? 3u : 2u);
    const std::vector<Tensor> after = Execute(g, {x});
    ASSERT_EQ(after.size(), 1u);
    // The fused kernel rounds its statistics differently: a few ulps.
    ExpectClose(after[0], before[0], 1e-5f);
  }
}

TEST(FuseLayerNorm, LeavesAMeanOverAnotherAxisAlone) {
  std::mt19937 rng(43);
  Graph g = SpelledLayerNorm(rng, true);
  g.nodes[0].attrs["axes"] = Ints({1});
  EXPECT_EQ(FuseLayerNorm(g), 0);
  EXPECT_EQ(g.nodes.size(), 9u);
}

}  // namespace
}  // namespace trinity
