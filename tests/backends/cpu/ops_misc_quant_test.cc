// Unit tests for the quantization ops. Integer outputs are compared exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

Tensor U8(std::vector<int64_t> shape, const std::vector<uint8_t>& v) {
  return Tensor::FromVector(DType::kU8, std::move(shape), v);
}
Tensor I8(std::vector<int64_t> shape, const std::vector<int8_t>& v) {
  return Tensor::FromVector(DType::kI8, std::move(shape), v);
}

TEST(QuantizeLinear, RoundsHalfToEvenAndSaturates) {
  Tensor x = F32({8}, {0.f, 1.f, 3.f, 5.f, -3.f, 1000.f, -1000.f, 7.f});
  Tensor s = F32({}, {2.f});
  Tensor zp = U8({}, {128});
  auto out = RunKernel("QuantizeLinear", {}, {&x, &s, &zp}, 1, 13);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // 0.5->0, 1.5->2, 2.5->2, -1.5->-2, 3.5->4; +128, saturated to [0, 255].
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]),
            (std::vector<uint8_t>{128, 128, 130, 130, 126, 255, 0, 132}));
}

TEST(QuantizeLinear, Int8AndDefaultZeroPoint) {
  Tensor x = F32({4}, {-300.f, -2.5f, 2.5f, 300.f});
  Tensor s = F32({}, {1.f});
  Tensor zp = I8({}, {0});
  auto i8 = RunKernel("QuantizeLinear", {}, {&x, &s, &zp}, 1, 13);
  ASSERT_TRUE(i8.ok());
  EXPECT_EQ(ToVector<int8_t>((*i8)[0]), (std::vector<int8_t>{-128, -2, 2, 127}));
  auto u8 = RunKernel("QuantizeLinear", {}, {&x, &s}, 1, 10);
  ASSERT_TRUE(u8.ok());
  EXPECT_EQ((*u8)[0].dtype(), DType::kU8);
  EXPECT_EQ(ToVector<uint8_t>((*u8)[0]), (std::vector<uint8_t>{0, 0, 2, 255}));
}

TEST(QuantizeLinear, PerAxis) {
  Tensor x = F32({2, 3}, {2.f, 4.f, 6.f, -2.f, -4.f, -6.f});
  Tensor s = F32({3}, {1.f, 2.f, 3.f});
  Tensor zp = U8({3}, {10, 20, 30});
  auto out = RunKernel("QuantizeLinear", {{"axis", IntAttr(1)}}, {&x, &s, &zp}, 1, 13);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]), (std::vector<uint8_t>{12, 22, 32, 8, 18, 28}));
}

TEST(QuantizeLinear, RejectsMismatchedScale) {
  Tensor x = F32({2, 3}, std::vector<float>(6));
  Tensor s = F32({2}, {1.f, 2.f});
  EXPECT_FALSE(RunKernel("QuantizeLinear", {{"axis", IntAttr(1)}}, {&x, &s}, 1, 13).ok());
  Tensor s3 = F32({3}, {1.f, 2.f, 3.f});
  EXPECT_FALSE(RunKernel("QuantizeLinear", {}, {&x, &s3}, 1, 10).ok());  // no per-axis in 10
  EXPECT_FALSE(RunKernel("QuantizeLinear", {{"axis", IntAttr(5)}}, {&x, &s3}, 1, 13).ok());
}

TEST(DequantizeLinear, PerTensorAndPerAxis) {
  Tensor x = U8({4}, {0, 3, 128, 255});
  Tensor s = F32({}, {2.f});
  Tensor zp = U8({}, {128});
  auto out = RunKernel("DequantizeLinear", {}, {&x, &s, &zp}, 1, 13);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(ToVector<float>((*out)[0]), (std::vector<float>{-256.f, -250.f, 0.f, 254.f}));
  Tensor xa = I8({2, 2}, {-1, 1, 10, -10});
  Tensor sa = F32({2}, {0.5f, 2.f});
  Tensor za = I8({2}, {1, -1});
  auto axis0 = RunKernel("DequantizeLinear", {{"axis", IntAttr(0)}}, {&xa, &sa, &za}, 1, 13);
  ASSERT_TRUE(axis0.ok()) << axis0.status().ToString();
  EXPECT_EQ(ToVector<float>((*axis0)[0]), (std::vector<float>{-1.f, 0.f, 22.f, -18.f}));
}

TEST(DequantizeLinear, Int32AndZeroPointDtypeMismatch) {
  Tensor x = Tensor::FromVector(DType::kI32, {2}, std::vector<int32_t>{-100000, 7});
  Tensor s = F32({}, {0.5f});
  auto out = RunKernel("DequantizeLinear", {}, {&x, &s}, 1, 13);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(ToVector<float>((*out)[0]), (std::vector<float>{-50000.f, 3.5f}));
  Tensor xu = U8({1}, {1});
  Tensor zi = I8({}, {0});
  EXPECT_FALSE(RunKernel("DequantizeLinear", {}, {&xu, &s, &zi}, 1, 13).ok());
}

