// Unit tests for DFT, STFT, the window generators and MelWeightMatrix.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<float> RandomVec(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& e : v) e = d(rng);
  return v;
}

// Naive DFT in double: the reference every transform size is checked against.
std::vector<std::complex<double>> NaiveDft(const std::vector<std::complex<double>>& x, bool inv) {
  const size_t n = x.size();
  std::vector<std::complex<double>> y(n);
  for (size_t k = 0; k < n; ++k) {
    for (size_t j = 0; j < n; ++j) {
      const double a = (inv ? 2 : -2) * kPi * static_cast<double>(j * k % n) / n;
      y[k] += x[j] * std::complex<double>(std::cos(a), std::sin(a));
    }
    if (inv) y[k] /= static_cast<double>(n);
  }
  return y;
}

// Tolerance: 1e-4 relative to the largest output magnitude.
void ExpectCloseComplex(const Tensor& got, const std::vector<std::complex<double>>& want) {
  ASSERT_EQ(got.numel(), static_cast<int64_t>(2 * want.size()));
  double scale = 1e-6;
  for (auto& w : want) scale = std::max(scale, std::abs(w));
  const float* g = got.data<float>();
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_NEAR(g[2 * k], want[k].real(), 1e-4 * scale) << "bin " << k;
    EXPECT_NEAR(g[2 * k + 1], want[k].imag(), 1e-4 * scale) << "bin " << k;
  }
}

class DftSizes : public ::testing::TestWithParam<int> {};

TEST_P(DftSizes, RealForwardMatchesNaive) {
  const int n = GetParam();
  const std::vector<float> x = RandomVec(n, 42 + n);
  Tensor in = F32({1, n, 1}, x);
  auto out = RunKernel("DFT", {{"axis", IntAttr(1)}}, {&in});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, n, 2}));
  std::vector<std::complex<double>> xc(x.begin(), x.end());
  ExpectCloseComplex((*out)[0], NaiveDft(xc, false));
}

TEST_P(DftSizes, ComplexInverseMatchesNaive) {
  const int n = GetParam();
  const std::vector<float> x = RandomVec(2 * n, 7 + n);
  Tensor in = F32({1, n, 2}, x);
  auto out = RunKernel("DFT", {{"inverse", IntAttr(1)}}, {&in});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<std::complex<double>> xc(n);
  for (int i = 0; i < n; ++i) xc[i] = {x[2 * i], x[2 * i + 1]};
  ExpectCloseComplex((*out)[0], NaiveDft(xc, true));
}

// Radix-2 (8, 256), direct (1, 7, 10, 63) and Bluestein (100, 400) paths.
INSTANTIATE_TEST_SUITE_P(Paths, DftSizes, ::testing::Values(1, 7, 8, 10, 63, 100, 256, 400));

TEST(Dft, OnesidedKeepsHalfPlusOneBins) {
  const std::vector<float> x = RandomVec(9, 3);
  Tensor in = F32({1, 9, 1}, x);
  auto out = RunKernel("DFT", {{"onesided", IntAttr(1)}}, {&in});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 5, 2}));
  std::vector<std::complex<double>> xc(x.begin(), x.end());
  auto want = NaiveDft(xc, false);
  want.resize(5);
  ExpectCloseComplex((*out)[0], want);
}

TEST(Dft, DftLengthZeroPadsAndTruncates) {
  const std::vector<float> x = RandomVec(6, 5);
  Tensor in = F32({1, 6, 1}, x);
  for (int64_t len : {4, 9}) {
    Tensor l = I64({}, {len});
    auto out = RunKernel("DFT", {}, {&in, &l});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<std::complex<double>> xc(static_cast<size_t>(len));
    for (int64_t i = 0; i < std::min<int64_t>(len, 6); ++i) xc[i] = x[i];
    ExpectCloseComplex((*out)[0], NaiveDft(xc, false));
  }
}

