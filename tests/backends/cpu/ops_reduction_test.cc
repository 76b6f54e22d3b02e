// Unit tests of the reduction family: Reduce*, softmax family, normalisations, losses, Einsum,
// Det. Tolerances: 1e-5 absolute for f32 results unless stated.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

constexpr float kTol = 1e-5f;

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol = kTol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

std::vector<float> Iota(int n, float start = 1.f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<float>(i);
  return v;
}

// ---- Reduce ----

TEST(ReduceTest, SumAxesAttributeKeepdims) {
  Tensor x = F32({2, 3}, Iota(6));
  auto r = RunKernel("ReduceSum", {{"axes", IntsAttr({1})}}, {&x}, 1, 11);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{2, 1}));
  ExpectNear(ToVector<float>((*r)[0]), {6, 15});
}

TEST(ReduceTest, SumAxesInputFromOpset13) {
  Tensor x = F32({2, 3}, Iota(6));
  Tensor axes = I64({1}, {0});
  auto r = RunKernel("ReduceSum", {{"keepdims", IntAttr(0)}}, {&x, &axes}, 1, 13);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{3}));
  ExpectNear(ToVector<float>((*r)[0]), {5, 7, 9});
}

TEST(ReduceTest, EmptyAxesReducesAllOrIsNoop) {
  Tensor x = F32({2, 3}, Iota(6));
  Tensor axes = I64({0}, {});
  auto all = RunKernel("ReduceSum", {{"keepdims", IntAttr(0)}}, {&x, &axes}, 1, 13);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)[0].rank(), 0u);
  ExpectNear(ToVector<float>((*all)[0]), {21});
  auto noop = RunKernel("ReduceSum", {{"noop_with_empty_axes", IntAttr(1)}}, {&x, &axes}, 1, 13);
  ASSERT_TRUE(noop.ok());
  ExpectNear(ToVector<float>((*noop)[0]), Iota(6));
}

TEST(ReduceTest, NonAdjacentAxesAndKinds) {
  // [2, 3, 4] reduced over axes 0 and 2: the general (case B-then-A) path.
  std::vector<float> v = Iota(24, -11.f);
  Tensor x = F32({2, 3, 4}, v);
  auto at = [&](int a, int b, int c) { return v[static_cast<size_t>(a * 12 + b * 4 + c)]; };
  auto ref = [&](auto fold, float init) {
    std::vector<float> out;
    for (int b = 0; b < 3; ++b) {
      float acc = init;
      for (int a = 0; a < 2; ++a)
        for (int c = 0; c < 4; ++c) acc = fold(acc, at(a, b, c));
      out.push_back(acc);
    }
    return out;
  };
  std::map<std::string, Attribute> attrs{{"axes", IntsAttr({0, -1})}, {"keepdims", IntAttr(0)}};
  auto run = [&](const char* op) {
    auto r = RunKernel(op, attrs, {&x}, 1, 13);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return ToVector<float>((*r)[0]);
  };
  ExpectNear(run("ReduceMax"), ref([](float a, float b) { return std::max(a, b); }, -1e30f));
  ExpectNear(run("ReduceMin"), ref([](float a, float b) { return std::min(a, b); }, 1e30f));
  ExpectNear(run("ReduceL1"), ref([](float a, float b) { return a + std::abs(b); }, 0));
  ExpectNear(run("ReduceSumSquare"), ref([](float a, float b) { return a + b * b; }, 0), 1e-3f);
  auto mean = ref([](float a, float b) { return a + b; }, 0);
  for (float& m : mean) m /= 8;
  ExpectNear(run("ReduceMean"), mean);
}

TEST(ReduceTest, LogSumExpIsStableForLargeValues) {
  Tensor x = F32({1, 3}, {1000.f, 1000.f, 1000.f});
  auto r = RunKernel("ReduceLogSumExp", {{"axes", IntsAttr({1})}}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {1000.f + std::log(3.f)}, 1e-3f);
}