TEST(DynamicQuantizeLinear, MatchesOnnxExample) {
  Tensor x = F32({6}, {0.f, 2.f, -3.f, -2.5f, 1.34f, 0.5f});
  auto out = RunKernel("DynamicQuantizeLinear", {}, {&x}, 3, 11);
  ASSERT_TRUE(out.ok());
  const float scale = 5.f / 255.f;
  EXPECT_FLOAT_EQ((*out)[1].data<float>()[0], scale);
  EXPECT_EQ((*out)[2].data<uint8_t>()[0], 153);  // round(3 / scale) = round(153)
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]), (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));
}

TEST(DynamicQuantizeLinear, AllZeroInputUsesUnitScale) {
  Tensor x = F32({3}, {0.f, 0.f, 0.f});
  auto out = RunKernel("DynamicQuantizeLinear", {}, {&x}, 3, 11);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[1].data<float>()[0], 1.f);
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]), (std::vector<uint8_t>{0, 0, 0}));
}

// Reference integer matmul for [M,K] x [K,N].
std::vector<int32_t> NaiveMatMul(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                                 int m, int k, int n) {
  std::vector<int32_t> c(m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int kk = 0; kk < k; ++kk) c[i * n + j] += a[i * k + kk] * b[kk * n + j];
  return c;
}

TEST(MatMulInteger, ScalarAndPerColumnZeroPoints) {
  Tensor a = U8({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  Tensor b = U8({3, 2}, {1, 4, 2, 5, 3, 6});
  Tensor azp = U8({1}, {12});
  Tensor bzp = U8({2}, {0, 1});
  auto out = RunKernel("MatMulInteger", {}, {&a, &b, &azp, &bzp}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<int32_t> av, bv;
  for (int v : ToVector<uint8_t>(a)) av.push_back(v - 12);
  const auto braw = ToVector<uint8_t>(b);
  for (int i = 0; i < 6; ++i) bv.push_back(braw[i] - (i % 2));
  EXPECT_EQ(ToVector<int32_t>((*out)[0]), NaiveMatMul(av, bv, 4, 3, 2));
}

TEST(MatMulInteger, BroadcastsBatchesAndInt8) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> av(2 * 3 * 5), bv(5 * 4);
  for (auto& e : av) e = static_cast<int8_t>(d(rng));
  for (auto& e : bv) e = static_cast<int8_t>(d(rng));
  Tensor a = I8({2, 3, 5}, av);
  Tensor b = I8({5, 4}, bv);
  auto out = RunKernel("MatMulInteger", {}, {&a, &b}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3, 4}));
  const std::vector<int32_t> bi(bv.begin(), bv.end());
  for (int batch = 0; batch < 2; ++batch) {
    const std::vector<int32_t> ai(av.begin() + batch * 15, av.begin() + batch * 15 + 15);
    const auto want = NaiveMatMul(ai, bi, 3, 5, 4);
    const auto got = ToVector<int32_t>((*out)[0]);
    EXPECT_EQ(std::vector<int32_t>(got.begin() + batch * 12, got.begin() + batch * 12 + 12), want);
  }
}

TEST(MatMulInteger, RejectsBadShapesAndTypes) {
  Tensor a = U8({2, 3}, std::vector<uint8_t>(6));
  Tensor b = U8({2, 2}, std::vector<uint8_t>(4));
  EXPECT_FALSE(RunKernel("MatMulInteger", {}, {&a, &b}, 1, 10).ok());
  Tensor f = F32({3, 2}, std::vector<float>(6));
  EXPECT_FALSE(RunKernel("MatMulInteger", {}, {&a, &f}, 1, 10).ok());
  Tensor b3 = U8({3, 2}, std::vector<uint8_t>(6));
  Tensor bad_zp = U8({3}, {1, 2, 3});
  EXPECT_FALSE(RunKernel("MatMulInteger", {}, {&a, &b3, nullptr, &bad_zp}, 1, 10).ok());
}

TEST(QLinearMatMul, MatchesOnnxExample) {
  Tensor a = U8({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29});
  Tensor as = F32({1}, {0.0066f});
  Tensor azp = U8({1}, {113});
  Tensor b = U8({4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247});
  Tensor bs = F32({1}, {0.00705f});
  Tensor bzp = U8({1}, {114});
  Tensor ys = F32({1}, {0.0107f});
  Tensor yzp = U8({1}, {118});
  auto out = RunKernel("QLinearMatMul", {}, {&a, &as, &azp, &b, &bs, &bzp, &ys, &yzp}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]), (std::vector<uint8_t>{168, 115, 255, 1, 66, 151}));
}