TEST(Dft, InnerAxisOfBatchedInput) {
  // [2, 3, 4, 1] along axis 2: each of the 6 rows is transformed on its own.
  const std::vector<float> x = RandomVec(24, 11);
  Tensor in = F32({2, 3, 4, 1}, x);
  auto out = RunKernel("DFT", {{"axis", IntAttr(2)}}, {&in});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const float* g = (*out)[0].data<float>();
  for (int row = 0; row < 6; ++row) {
    std::vector<std::complex<double>> xc(x.begin() + row * 4, x.begin() + row * 4 + 4);
    auto want = NaiveDft(xc, false);
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(g[(row * 4 + k) * 2], want[k].real(), 1e-5);
      EXPECT_NEAR(g[(row * 4 + k) * 2 + 1], want[k].imag(), 1e-5);
    }
  }
}

TEST(Dft, RejectsBadShapesAndAxes) {
  Tensor bad_last = F32({1, 4, 3}, std::vector<float>(12));
  EXPECT_FALSE(RunKernel("DFT", {}, {&bad_last}).ok());
  Tensor in = F32({1, 4, 1}, std::vector<float>(4));
  auto r = RunKernel("DFT", {{"axis", IntAttr(2)}}, {&in});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("axis 2"), std::string::npos);
  Tensor zero = I64({}, {0});
  EXPECT_FALSE(RunKernel("DFT", {}, {&in, &zero}).ok());
}

TEST(Dft, SupportRefusesOnesidedInverse) {
  Node n;
  n.op_type = "DFT";
  n.attrs["onesided"] = IntAttr(1);
  n.attrs["inverse"] = IntAttr(1);
  const OpSupport s = KernelRegistry::Cpu().Supports(SupportQuery{n, 17, {DType::kF32}, {}, {}});
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("onesided"), std::string::npos);
}

TEST(Stft, FramesMatchWindowedDft) {
  const std::vector<float> x = RandomVec(40, 21);
  Tensor sig = F32({1, 40, 1}, x);
  Tensor step = I64({}, {6});
  std::vector<float> win(10);
  for (int i = 0; i < 10; ++i) win[i] = 0.5f - 0.5f * std::cos(2 * kPi * i / 10);
  Tensor w = F32({10}, win);
  auto out = RunKernel("STFT", {}, {&sig, &step, &w});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Tensor& y = (*out)[0];
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{1, 6, 6, 2}));  // (40-10)/6+1 frames, 10/2+1 bins
  for (int f = 0; f < 6; ++f) {
    std::vector<std::complex<double>> frame(10);
    for (int i = 0; i < 10; ++i) frame[i] = x[f * 6 + i] * win[i];
    auto want = NaiveDft(frame, false);
    for (int k = 0; k < 6; ++k) {
      EXPECT_NEAR(y.data<float>()[(f * 6 + k) * 2], want[k].real(), 1e-5);
      EXPECT_NEAR(y.data<float>()[(f * 6 + k) * 2 + 1], want[k].imag(), 1e-5);
    }
  }
}

TEST(Stft, RejectsMismatchedWindowAndLongFrames) {
  Tensor sig = F32({1, 8, 1}, std::vector<float>(8));
  Tensor step = I64({}, {2});
  Tensor w = F32({4}, std::vector<float>(4, 1.f));
  Tensor len5 = I64({}, {5});
  EXPECT_FALSE(RunKernel("STFT", {}, {&sig, &step, &w, &len5}).ok());
  Tensor len9 = I64({}, {9});
  EXPECT_FALSE(RunKernel("STFT", {}, {&sig, &step, nullptr, &len9}).ok());
  Tensor step0 = I64({}, {0});
  EXPECT_FALSE(RunKernel("STFT", {}, {&sig, &step0, &w}).ok());
  EXPECT_FALSE(RunKernel("STFT", {}, {&sig, &step}).ok());  // neither window nor length
}

TEST(Windows, HannPeriodicAndSymmetric) {
  Tensor n = Tensor::FromVector(DType::kI32, {}, std::vector<int32_t>{4});
  auto p = RunKernel("HannWindow", {}, {&n});
  ASSERT_TRUE(p.ok());
  const std::vector<float> want_p = {0.f, 0.5f, 1.f, 0.5f};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(ToVector<float>((*p)[0])[i], want_p[i], 1e-6);
  auto s = RunKernel("HannWindow", {{"periodic", IntAttr(0)}}, {&n});
  ASSERT_TRUE(s.ok());
  const std::vector<float> want_s = {0.f, 0.75f, 0.75f, 0.f};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(ToVector<float>((*s)[0])[i], want_s[i], 1e-6);
}

