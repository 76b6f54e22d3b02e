// Unit tests for the elementwise op family (ops_elementwise.cc, ops_elementwise_unary.cc).
// Float comparisons use EXPECT_NEAR with the stated tolerances; integer results are exact.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Tensor Bool(std::vector<int64_t> shape, const std::vector<uint8_t>& v) {
  return Tensor::FromVector(DType::kBool, std::move(shape), v);
}

template <class T>
Tensor Typed(DType t, std::vector<int64_t> shape, const std::vector<T>& v) {
  return Tensor::FromVector(t, std::move(shape), v);
}

Tensor F16(std::vector<int64_t> shape, const std::vector<float>& v) {
  std::vector<Float16> h;
  for (float f : v) h.push_back(Float16(f));
  return Tensor::FromVector(DType::kF16, std::move(shape), h);
}

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.f, 3.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

Tensor Run1(const std::string& op, std::map<std::string, Attribute> attrs,
            const std::vector<const Tensor*>& in, int opset = 17, int threads = 1) {
  auto r = RunKernel(op, std::move(attrs), in, 1, opset, threads);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value()[0] : Tensor();
}

void ExpectFloats(const Tensor& t, const std::vector<float>& want, float tol = 1e-6f) {
  ASSERT_EQ(t.dtype(), DType::kF32);
  ASSERT_EQ(static_cast<size_t>(t.numel()), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(t.data<float>()[i])) << "at " << i;
    } else {
      EXPECT_NEAR(t.data<float>()[i], want[i], tol + 1e-6f * std::abs(want[i])) << "at " << i;
    }
  }
}

std::vector<uint8_t> Bools(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DType::kBool);
  return ToVector<uint8_t>(t);
}

// ---- binary arithmetic and broadcasting -------------------------------------------------------

TEST(ElementwiseBinary, AddSameShape) {
  Tensor a = F32({2, 2}, {1, 2, 3, 4});
  Tensor b = F32({2, 2}, {10, 20, 30, 40});
  Tensor y = Run1("Add", {}, {&a, &b});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2}));
  ExpectFloats(y, {11, 22, 33, 44});
}

TEST(ElementwiseBinary, MulScalarEitherSide) {
  Tensor a = F32({3}, {1, 2, 3});
  Tensor s = F32({}, {2});
  ExpectFloats(Run1("Mul", {}, {&a, &s}), {2, 4, 6});
  ExpectFloats(Run1("Sub", {}, {&s, &a}), {1, 0, -1});
}

// General N-d broadcasting against a naive reference, single- and multi-threaded.
TEST(ElementwiseBinary, GeneralBroadcastMatchesReference) {
  const std::vector<int64_t> sa = {2, 1, 3, 1, 5}, sb = {4, 1, 7, 5}, so = {2, 4, 3, 7, 5};
  std::vector<float> va = RandomFloats(30, 1), vb = RandomFloats(140, 2);
  Tensor a = F32(sa, va), b = F32(sb, vb);
  std::vector<float> want;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 4; ++i1)
      for (int i2 = 0; i2 < 3; ++i2)
        for (int i3 = 0; i3 < 7; ++i3)
          for (int i4 = 0; i4 < 5; ++i4)
            want.push_back(va[(i0 * 3 + i2) * 5 + i4] - vb[(i1 * 7 + i3) * 5 + i4]);
  for (int threads : {1, 4}) {
    Tensor y = Run1("Sub", {}, {&a, &b}, 17, threads);
    EXPECT_EQ(y.shape(), so);
    ExpectFloats(y, want, 0.f);
  }
}

TEST(ElementwiseBinary, LargeParallelSameShape) {
  const int64_t n = 200003;
  std::vector<float> va = RandomFloats(n, 3), vb = RandomFloats(n, 4), want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = va[i] * vb[i];
  Tensor a = F32({n}, va), b = F32({n}, vb);
  ExpectFloats(Run1("Mul", {}, {&a, &b}, 17, 4), want, 0.f);
}