TEST(ReduceTest, ProdL2LogSumOnLongRow) {
  // A 37-element row exercises the 8-lane loop and its tail.
  std::vector<float> v(37, 1.f);
  v[36] = 2.f;
  Tensor x = F32({37}, v);
  auto prod = RunKernel("ReduceProd", {}, {&x}, 1, 13);
  ASSERT_TRUE(prod.ok());
  ExpectNear(ToVector<float>((*prod)[0]), {2.f});
  auto l2 = RunKernel("ReduceL2", {}, {&x}, 1, 13);
  ExpectNear(ToVector<float>((*l2)[0]), {std::sqrt(40.f)});
  auto ls = RunKernel("ReduceLogSum", {}, {&x}, 1, 13);
  ExpectNear(ToVector<float>((*ls)[0]), {std::log(38.f)});
}

TEST(ReduceTest, IntegerSumAndMax) {
  Tensor x = Tensor::FromVector(DType::kI32, {2, 2}, std::vector<int32_t>{1, -5, 7, 3});
  auto s = RunKernel("ReduceSum", {{"axes", IntsAttr({1})}}, {&x}, 1, 11);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToVector<int32_t>((*s)[0]), (std::vector<int32_t>{-4, 10}));
  auto m = RunKernel("ReduceMax", {{"axes", IntsAttr({0})}}, {&x}, 1, 11);
  EXPECT_EQ(ToVector<int32_t>((*m)[0]), (std::vector<int32_t>{7, 3}));
}

TEST(ReduceTest, F16AccumulatesInFloat) {
  std::vector<Float16> v(2048, Float16(1.f));
  Tensor x = Tensor::FromVector(DType::kF16, {2048}, v);
  auto r = RunKernel("ReduceSum", {{"keepdims", IntAttr(0)}}, {&x}, 1, 11);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(static_cast<float>((*r)[0].data<Float16>()[0]), 2048.f);  // f16 sums stall at 2048
}

TEST(ReduceTest, ParallelMatchesSerial) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(64 * 300);
  for (float& f : v) f = dist(rng);
  Tensor x = F32({64, 300}, v);
  auto one = RunKernel("ReduceMean", {{"axes", IntsAttr({1})}}, {&x}, 1, 13, 1);
  auto four = RunKernel("ReduceMean", {{"axes", IntsAttr({1})}}, {&x}, 1, 13, 4);
  ASSERT_TRUE(one.ok() && four.ok());
  ExpectNear(ToVector<float>((*four)[0]), ToVector<float>((*one)[0]));
}

TEST(ReduceTest, ReduceAllSplitsAcrossThreads) {
  std::vector<float> v(200003, 1.f);
  v[123457] = 5.f;
  Tensor x = F32({200003}, v);
  for (int threads : {1, 4}) {
    auto s = RunKernel("ReduceSum", {{"keepdims", IntAttr(0)}}, {&x}, 1, 11, threads);
    ASSERT_TRUE(s.ok());
    ExpectNear(ToVector<float>((*s)[0]), {200007.f});
    auto m = RunKernel("ReduceMax", {}, {&x}, 1, 11, threads);
    ExpectNear(ToVector<float>((*m)[0]), {5.f});
    auto lse = RunKernel("ReduceLogSumExp", {}, {&x}, 1, 11, threads);
    ExpectNear(ToVector<float>((*lse)[0]), {5.f + std::log(200002 * std::exp(-4.f) + 1.f)}, 1e-4f);
  }
}

TEST(ReduceTest, AxisOutOfRangeIsAnError) {
  Tensor x = F32({2, 3}, Iota(6));
  auto r = RunKernel("ReduceMax", {{"axes", IntsAttr({2})}}, {&x}, 1, 13);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("axis 2"), std::string::npos);
}

TEST(ReduceTest, LogSumExpRefusesIntegers) {
  Tensor x = Tensor::FromVector(DType::kI32, {2}, std::vector<int32_t>{1, 2});
  auto r = RunKernel("ReduceLogSumExp", {}, {&x}, 1, 13);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
}

// ---- Softmax family ----

std::vector<float> RefSoftmax(const std::vector<float>& v) {
  float m = *std::max_element(v.begin(), v.end()), s = 0;
  std::vector<float> out;
  for (float x : v) s += std::exp(x - m);
  for (float x : v) out.push_back(std::exp(x - m) / s);
  return out;
}