TEST(Windows, HammingAndBlackmanCoefficients) {
  Tensor n = I64({}, {4});
  auto h = RunKernel("HammingWindow", {}, {&n});
  ASSERT_TRUE(h.ok());
  EXPECT_NEAR(ToVector<float>((*h)[0])[0], 4.0 / 46.0, 1e-6);  // a0 - a1 = 4/46
  EXPECT_NEAR(ToVector<float>((*h)[0])[2], 1.0, 1e-6);
  auto b = RunKernel("BlackmanWindow", {}, {&n});
  ASSERT_TRUE(b.ok());
  EXPECT_NEAR(ToVector<float>((*b)[0])[0], 0.0, 1e-6);
  EXPECT_NEAR(ToVector<float>((*b)[0])[1], 0.42 + 0.08 * -1.0, 1e-6);  // cos(pi/2)=0, cos(pi)=-1
  EXPECT_NEAR(ToVector<float>((*b)[0])[2], 1.0, 1e-6);
}

TEST(Windows, OutputDatatypeAndEdgeSizes) {
  Tensor n = I64({}, {3});
  auto d = RunKernel("HannWindow", {{"output_datatype", IntAttr(11)}}, {&n});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)[0].dtype(), DType::kF64);
  EXPECT_NEAR((*d)[0].data<double>()[1], 0.75, 1e-12);
  Tensor one = I64({}, {1});
  auto s1 = RunKernel("HannWindow", {{"periodic", IntAttr(0)}}, {&one});
  ASSERT_TRUE(s1.ok());
  EXPECT_EQ(ToVector<float>((*s1)[0]), std::vector<float>{1.f});
  Tensor neg = I64({}, {-2});
  EXPECT_FALSE(RunKernel("HannWindow", {}, {&neg}).ok());
  EXPECT_FALSE(RunKernel("HannWindow", {{"output_datatype", IntAttr(8)}}, {&n}).ok());  // string
}

TEST(MelWeightMatrix, MatchesOnnxReferenceExample) {
  Tensor bins = Tensor::FromVector(DType::kI32, {}, std::vector<int32_t>{8});
  Tensor len = Tensor::FromVector(DType::kI32, {}, std::vector<int32_t>{16});
  Tensor rate = Tensor::FromVector(DType::kI32, {}, std::vector<int32_t>{8192});
  Tensor lo = F32({}, {0.f});
  Tensor hi = F32({}, {4096.f});
  auto out = RunKernel("MelWeightMatrix", {}, {&bins, &len, &rate, &lo, &hi});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Tensor& y = (*out)[0];
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{9, 8}));
  // From the ONNX example: row 0 = [1, 1, 0...], row 1 = [0, 0, 1, 1, 0...], row 8 all zero.
  const std::vector<float> v = ToVector<float>(y);
  EXPECT_EQ(v[0], 1.f);
  EXPECT_EQ(v[1], 1.f);
  EXPECT_EQ(v[2], 0.f);
  EXPECT_EQ(v[8 + 2], 1.f);
  EXPECT_EQ(v[8 + 3], 1.f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v[64 + i], 0.f);
}

TEST(MelWeightMatrix, RejectsEdgesPastNyquist) {
  Tensor bins = I64({}, {8});
  Tensor len = I64({}, {16});
  Tensor rate = I64({}, {8192});
  Tensor lo = F32({}, {0.f});
  Tensor hi = F32({}, {9000.f});
  EXPECT_FALSE(RunKernel("MelWeightMatrix", {}, {&bins, &len, &rate, &lo, &hi}).ok());
  Tensor hi_below_lo = F32({}, {-1.f});
  EXPECT_FALSE(RunKernel("MelWeightMatrix", {}, {&bins, &len, &rate, &lo, &hi_below_lo}).ok());
}

}  // namespace
}  // namespace trinity::testing