TEST(ElementwiseBinary, IncompatibleShapesFail) {
  Tensor a = F32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = F32({2}, {1, 2});
  auto r = RunKernel("Add", {}, {&a, &b});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot be broadcast"), std::string::npos);
}

TEST(ElementwiseBinary, DtypeMismatchFails) {
  Tensor a = F32({1}, {1});
  Tensor b = I64({1}, {1});
  auto r = RunKernel("Add", {}, {&a, &b});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("differ"), std::string::npos);
}

TEST(ElementwiseBinary, Uint8Wraps) {
  Tensor a = Typed<uint8_t>(DType::kU8, {2}, {250, 3});
  Tensor b = Typed<uint8_t>(DType::kU8, {2}, {10, 5});
  EXPECT_EQ(ToVector<uint8_t>(Run1("Add", {}, {&a, &b})), (std::vector<uint8_t>{4, 8}));
  EXPECT_EQ(ToVector<uint8_t>(Run1("Sub", {}, {&a, &b})), (std::vector<uint8_t>{240, 254}));
}

TEST(ElementwiseBinary, IntegerDivisionTruncatesAndMinOverMinusOneWraps) {
  const int64_t mn = std::numeric_limits<int64_t>::min();
  Tensor a = I64({3}, {7, -7, mn});
  Tensor b = I64({3}, {2, 2, -1});
  EXPECT_EQ(ToVector<int64_t>(Run1("Div", {}, {&a, &b})), (std::vector<int64_t>{3, -3, mn}));
}

TEST(ElementwiseBinary, IntegerDivisionByZeroFails) {
  Tensor a = I64({2}, {1, 2});
  Tensor b = I64({2}, {1, 0});
  auto r = RunKernel("Div", {}, {&a, &b});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("division by zero"), std::string::npos);
}

TEST(ElementwiseBinary, Float16ComputesInFloat) {
  Tensor a = F16({2}, {1.5f, -2.f});
  Tensor b = F16({2}, {0.25f, 4.f});
  Tensor y = Run1("Mul", {}, {&a, &b});
  ASSERT_EQ(y.dtype(), DType::kF16);
  EXPECT_EQ(static_cast<float>(y.data<Float16>()[0]), 0.375f);
  EXPECT_EQ(static_cast<float>(y.data<Float16>()[1]), -8.f);
}

// ---- Mod, Pow, BitShift -----------------------------------------------------------------------

TEST(ElementwiseMod, IntegerModTakesDivisorSign) {
  Tensor a = Typed<int32_t>(DType::kI32, {4}, {-4, 7, 5, -9});
  Tensor b = Typed<int32_t>(DType::kI32, {4}, {3, -3, 2, -4});
  EXPECT_EQ(ToVector<int32_t>(Run1("Mod", {}, {&a, &b})), (std::vector<int32_t>{2, -2, 1, -1}));
}

TEST(ElementwiseMod, FmodTakesDividendSign) {
  Tensor a = F32({3}, {-4.5f, 7.f, 5.25f});
  Tensor b = F32({3}, {2.f, -3.f, 2.f});
  ExpectFloats(Run1("Mod", {{"fmod", IntAttr(1)}}, {&a, &b}), {-0.5f, 1.f, 1.25f});
  Tensor ia = I64({2}, {-7, 7}), ib = I64({2}, {3, -3});
  EXPECT_EQ(ToVector<int64_t>(Run1("Mod", {{"fmod", IntAttr(1)}}, {&ia, &ib})),
            (std::vector<int64_t>{-1, 1}));
}

TEST(ElementwiseMod, FloatWithoutFmodFails) {
  Tensor a = F32({1}, {1.f});
  auto r = RunKernel("Mod", {}, {&a, &a});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fmod"), std::string::npos);
}