TEST(SoftmaxTest, LastAxis) {
  Tensor x = F32({2, 3}, {1, 2, 3, -1, 0, 1000});
  auto r = RunKernel("Softmax", {}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  auto a = RefSoftmax({1, 2, 3}), b = RefSoftmax({-1, 0, 1000});
  a.insert(a.end(), b.begin(), b.end());
  ExpectNear(ToVector<float>((*r)[0]), a, 1e-6f);
}

TEST(SoftmaxTest, MiddleAxisOpset13VersusCoercedOpset11) {
  std::vector<float> v = Iota(8);
  Tensor x = F32({2, 2, 2}, v);
  auto r13 = RunKernel("Softmax", {{"axis", IntAttr(1)}}, {&x}, 1, 13);
  ASSERT_TRUE(r13.ok());
  // Over axis 1 only: pairs (1,3), (2,4), (5,7), (6,8).
  auto p = RefSoftmax({1, 3});
  ExpectNear(ToVector<float>((*r13)[0]), {p[0], p[0], p[1], p[1], p[0], p[0], p[1], p[1]}, 1e-6f);
  auto r11 = RunKernel("Softmax", {{"axis", IntAttr(1)}}, {&x}, 1, 11);
  ASSERT_TRUE(r11.ok());
  auto a = RefSoftmax({1, 2, 3, 4}), b = RefSoftmax({5, 6, 7, 8});
  a.insert(a.end(), b.begin(), b.end());
  ExpectNear(ToVector<float>((*r11)[0]), a, 1e-6f);
}

TEST(SoftmaxTest, LogSoftmaxLargeNumbers) {
  Tensor x = F32({1, 2}, {10000.f, 10001.f});
  auto r = RunKernel("LogSoftmax", {}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  const float l = std::log1p(std::exp(-1.f));
  ExpectNear(ToVector<float>((*r)[0]), {-1.f - l, -l}, 1e-3f);
}

TEST(SoftmaxTest, HardmaxPicksFirstMaxAlongAxis0) {
  Tensor x = F32({2, 2}, {1, 5, 3, 5});
  auto r = RunKernel("Hardmax", {{"axis", IntAttr(0)}}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {0, 1, 1, 0});
}

TEST(SoftmaxTest, BadAxisIsAnError) {
  Tensor x = F32({2, 2}, Iota(4));
  EXPECT_FALSE(RunKernel("Softmax", {{"axis", IntAttr(3)}}, {&x}, 1, 13).ok());
}

TEST(SoftmaxTest, SupportRefusesIntegers) {
  Node n;
  n.op_type = "Softmax";
  SupportQuery q{n, 13, {DType::kI32}, {}, {}};
  EXPECT_FALSE(KernelRegistry::Cpu().Supports(q).supported);
}

// ---- Losses ----

TEST(LossTest, NllWeightedMeanWithIgnoreIndex) {
  Tensor x = F32({3, 2}, {-1, -2, -3, -4, -5, -6});
  Tensor t = I64({3}, {1, 0, 1});
  Tensor w = F32({2}, {0.5f, 2.f});
  auto r =
      RunKernel("NegativeLogLikelihoodLoss", {{"ignore_index", IntAttr(0)}}, {&x, &t, &w}, 1, 13);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // Rows 0 and 2 count: (2*2 + 6*2) / (2 + 2).
  ExpectNear(ToVector<float>((*r)[0]), {4.f});
}

TEST(LossTest, NllNoneKeepsSpatialShape) {
  Tensor x = F32({1, 2, 2}, {-1, -2, -3, -4});  // [N=1, C=2, d=2]
  Tensor t = I64({1, 2}, {1, 0});
  auto r =
      RunKernel("NegativeLogLikelihoodLoss", {{"reduction", StringAttr("none")}}, {&x, &t}, 1, 13);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{1, 2}));
  ExpectNear(ToVector<float>((*r)[0]), {3, 2});
}

TEST(LossTest, NllTargetOutOfRangeIsAnError) {
  Tensor x = F32({1, 2}, {-1, -2});
  Tensor t = I64({1}, {7});
  auto r = RunKernel("NegativeLogLikelihoodLoss", {}, {&x, &t}, 1, 13);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("out of range"), std::string::npos);
}