// Reference 2-D convolution on zero-point-shifted values (padding is a real zero).
std::vector<int32_t> NaiveConv2d(const std::vector<int32_t>& x, int c, int h, int w,
                                 const std::vector<int32_t>& k, int m, int kh, int kw, int pad,
                                 int stride, int* oh, int* ow) {
  *oh = (h + 2 * pad - kh) / stride + 1;
  *ow = (w + 2 * pad - kw) / stride + 1;
  std::vector<int32_t> y(m * *oh * *ow);
  for (int mm = 0; mm < m; ++mm)
    for (int i = 0; i < *oh; ++i)
      for (int j = 0; j < *ow; ++j) {
        int32_t acc = 0;
        for (int cc = 0; cc < c; ++cc)
          for (int a = 0; a < kh; ++a)
            for (int b = 0; b < kw; ++b) {
              const int yi = i * stride - pad + a, xj = j * stride - pad + b;
              if (yi < 0 || yi >= h || xj < 0 || xj >= w) continue;
              acc += x[(cc * h + yi) * w + xj] * k[((mm * c + cc) * kh + a) * kw + b];
            }
        y[(mm * *oh + i) * *ow + j] = acc;
      }
  return y;
}

TEST(ConvInteger, PaddingUsesZeroPoint) {
  Tensor x = U8({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
  Tensor w = U8({1, 1, 2, 2}, {1, 1, 1, 1});
  Tensor zp = U8({}, {1});
  auto out = RunKernel("ConvInteger", {{"pads", IntsAttr({1, 1, 1, 1})}}, {&x, &w, &zp}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(ToVector<int32_t>((*out)[0]),
            (std::vector<int32_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}));
}

TEST(ConvInteger, StridedMultiChannelMatchesNaive) {
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> d(0, 255);
  const int c = 3, h = 7, wd = 6, m = 4;
  std::vector<uint8_t> xv(c * h * wd), wv(m * c * 9);
  for (auto& e : xv) e = static_cast<uint8_t>(d(rng));
  for (auto& e : wv) e = static_cast<uint8_t>(d(rng));
  Tensor x = U8({1, c, h, wd}, xv);
  Tensor w = U8({m, c, 3, 3}, wv);
  Tensor xzp = U8({}, {100});
  Tensor wzp = U8({m}, {1, 2, 3, 4});
  auto out =
      RunKernel("ConvInteger", {{"pads", IntsAttr({1, 1, 1, 1})}, {"strides", IntsAttr({2, 2})}},
                {&x, &w, &xzp, &wzp}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<int32_t> xs, ws;
  for (int v : xv) xs.push_back(v - 100);
  for (size_t i = 0; i < wv.size(); ++i) ws.push_back(wv[i] - static_cast<int>(1 + i / (c * 9)));
  int oh = 0, ow = 0;
  const auto want = NaiveConv2d(xs, c, h, wd, ws, m, 3, 3, 1, 2, &oh, &ow);
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, m, oh, ow}));
  EXPECT_EQ(ToVector<int32_t>((*out)[0]), want);
}

TEST(ConvInteger, RejectsGroupMismatchAndOversizedKernel) {
  Tensor x = U8({1, 3, 4, 4}, std::vector<uint8_t>(48));
  Tensor w = U8({2, 3, 2, 2}, std::vector<uint8_t>(24));
  EXPECT_FALSE(RunKernel("ConvInteger", {{"group", IntAttr(2)}}, {&x, &w}, 1, 10).ok());
  Tensor big = U8({1, 3, 5, 5}, std::vector<uint8_t>(75));
  EXPECT_FALSE(RunKernel("ConvInteger", {}, {&x, &big}, 1, 10).ok());
}

TEST(QLinearConv, OneByOneMatchesOnnxRow) {
  // The first row of the ONNX example: 1x1 kernel w=0 with w_zp=255 (so w = -255).
  Tensor x = U8({1, 1, 1, 7}, {255, 174, 162, 25, 203, 168, 58});
  Tensor xs = F32({}, {0.00369205f});
  Tensor xzp = U8({}, {132});
  Tensor w = U8({1, 1, 1, 1}, {0});
  Tensor ws = F32({1}, {0.00172795f});
  Tensor wzp = U8({1}, {255});
  Tensor ys = F32({}, {0.00162681f});
  Tensor yzp = U8({}, {123});
  auto out = RunKernel("QLinearConv", {}, {&x, &xs, &xzp, &w, &ws, &wzp, &ys, &yzp}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(ToVector<uint8_t>((*out)[0]), (std::vector<uint8_t>{0, 81, 93, 230, 52, 87, 197}));
}

TEST(QLinearConv, BiasAndInt8Saturation) {
  Tensor x = I8({1, 1, 1, 3}, {10, -10, 100});
  Tensor one = F32({}, {1.f});
  Tensor zp = I8({}, {0});
  Tensor w = I8({2, 1, 1, 1}, {2, -3});
  Tensor bias = Tensor::FromVector(DType::kI32, {2}, std::vector<int32_t>{5, -1});
  auto out = RunKernel("QLinearConv", {}, {&x, &one, &zp, &w, &one, &zp, &one, &zp, &bias}, 1, 10);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(ToVector<int8_t>((*out)[0]), (std::vector<int8_t>{25, -15, 127, -31, 29, -128}));
}

}  // namespace
}  // namespace trinity::testing