TEST(ElementwisePow, FloatScalarExponents) {
  Tensor x = F32({3}, {1.f, 2.f, 4.f});
  Tensor two = F32({}, {2.f}), half = F32({1}, {0.5f}), three = F32({}, {3.f});
  ExpectFloats(Run1("Pow", {}, {&x, &two}), {1.f, 4.f, 16.f});
  ExpectFloats(Run1("Pow", {}, {&x, &half}), {1.f, std::sqrt(2.f), 2.f});
  ExpectFloats(Run1("Pow", {}, {&x, &three}), {1.f, 8.f, 64.f}, 1e-5f);
}

TEST(ElementwisePow, MixedDtypesKeepBaseDtype) {
  Tensor xi = I64({3}, {2, 3, -2});
  Tensor ef = F32({3}, {3.f, 0.5f, 2.f});
  Tensor y = Run1("Pow", {}, {&xi, &ef});
  ASSERT_EQ(y.dtype(), DType::kI64);
  EXPECT_EQ(ToVector<int64_t>(y), (std::vector<int64_t>{8, 1, 4}));
  Tensor ei = I64({3}, {10, 0, -1});
  EXPECT_EQ(ToVector<int64_t>(Run1("Pow", {}, {&xi, &ei})), (std::vector<int64_t>{1024, 1, 0}));
  Tensor xf = F32({2}, {2.f, 3.f});
  Tensor eu = Typed<uint32_t>(DType::kU32, {2}, {3, 2});
  ExpectFloats(Run1("Pow", {}, {&xf, &eu}), {8.f, 9.f});
}

TEST(ElementwiseBitShift, ShiftsAndOversizedShiftGivesZero) {
  Tensor a = Typed<uint8_t>(DType::kU8, {3}, {16, 4, 1});
  Tensor b = Typed<uint8_t>(DType::kU8, {3}, {1, 2, 9});
  EXPECT_EQ(ToVector<uint8_t>(Run1("BitShift", {{"direction", StringAttr("RIGHT")}}, {&a, &b})),
            (std::vector<uint8_t>{8, 1, 0}));
  EXPECT_EQ(ToVector<uint8_t>(Run1("BitShift", {{"direction", StringAttr("LEFT")}}, {&a, &b})),
            (std::vector<uint8_t>{32, 16, 0}));
}

TEST(ElementwiseBitShift, BadDirectionFails) {
  Tensor a = Typed<uint8_t>(DType::kU8, {1}, {1});
  EXPECT_FALSE(RunKernel("BitShift", {{"direction", StringAttr("UP")}}, {&a, &a}).ok());
}

// ---- logical, bitwise, comparison, Where ------------------------------------------------------