TEST(LossTest, SoftmaxCrossEntropySumWithLogProb) {
  Tensor x = F32({2, 3}, {1, 2, 3, 0, 0, 0});
  Tensor t = I64({2}, {2, 0});
  auto r =
      RunKernel("SoftmaxCrossEntropyLoss", {{"reduction", StringAttr("sum")}}, {&x, &t}, 2, 13);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto p = RefSoftmax({1, 2, 3});
  const float want = -std::log(p[2]) + std::log(3.f);
  ExpectNear(ToVector<float>((*r)[0]), {want}, 1e-5f);
  EXPECT_EQ((*r)[1].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_NEAR(ToVector<float>((*r)[1])[0], std::log(p[0]), 1e-5f);
}

TEST(LossTest, SupportRefusesUnknownReduction) {
  Node n;
  n.op_type = "SoftmaxCrossEntropyLoss";
  n.attrs["reduction"] = StringAttr("max");
  SupportQuery q{n, 13, {}, {}, {}};
  EXPECT_FALSE(KernelRegistry::Cpu().Supports(q).supported);
}

// ---- Normalisations ----

TEST(NormTest, BatchNormInference) {
  Tensor x = F32({1, 2, 2}, {1, 2, 3, 4});
  Tensor s = F32({2}, {1, 2}), b = F32({2}, {0, 1}), m = F32({2}, {1, 3}), v = F32({2}, {1, 4});
  auto r =
      RunKernel("BatchNormalization", {{"epsilon", FloatAttr(0.f)}}, {&x, &s, &b, &m, &v}, 1, 15);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {0, 1, 1, 2});
}

TEST(NormTest, BatchNormRefusesTrainingMode) {
  Node n;
  n.op_type = "BatchNormalization";
  n.attrs["training_mode"] = IntAttr(1);
  SupportQuery q{n, 15, {}, {}, {}};
  OpSupport s = KernelRegistry::Cpu().Supports(q);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("training_mode"), std::string::npos);
}

TEST(NormTest, BatchNormWrongParamSizeIsAnError) {
  Tensor x = F32({1, 2, 2}, {1, 2, 3, 4});
  Tensor s = F32({3}, {1, 2, 3}), b = F32({2}, {0, 1});
  auto r = RunKernel("BatchNormalization", {}, {&x, &s, &b, &b, &b}, 1, 15);
  EXPECT_FALSE(r.ok());
}

TEST(NormTest, InstanceNorm) {
  Tensor x = F32({1, 1, 4}, {1, 2, 3, 4});
  Tensor s = F32({1}, {2}), b = F32({1}, {1});
  auto r = RunKernel("InstanceNormalization", {{"epsilon", FloatAttr(0.f)}}, {&x, &s, &b}, 1, 6);
  ASSERT_TRUE(r.ok());
  const float sd = std::sqrt(1.25f);
  ExpectNear(ToVector<float>((*r)[0]), {1 - 3 / sd, 1 - 1 / sd, 1 + 1 / sd, 1 + 3 / sd});
}

TEST(NormTest, LayerNormWithStatsAndBroadcastScale) {
  Tensor x = F32({2, 2}, {1, 3, 0, 4});
  Tensor s = F32({1}, {2});
  Tensor b = F32({2}, {0, 1});
  auto r = RunKernel("LayerNormalization", {{"epsilon", FloatAttr(0.f)}}, {&x, &s, &b}, 3, 17);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectNear(ToVector<float>((*r)[0]), {-2, 3, -2, 3});
  EXPECT_EQ((*r)[1].shape(), (std::vector<int64_t>{2, 1}));
  ExpectNear(ToVector<float>((*r)[1]), {2, 2});
  ExpectNear(ToVector<float>((*r)[2]), {1, 0.5f});
}

TEST(NormTest, GroupNormPerGroupScale) {
  Tensor x = F32({1, 2, 2}, {1, 3, 5, 7});
  Tensor s = F32({1}, {1}), b = F32({1}, {0});
  auto r = RunKernel("GroupNormalization", {{"num_groups", IntAttr(1)}, {"epsilon", FloatAttr(0)}},
                     {&x, &s, &b}, 1, 18);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const float sd = std::sqrt(5.f);
  ExpectNear(ToVector<float>((*r)[0]), {-3 / sd, -1 / sd, 1 / sd, 3 / sd});
}