TEST(ElementwiseLogical, AndOrXorBroadcast) {
  Tensor a = Bool({2, 2}, {0, 1, 1, 1});
  Tensor b = Bool({2}, {1, 0});
  EXPECT_EQ(Bools(Run1("And", {}, {&a, &b})), (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(Bools(Run1("Or", {}, {&a, &b})), (std::vector<uint8_t>{1, 1, 1, 1}));
  EXPECT_EQ(Bools(Run1("Xor", {}, {&a, &b})), (std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(Bools(Run1("Not", {}, {&a})), (std::vector<uint8_t>{1, 0, 0, 0}));
}

TEST(ElementwiseBitwise, IntegerOps) {
  Tensor a = Typed<int32_t>(DType::kI32, {2}, {0b1100, -1});
  Tensor b = Typed<int32_t>(DType::kI32, {2}, {0b1010, 5});
  EXPECT_EQ(ToVector<int32_t>(Run1("BitwiseAnd", {}, {&a, &b})), (std::vector<int32_t>{8, 5}));
  EXPECT_EQ(ToVector<int32_t>(Run1("BitwiseOr", {}, {&a, &b})), (std::vector<int32_t>{14, -1}));
  EXPECT_EQ(ToVector<int32_t>(Run1("BitwiseXor", {}, {&a, &b})), (std::vector<int32_t>{6, -6}));
  EXPECT_EQ(ToVector<int32_t>(Run1("BitwiseNot", {}, {&a})), (std::vector<int32_t>{-13, 0}));
}

TEST(ElementwiseCompare, ProducesBool) {
  Tensor a = F32({4}, {1, 2, 3, kNaN});
  Tensor b = F32({}, {2});
  EXPECT_EQ(Bools(Run1("Less", {}, {&a, &b})), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(Bools(Run1("LessOrEqual", {}, {&a, &b})), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(Bools(Run1("Greater", {}, {&a, &b})), (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(Bools(Run1("GreaterOrEqual", {}, {&a, &b})), (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(Bools(Run1("Equal", {}, {&a, &b})), (std::vector<uint8_t>{0, 1, 0, 0}));
  Tensor i = Typed<int32_t>(DType::kI32, {2}, {5, 6});
  Tensor j = Typed<int32_t>(DType::kI32, {2}, {5, 7});
  EXPECT_EQ(Bools(Run1("Equal", {}, {&i, &j})), (std::vector<uint8_t>{1, 0}));
}

TEST(ElementwiseWhere, ThreeWayBroadcast) {
  Tensor c = Bool({2, 1}, {1, 0});
  Tensor x = I64({3}, {1, 2, 3});
  Tensor y = I64({}, {-1});
  Tensor out = Run1("Where", {}, {&c, &x, &y});
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(ToVector<int64_t>(out), (std::vector<int64_t>{1, 2, 3, -1, -1, -1}));
}

TEST(ElementwiseWhere, NonBoolConditionFails) {
  Tensor c = F32({1}, {1});
  EXPECT_FALSE(RunKernel("Where", {}, {&c, &c, &c}).ok());
}

TEST(ElementwisePRelu, BroadcastSlope) {
  Tensor x = F32({2, 2}, {-1, 2, -3, 4});
  Tensor s = F32({2}, {0.5f, 0.25f});
  ExpectFloats(Run1("PRelu", {}, {&x, &s}), {-0.5f, 2, -1.5f, 4});
}

TEST(ElementwisePRelu, SlopeLargerThanInputFails) {
  Tensor x = F32({2}, {-1, 2});
  Tensor s = F32({2, 2}, {1, 1, 1, 1});
  EXPECT_FALSE(RunKernel("PRelu", {}, {&x, &s}).ok());
}

// ---- variadic ---------------------------------------------------------------------------------

TEST(ElementwiseVariadic, MaxMinSumMeanBroadcast) {
  Tensor a = F32({2, 1}, {1, 5});
  Tensor b = F32({3}, {2, 4, 6});
  Tensor c = F32({}, {3});
  ExpectFloats(Run1("Max", {}, {&a, &b, &c}), {3, 4, 6, 5, 5, 6});
  ExpectFloats(Run1("Min", {}, {&a, &b, &c}), {1, 1, 1, 2, 3, 3});
  ExpectFloats(Run1("Sum", {}, {&a, &b, &c}), {6, 8, 10, 10, 12, 14});
  ExpectFloats(Run1("Mean", {}, {&a, &b, &c}), {2, 8.f / 3, 10.f / 3, 10.f / 3, 4, 14.f / 3});
  ExpectFloats(Run1("Sum", {}, {&a}), {1, 5});
}

TEST(ElementwiseVariadic, MaxPropagatesNaN) {
  Tensor a = F32({2}, {kNaN, 1});
  Tensor b = F32({2}, {1, kNaN});
  ExpectFloats(Run1("Max", {}, {&a, &b}), {kNaN, kNaN});
  ExpectFloats(Run1("Min", {}, {&a, &b}), {kNaN, kNaN});
}

TEST(ElementwiseVariadic, IntegerMax) {
  Tensor a = Typed<uint64_t>(DType::kU64, {2}, {1, ~uint64_t{0}});
  Tensor b = Typed<uint64_t>(DType::kU64, {2}, {2, 3});
  EXPECT_EQ(ToVector<uint64_t>(Run1("Max", {}, {&a, &b})),
            (std::vector<uint64_t>{2, ~uint64_t{0}}));
}

// ---- unary math and activations ---------------------------------------------------------------

TEST(ElementwiseUnary, MathFunctions) {
  Tensor x = F32({3}, {0.25f, 1.f, 2.f});
  ExpectFloats(Run1("Exp", {}, {&x}), {std::exp(0.25f), std::exp(1.f), std::exp(2.f)});
  ExpectFloats(Run1("Log", {}, {&x}), {std::log(0.25f), 0.f, std::log(2.f)});
  ExpectFloats(Run1("Reciprocal", {}, {&x}), {4.f, 1.f, 0.5f});
  ExpectFloats(Run1("Erf", {}, {&x}), {std::erf(0.25f), std::erf(1.f), std::erf(2.f)});
  ExpectFloats(Run1("Atan", {}, {&x}), {std::atan(0.25f), std::atan(1.f), std::atan(2.f)});
}

TEST(ElementwiseUnary, RoundHalfToEven) {
  Tensor x = F32({6}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f});
  ExpectFloats(Run1("Round", {}, {&x}), {0, 2, 2, -0.f, -2, 2});
}

TEST(ElementwiseUnary, AbsNegSignOnIntegers) {
  Tensor x = Typed<int8_t>(DType::kI8, {3}, {-128, -3, 4});
  EXPECT_EQ(ToVector<int8_t>(Run1("Abs", {}, {&x})), (std::vector<int8_t>{-128, 3, 4}));
  EXPECT_EQ(ToVector<int8_t>(Run1("Neg", {}, {&x})), (std::vector<int8_t>{-128, 3, -4}));
  EXPECT_EQ(ToVector<int8_t>(Run1("Sign", {}, {&x})), (std::vector<int8_t>{-1, -1, 1}));
  Tensor f = F32({3}, {-2, 0, kNaN});
  ExpectFloats(Run1("Sign", {}, {&f}), {-1, 0, kNaN});
}

TEST(ElementwiseUnary, FloatOpRejectsIntegers) {
  Tensor x = I64({1}, {1});
  auto r = RunKernel("Exp", {}, {&x});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
}

TEST(ElementwiseActivation, ReluFamily) {
  Tensor x = F32({4}, {-2, -0.5f, 0.5f, 2});
  ExpectFloats(Run1("Relu", {}, {&x}), {0, 0, 0.5f, 2});
  ExpectFloats(Run1("LeakyRelu", {{"alpha", FloatAttr(0.1f)}}, {&x}), {-0.2f, -0.05f, 0.5f, 2});
  ExpectFloats(Run1("ThresholdedRelu", {}, {&x}), {0, 0, 0, 2});
  ExpectFloats(Run1("Elu", {}, {&x}), {std::exp(-2.f) - 1, std::exp(-0.5f) - 1, 0.5f, 2});
  const float a = 1.67326319217681884765625f, g = 1.05070102214813232421875f;
  ExpectFloats(Run1("Selu", {}, {&x}),
               {g * a * (std::exp(-2.f) - 1), g * a * (std::exp(-0.5f) - 1), g * 0.5f, g * 2});
  ExpectFloats(Run1("Celu", {{"alpha", FloatAttr(2.f)}}, {&x}),
               {2 * (std::exp(-1.f) - 1), 2 * (std::exp(-0.25f) - 1), 0.5f, 2});
}

TEST(ElementwiseActivation, SigmoidFamilyIsStableForLargeInputs) {
  Tensor x = F32({4}, {-100, 0, 1, 100});
  ExpectFloats(Run1("Sigmoid", {}, {&x}), {0, 0.5f, 1 / (1 + std::exp(-1.f)), 1});
  ExpectFloats(Run1("Softplus", {}, {&x}), {0, std::log(2.f), std::log1p(std::exp(1.f)), 100});
  ExpectFloats(Run1("HardSigmoid", {}, {&x}), {0, 0.5f, 0.7f, 1});
  ExpectFloats(Run1("HardSwish", {}, {&x}), {0, 0, 1 * (1 / 6.f + 0.5f), 100});
  ExpectFloats(Run1("Softsign", {}, {&x}), {-100 / 101.f, 0, 0.5f, 100 / 101.f});
  ExpectFloats(Run1("Mish", {}, {&x}), {0, 0, std::tanh(std::log1p(std::exp(1.f))), 100});
}

// Exp, Tanh and Sigmoid use branch-free float approximations; check them against double libm
// over a dense grid: exp and sigmoid within 2e-7 relative (about 2 ulp) plus 1e-37 absolute near
// underflow; the tanh rational approximation within 4e-7 relative plus 3e-7 absolute (~4 ulp).
TEST(ElementwiseUnary, FastExpTanhSigmoidMatchLibm) {
  std::vector<float> xs;
  for (float x = -110.f; x <= 90.f; x += 0.0137f) xs.push_back(x);
  for (float x = -1e-3f; x <= 1e-3f; x += 1.3e-6f) xs.push_back(x);
  xs.push_back(kInf);
  xs.push_back(-kInf);
  xs.push_back(0.f);
  Tensor x = F32({static_cast<int64_t>(xs.size())}, xs);
  Tensor e = Run1("Exp", {}, {&x}), t = Run1("Tanh", {}, {&x}), s = Run1("Sigmoid", {}, {&x});
  for (size_t i = 0; i < xs.size(); ++i) {
    const double v = xs[i];
    const double we = std::exp(v), wt = std::tanh(v), ws = 1 / (1 + std::exp(-v));
    if (we > std::numeric_limits<float>::max()) {
      EXPECT_TRUE(std::isinf(e.data<float>()[i])) << xs[i];
    } else {
      EXPECT_NEAR(e.data<float>()[i], we, 1e-37 + 2e-7 * we) << "exp " << xs[i];
    }
    EXPECT_NEAR(t.data<float>()[i], wt, 3e-7 + 4e-7 * std::abs(wt)) << "tanh " << xs[i];
    EXPECT_NEAR(s.data<float>()[i], ws, 1e-37 + 2e-7 * ws) << "sigmoid " << xs[i];
  }
  Tensor nan = F32({1}, {kNaN});
  EXPECT_TRUE(std::isnan(Run1("Exp", {}, {&nan}).data<float>()[0]));
  EXPECT_TRUE(std::isnan(Run1("Tanh", {}, {&nan}).data<float>()[0]));
}

TEST(ElementwiseActivation, GeluExactAndTanh) {
  Tensor x = F32({3}, {-1, 0, 2});
  ExpectFloats(Run1("Gelu", {}, {&x}), {-0.15865526f, 0, 1.9544997f}, 1e-6f);
  ExpectFloats(Run1("Gelu", {{"approximate", StringAttr("tanh")}}, {&x}),
               {-0.15880801f, 0, 1.9545977f}, 1e-6f);
  EXPECT_FALSE(RunKernel("Gelu", {{"approximate", StringAttr("fast")}}, {&x}).ok());
}

TEST(ElementwiseActivation, ShrinkHardAndSoft) {
  Tensor x = F32({5}, {-2, -0.5f, 0, 0.5f, 2});
  ExpectFloats(Run1("Shrink", {{"lambd", FloatAttr(1.f)}}, {&x}), {-2, 0, 0, 0, 2});
  ExpectFloats(Run1("Shrink", {{"lambd", FloatAttr(1.f)}, {"bias", FloatAttr(1.f)}}, {&x}),
               {-1, 0, 0, 0, 1});
}

TEST(ElementwisePredicate, IsNaNAndIsInf) {
  Tensor x = F32({4}, {1, kNaN, kInf, -kInf});
  EXPECT_EQ(Bools(Run1("IsNaN", {}, {&x})), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(Bools(Run1("IsInf", {}, {&x})), (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(Bools(Run1("IsInf", {{"detect_positive", IntAttr(0)}}, {&x})),
            (std::vector<uint8_t>{0, 0, 0, 1}));
}

// ---- Clip -------------------------------------------------------------------------------------

TEST(ElementwiseClip, OptionalInputsFromOpset11) {
  Tensor x = F32({4}, {-3, 0, 3, kNaN});
  Tensor lo = F32({}, {-1}), hi = F32({}, {2});
  ExpectFloats(Run1("Clip", {}, {&x, &lo, &hi}, 13), {-1, 0, 2, kNaN});
  ExpectFloats(Run1("Clip", {}, {&x, nullptr, &hi}, 13), {-3, 0, 2, kNaN});
  ExpectFloats(Run1("Clip", {}, {&x}, 13), {-3, 0, 3, kNaN});
}

TEST(ElementwiseClip, AttributesBeforeOpset11) {
  Tensor x = F32({3}, {-3, 0, 3});
  ExpectFloats(Run1("Clip", {{"min", FloatAttr(-1)}, {"max", FloatAttr(1)}}, {&x}, 6), {-1, 0, 1});
}

TEST(ElementwiseClip, MinAboveMaxGivesMax) {
  Tensor x = F32({2}, {-3, 3});
  Tensor lo = F32({}, {2}), hi = F32({}, {1});
  ExpectFloats(Run1("Clip", {}, {&x, &lo, &hi}, 13), {1, 1});
}

TEST(ElementwiseClip, Int8AndBadBoundShape) {
  Tensor x = Typed<int8_t>(DType::kI8, {3}, {-100, 5, 100});
  Tensor lo = Typed<int8_t>(DType::kI8, {}, {-10});
  EXPECT_EQ(ToVector<int8_t>(Run1("Clip", {}, {&x, &lo}, 13)), (std::vector<int8_t>{-10, 5, 100}));
  Tensor bad = Typed<int8_t>(DType::kI8, {2}, {1, 2});
  EXPECT_FALSE(RunKernel("Clip", {}, {&x, &bad}, 1, 13).ok());
}

// ---- Cast / CastLike --------------------------------------------------------------------------

TEST(ElementwiseCast, FloatToIntTruncatesAndSaturates) {
  Tensor x = F32({5}, {1.9f, -1.9f, kNaN, 1e10f, -1e10f});
  Tensor y = Run1("Cast", {{"to", IntAttr(6)}}, {&x});
  ASSERT_EQ(y.dtype(), DType::kI32);
  EXPECT_EQ(ToVector<int32_t>(y),
            (std::vector<int32_t>{1, -1, 0, std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min()}));
}

TEST(ElementwiseCast, BoolConversions) {
  Tensor x = F32({3}, {0, -0.5f, kNaN});
  EXPECT_EQ(Bools(Run1("Cast", {{"to", IntAttr(9)}}, {&x})), (std::vector<uint8_t>{0, 1, 1}));
  Tensor b = Bool({2}, {1, 0});
  ExpectFloats(Run1("Cast", {{"to", IntAttr(1)}}, {&b}), {1, 0});
}

TEST(ElementwiseCast, HalfTypes) {
  Tensor x = F32({2}, {1.f / 3, 65504.f * 2});
  Tensor h = Run1("Cast", {{"to", IntAttr(10)}}, {&x});
  ASSERT_EQ(h.dtype(), DType::kF16);
  EXPECT_NEAR(static_cast<float>(h.data<Float16>()[0]), 1.f / 3, 1e-3f);
  EXPECT_TRUE(std::isinf(static_cast<float>(h.data<Float16>()[1])));
  // float -> bfloat16 truncates, as the ONNX reference implementation does.
  Tensor v = F32({1}, {1.f + 255.f / 256.f});
  Tensor bf = Run1("Cast", {{"to", IntAttr(16)}}, {&v});
  ASSERT_EQ(bf.dtype(), DType::kBF16);
  EXPECT_EQ(static_cast<float>(bf.data<BFloat16>()[0]), 1.f + 127.f / 128.f);
}

TEST(ElementwiseCast, StringTargetIsUnsupported) {
  Tensor x = F32({1}, {1});
  auto r = RunKernel("Cast", {{"to", IntAttr(8)}}, {&x});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
}

TEST(ElementwiseCast, CastLikeUsesTargetDtype) {
  Tensor x = F32({2}, {1.5f, -2.5f});
  Tensor like = I64({0}, {});
  EXPECT_EQ(ToVector<int64_t>(Run1("CastLike", {}, {&x, &like})), (std::vector<int64_t>{1, -2}));
}

// ---- Dropout ----------------------------------------------------------------------------------

TEST(ElementwiseDropout, InferenceIsIdentityWithTrueMask) {
  Tensor x = F32({3}, {1, 2, 3});
  Tensor ratio = F32({}, {0.3f});
  auto r = RunKernel("Dropout", {}, {&x, &ratio}, 2, 13);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectFloats(r.value()[0], {1, 2, 3});
  EXPECT_EQ(Bools(r.value()[1]), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(ElementwiseDropout, TrainingModeIsRefusedUnlessRatioZero) {
  Tensor x = F32({2}, {1, 2});
  Tensor ratio = F32({}, {0.5f}), zero = F32({}, {0.f});
  Tensor train = Bool({}, {1});
  auto r = RunKernel("Dropout", {}, {&x, &ratio, &train}, 1, 13);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(r.status().message().find("training_mode"), std::string::npos);
  EXPECT_TRUE(RunKernel("Dropout", {}, {&x, &zero, &train}, 1, 13).ok());
}

// ---- supports() -------------------------------------------------------------------------------

OpSupport Query(const std::string& op, std::map<std::string, Attribute> attrs,
                std::vector<DType> in, int opset = 17) {
  Node n;
  n.op_type = op;
  n.attrs = std::move(attrs);
  for (size_t i = 0; i < in.size(); ++i) n.inputs.push_back("in" + std::to_string(i));
  n.outputs.push_back("out");
  return KernelRegistry::Cpu().Supports(SupportQuery{n, opset, in, {}, {}});
}

TEST(ElementwiseSupport, RefusesWhatIsNotImplemented) {
  EXPECT_FALSE(Query("Mod", {}, {DType::kF32, DType::kF32}).supported);
  EXPECT_TRUE(Query("Mod", {{"fmod", IntAttr(1)}}, {DType::kF32, DType::kF32}).supported);
  EXPECT_FALSE(Query("Cast", {{"to", IntAttr(8)}}, {DType::kF32}).supported);
  EXPECT_FALSE(Query("Cast", {{"to", IntAttr(17)}}, {DType::kF32}).supported);
  EXPECT_FALSE(Query("Add", {}, {DType::kBool, DType::kBool}).supported);
  EXPECT_FALSE(Query("Exp", {}, {DType::kI32}).supported);
  EXPECT_TRUE(Query("Exp", {}, {DType::kUndefined}).supported);
  EXPECT_TRUE(Query("Pow", {}, {DType::kI64, DType::kF32}).supported);
  EXPECT_FALSE(
      Query("BitShift", {{"direction", StringAttr("LEFT")}}, {DType::kI32, DType::kI32}).supported);
}

}  // namespace
}  // namespace trinity::testing