TEST(NormTest, LpNormalizationL2AndZeroVector) {
  Tensor x = F32({2, 2}, {3, 4, 0, 0});
  auto r = RunKernel("LpNormalization", {}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {0.6f, 0.8f, 0, 0});
}

TEST(NormTest, MeanVarianceNormalization) {
  Tensor x = F32({1, 1, 1, 2}, {1, 3});
  auto r = RunKernel("MeanVarianceNormalization", {}, {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {-1, 1});
}

TEST(NormTest, LrnAcrossChannels) {
  Tensor x = F32({1, 3, 1, 1}, {1, 2, 3});
  auto r = RunKernel("LRN",
                     {{"size", IntAttr(3)},
                      {"alpha", FloatAttr(3.f)},
                      {"beta", FloatAttr(1.f)},
                      {"bias", FloatAttr(1.f)}},
                     {&x}, 1, 13);
  ASSERT_TRUE(r.ok());
  // Channel 0 sums channels 0..1 (5), channel 1 all (14), channel 2 channels 1..2 (13).
  ExpectNear(ToVector<float>((*r)[0]), {1.f / 6, 2.f / 15, 3.f / 14});
}

TEST(NormTest, LrnZeroSizeIsAnError) {
  Tensor x = F32({1, 1, 1, 1}, {1});
  EXPECT_FALSE(RunKernel("LRN", {}, {&x}, 1, 13).ok());
}

// ---- Einsum / Det ----

TEST(EinsumTest, BatchMatmulWithSpaces) {
  Tensor a = F32({1, 2, 2}, {1, 2, 3, 4});
  Tensor b = F32({1, 2, 2}, {5, 6, 7, 8});
  auto r = RunKernel("Einsum", {{"equation", StringAttr("bij, bjk -> bik")}}, {&a, &b}, 1, 12);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectNear(ToVector<float>((*r)[0]), {19, 22, 43, 50});
}

TEST(EinsumTest, ImplicitOutputIsSortedSingleLabels) {
  Tensor a = F32({2, 3}, Iota(6));
  auto r = RunKernel("Einsum", {{"equation", StringAttr("ji")}}, {&a}, 1, 12);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{3, 2}));  // output "ij": a transpose
  ExpectNear(ToVector<float>((*r)[0]), {1, 4, 2, 5, 3, 6});
}

TEST(EinsumTest, EllipsisDiagonalAndInnerProduct) {
  Tensor a = F32({2, 2, 2}, Iota(8));
  auto d = RunKernel("Einsum", {{"equation", StringAttr("...ii->...i")}}, {&a}, 1, 12);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ExpectNear(ToVector<float>((*d)[0]), {1, 4, 5, 8});
  Tensor v = F32({3}, {1, 2, 3});
  auto ip = RunKernel("Einsum", {{"equation", StringAttr("i,i")}}, {&v, &v}, 1, 12);
  ASSERT_TRUE(ip.ok());
  EXPECT_EQ((*ip)[0].rank(), 0u);
  ExpectNear(ToVector<float>((*ip)[0]), {14});
}

TEST(EinsumTest, MismatchedTermIsAnError) {
  Tensor a = F32({2, 3}, Iota(6));
  EXPECT_FALSE(RunKernel("Einsum", {{"equation", StringAttr("ijk->i")}}, {&a}, 1, 12).ok());
  EXPECT_FALSE(RunKernel("Einsum", {{"equation", StringAttr("ij,jk")}}, {&a}, 1, 12).ok());
}

TEST(DetTest, BatchOfMatrices) {
  Tensor a = F32({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0});
  auto r = RunKernel("Det", {}, {&a}, 1, 11);
  ASSERT_TRUE(r.ok());
  ExpectNear(ToVector<float>((*r)[0]), {-2, -1});
}

TEST(DetTest, NonSquareIsAnError) {
  Tensor a = F32({2, 3}, Iota(6));
  EXPECT_FALSE(RunKernel("Det", {}, {&a}, 1, 11).ok());
}

}  // namespace
}  // namespace trinity::testing
