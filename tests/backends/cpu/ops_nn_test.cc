// Unit tests of the NN kernels against naive references on random shapes.
// Fixed seeds; tolerance |got - want| <= 1e-4 * max(1, |want|) unless stated.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity {
namespace {

using testing::F32;
using testing::FloatAttr;
using testing::I64;
using testing::IntAttr;
using testing::IntsAttr;
using testing::RunKernel;
using testing::StringAttr;
using testing::ToVector;

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

void ExpectClose(const std::vector<float>& got, const std::vector<float>& want, float rel = 1e-4f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], rel * std::max(1.f, std::abs(want[i]))) << "at " << i;
  }
}

// Naive 2-D conv (NCHW, OIHW), explicit pads.
std::vector<float> NaiveConv2D(const std::vector<float>& x, const std::vector<float>& w,
                               const std::vector<float>& b, int64_t n, int64_t c, int64_t h,
                               int64_t wd, int64_t m, int64_t kh, int64_t kw, int64_t group,
                               int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t pt,
                               int64_t pl, int64_t pb, int64_t pr, int64_t* oh_out,
                               int64_t* ow_out) {
  const int64_t oh = (h + pt + pb - ((kh - 1) * dh + 1)) / sh + 1;
  const int64_t ow = (wd + pl + pr - ((kw - 1) * dw + 1)) / sw + 1;
  *oh_out = oh;
  *ow_out = ow;
  const int64_t icg = c / group, ocg = m / group;
  std::vector<float> y(static_cast<size_t>(n * m * oh * ow));
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t o = 0; o < m; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = b.empty() ? 0 : b[o];
          const int64_t g = o / ocg;
          for (int64_t ic = 0; ic < icg; ++ic)
            for (int64_t ki = 0; ki < kh; ++ki)
              for (int64_t kj = 0; kj < kw; ++kj) {
                const int64_t yy = i * sh - pt + ki * dh, xx = j * sw - pl + kj * dw;
                if (yy < 0 || yy >= h || xx < 0 || xx >= wd) continue;
                acc += x[((ni * c + g * icg + ic) * h + yy) * wd + xx] *
                       w[((o * icg + ic) * kh + ki) * kw + kj];
              }
          y[((ni * m + o) * oh + i) * ow + j] = static_cast<float>(acc);
        }
  return y;
}

struct ConvCase {
  int64_t n, c, h, w, m, kh, kw, group, sh, sw, dh, dw, pt, pl, pb, pr;
  bool bias;
};

TEST(NnConv, MatchesNaiveOnRandom2DShapes) {
  const ConvCase cases[] = {
      {1, 3, 9, 11, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true},
      {2, 4, 8, 7, 6, 3, 2, 2, 2, 1, 1, 2, 0, 1, 2, 0, false},
      {1, 8, 10, 10, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1, 1, 1, true},    // depthwise
      {1, 5, 6, 6, 7, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true},      // pointwise (Sgemm path)
      {1, 16, 13, 13, 32, 3, 3, 1, 2, 2, 1, 1, 1, 1, 1, 1, true},  // larger: blocked GEMM
  };
  uint32_t seed = 1;
  for (const ConvCase& k : cases) {
    const auto x = Random(k.n * k.c * k.h * k.w, seed++);
    const auto w = Random(k.m * (k.c / k.group) * k.kh * k.kw, seed++);
    const auto b = k.bias ? Random(k.m, seed++) : std::vector<float>();
    int64_t oh, ow;
    const auto want = NaiveConv2D(x, w, b, k.n, k.c, k.h, k.w, k.m, k.kh, k.kw, k.group, k.sh, k.sw,
                                  k.dh, k.dw, k.pt, k.pl, k.pb, k.pr, &oh, &ow);
    Tensor tx = F32({k.n, k.c, k.h, k.w}, x), tw = F32({k.m, k.c / k.group, k.kh, k.kw}, w);
    Tensor tb = F32({k.m}, b.empty() ? std::vector<float>(k.m) : b);
    for (int threads : {1, 2}) {
      auto r = RunKernel("Conv",
                         {{"group", IntAttr(k.group)},
                          {"strides", IntsAttr({k.sh, k.sw})},
                          {"dilations", IntsAttr({k.dh, k.dw})},
                          {"pads", IntsAttr({k.pt, k.pl, k.pb, k.pr})}},
                         {&tx, &tw, k.bias ? &tb : nullptr}, 1, 17, threads);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{k.n, k.m, oh, ow}));
      ExpectClose(ToVector<float>((*r)[0]), want);
    }
  }
}

TEST(NnConv, OneDAndThreeDMatchNaive) {
  // 1-D as a 2-D conv with H = 1; 3-D as a 2-D conv with a depth-1 kernel and depth 1.
  const auto x1 = Random(2 * 3 * 10, 11), w1 = Random(4 * 3 * 3, 12);
  int64_t oh, ow;
  const auto want1 =
      NaiveConv2D(x1, w1, {}, 2, 3, 1, 10, 4, 1, 3, 1, 1, 2, 1, 1, 0, 1, 0, 1, &oh, &ow);
  Tensor tx1 = F32({2, 3, 10}, x1), tw1 = F32({4, 3, 3}, w1);
  auto r1 =
      RunKernel("Conv", {{"strides", IntsAttr({2})}, {"pads", IntsAttr({1, 1})}}, {&tx1, &tw1});
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  ExpectClose(ToVector<float>((*r1)[0]), want1);

  const auto x3 = Random(1 * 2 * 5 * 6, 13), w3 = Random(3 * 2 * 3 * 3, 14);
  const auto want3 =
      NaiveConv2D(x3, w3, {}, 1, 2, 5, 6, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, &oh, &ow);
  Tensor tx3 = F32({1, 2, 1, 5, 6}, x3), tw3 = F32({3, 2, 1, 3, 3}, w3);
  auto r3 = RunKernel("Conv", {{"pads", IntsAttr({0, 1, 1, 0, 1, 1})}}, {&tx3, &tw3});
  ASSERT_TRUE(r3.ok()) << r3.status().ToString();
  EXPECT_EQ((*r3)[0].shape(), (std::vector<int64_t>{1, 3, 1, oh, ow}));
  ExpectClose(ToVector<float>((*r3)[0]), want3);
}

TEST(NnConv, RerunWithChangedWeightsUsesNewWeights) {
  // The XNNPACK operator cache must notice new weight values at the same address.
  const auto x = Random(1 * 2 * 6 * 6, 21);
  Tensor tx = F32({1, 2, 6, 6}, x);
  Tensor tw = F32({2, 2, 3, 3}, Random(36, 22));
  for (int round = 0; round < 2; ++round) {
    std::vector<float> w = ToVector<float>(tw);
    int64_t oh, ow;
    const auto want =
        NaiveConv2D(x, w, {}, 1, 2, 6, 6, 2, 3, 3, 1, 1, 1, 1, 1, 0, 0, 0, 0, &oh, &ow);
    auto r = RunKernel("Conv", {}, {&tx, &tw});
    ASSERT_TRUE(r.ok());
    ExpectClose(ToVector<float>((*r)[0]), want);
    for (int64_t i = 0; i < tw.numel(); ++i) tw.data<float>()[i] *= -2.f;
  }
}

TEST(NnConv, AutoPadSameUpper) {
  Tensor x = F32({1, 1, 5, 5}, Random(25, 31)), w = F32({1, 1, 3, 3}, Random(9, 32));
  auto r = RunKernel(
      "Conv", {{"auto_pad", StringAttr("SAME_UPPER")}, {"strides", IntsAttr({2, 2})}}, {&x, &w});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{1, 1, 3, 3}));
}

TEST(NnConv, RejectsChannelMismatch) {
  Tensor x = F32({1, 3, 5, 5}, Random(75, 1)), w = F32({2, 2, 3, 3}, Random(36, 2));
  auto r = RunKernel("Conv", {}, {&x, &w});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("input channels"), std::string::npos);
}

TEST(NnConv, RejectsWindowLargerThanInput) {
  Tensor x = F32({1, 1, 2, 2}, Random(4, 1)), w = F32({1, 1, 3, 3}, Random(9, 2));
  EXPECT_FALSE(RunKernel("Conv", {}, {&x, &w}).ok());
}

TEST(NnConvTranspose, MatchesNaiveScatter) {
  const int64_t n = 1, c = 4, h = 4, wd = 5, ocg = 3, group = 2, kh = 3, kw = 2, sh = 2, sw = 3;
  const int64_t dh = 1, dw = 2, pt = 1, pl = 0, pb = 0, pr = 1, oph = 1, opw = 0;
  const auto x = Random(n * c * h * wd, 41), w = Random(c * ocg * kh * kw, 42);
  const auto b = Random(ocg * group, 43);
  const int64_t oh = sh * (h - 1) + oph + (kh - 1) * dh + 1 - pt - pb;
  const int64_t ow = sw * (wd - 1) + opw + (kw - 1) * dw + 1 - pl - pr;
  std::vector<float> want(static_cast<size_t>(n * ocg * group * oh * ow));
  const int64_t icg = c / group, m = ocg * group;
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < oh * ow; ++i) want[o * oh * ow + i] = b[o];
  for (int64_t ic = 0; ic < c; ++ic)
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < wd; ++j)
        for (int64_t oc = 0; oc < ocg; ++oc)
          for (int64_t ki = 0; ki < kh; ++ki)
            for (int64_t kj = 0; kj < kw; ++kj) {
              const int64_t yy = i * sh - pt + ki * dh, xx = j * sw - pl + kj * dw;
              if (yy < 0 || yy >= oh || xx < 0 || xx >= ow) continue;
              const int64_t o = (ic / icg) * ocg + oc;
              want[(o * oh + yy) * ow + xx] +=
                  x[(ic * h + i) * wd + j] * w[((ic * ocg + oc) * kh + ki) * kw + kj];
            }
  Tensor tx = F32({n, c, h, wd}, x), tw = F32({c, ocg, kh, kw}, w), tb = F32({m}, b);
  auto r = RunKernel("ConvTranspose",
                     {{"group", IntAttr(group)},
                      {"strides", IntsAttr({sh, sw})},
                      {"dilations", IntsAttr({dh, dw})},
                      {"pads", IntsAttr({pt, pl, pb, pr})},
                      {"output_padding", IntsAttr({oph, opw})}},
                     {&tx, &tw, &tb});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{n, m, oh, ow}));
  ExpectClose(ToVector<float>((*r)[0]), want);
}

std::vector<float> NaiveMatMul(const std::vector<float>& a, const std::vector<float>& b, int64_t m,
                               int64_t n, int64_t k) {
  std::vector<float> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) acc += a[i * k + p] * b[p * n + j];
      y[i * n + j] = static_cast<float>(acc);
    }
  return y;
}

TEST(NnGemm, MatMulMatchesNaiveSmallAndLarge) {
  const int64_t sizes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 33, 9}, {130, 70, 300}, {1, 1000, 512}};
  uint32_t seed = 100;
  for (const auto& s : sizes) {
    const auto a = Random(s[0] * s[2], seed++), b = Random(s[2] * s[1], seed++);
    Tensor ta = F32({s[0], s[2]}, a), tb = F32({s[2], s[1]}, b);
    auto r = RunKernel("MatMul", {}, {&ta, &tb}, 1, 13, 2);
    ASSERT_TRUE(r.ok());
    ExpectClose(ToVector<float>((*r)[0]), NaiveMatMul(a, b, s[0], s[1], s[2]));
  }
}

TEST(NnGemm, MatMulBroadcastsBatchAndVectors) {
  const auto a = Random(2 * 1 * 3 * 4, 7), b = Random(3 * 4 * 5, 8);
  Tensor ta = F32({2, 1, 3, 4}, a), tb = F32({3, 4, 5}, b);
  auto r = RunKernel("MatMul", {}, {&ta, &tb});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{2, 3, 3, 5}));
  std::vector<float> got = ToVector<float>((*r)[0]);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      std::vector<float> as(a.begin() + i * 12, a.begin() + i * 12 + 12);
      std::vector<float> bs(b.begin() + j * 20, b.begin() + j * 20 + 20);
      std::vector<float> gs(got.begin() + (i * 3 + j) * 15, got.begin() + (i * 3 + j) * 15 + 15);
      ExpectClose(gs, NaiveMatMul(as, bs, 3, 5, 4));
    }
  Tensor v = F32({4}, Random(4, 9));
  auto rv = RunKernel("MatMul", {}, {&v, &tb});
  ASSERT_TRUE(rv.ok());
  EXPECT_EQ((*rv)[0].shape(), (std::vector<int64_t>{3, 5}));
}

TEST(NnGemm, MatMulRejectsInnerMismatch) {
  Tensor a = F32({2, 3}, Random(6, 1)), b = F32({4, 2}, Random(8, 2));
  auto r = RunKernel("MatMul", {}, {&a, &b});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("inner dimensions"), std::string::npos);
}

TEST(NnGemm, GemmTransposesAndBroadcastsC) {
  const int64_t m = 37, n = 29, k = 41;
  const auto a = Random(k * m, 51), b = Random(n * k, 52), c = Random(n, 53);
  Tensor ta = F32({k, m}, a), tb = F32({n, k}, b), tc = F32({1, n}, c);
  auto r = RunKernel("Gemm",
                     {{"transA", IntAttr(1)},
                      {"transB", IntAttr(1)},
                      {"alpha", FloatAttr(0.5f)},
                      {"beta", FloatAttr(2.f)}},
                     {&ta, &tb, &tc}, 1, 13, 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<float> want(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) acc += a[p * m + i] * b[j * k + p];
      want[i * n + j] = static_cast<float>(0.5 * acc + 2.0 * c[j]);
    }
  ExpectClose(ToVector<float>((*r)[0]), want);
}

TEST(NnGemm, LargeGemmUsesCachedXnnpackAndSeesNewWeights) {
  // Big enough for the XNNPACK fully_connected path; B changes between runs in place.
  const int64_t m = 40, n = 48, k = 64;
  const auto a = Random(k * m, 91), c = Random(m * n, 93);
  Tensor ta = F32({k, m}, a), tb = F32({n, k}, Random(n * k, 92)), tc = F32({m, n}, c);
  for (int round = 0; round < 2; ++round) {
    const std::vector<float> b = ToVector<float>(tb);
    auto r = RunKernel("Gemm",
                       {{"transA", IntAttr(1)}, {"transB", IntAttr(1)}, {"beta", FloatAttr(0.5f)}},
                       {&ta, &tb, &tc}, 1, 13, 2);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    std::vector<float> want(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += a[p * m + i] * b[j * k + p];
        want[i * n + j] = static_cast<float>(acc + 0.5 * c[i * n + j]);
      }
    ExpectClose(ToVector<float>((*r)[0]), want);
    for (int64_t i = 0; i < tb.numel(); ++i) tb.data<float>()[i] += 0.25f;
  }
}

TEST(NnGemm, GemmRejectsBadBias) {
  Tensor a = F32({2, 3}, Random(6, 1)), b = F32({3, 4}, Random(12, 2)), c = F32({3}, Random(3, 3));
  EXPECT_FALSE(RunKernel("Gemm", {}, {&a, &b, &c}).ok());
}

TEST(NnPool, MaxAndAveragePoolMatchNaive) {
  const int64_t n = 2, c = 3, h = 9, w = 8, k = 3, s = 2, p = 1;
  const auto x = Random(n * c * h * w, 61);
  Tensor tx = F32({n, c, h, w}, x);
  const int64_t oh = (h + 2 * p - k + s - 1) / s + 1, ow = (w + 2 * p - k + s - 1) / s + 1;  // ceil
  for (const char* op : {"MaxPool", "AveragePool"}) {
    for (int64_t include : {0, 1}) {
      std::map<std::string, Attribute> attrs = {{"kernel_shape", IntsAttr({k, k})},
                                                {"strides", IntsAttr({s, s})},
                                                {"pads", IntsAttr({p, p, p, p})},
                                                {"ceil_mode", IntAttr(1)}};
      if (std::string(op) == "AveragePool") attrs["count_include_pad"] = IntAttr(include);
      auto r = RunKernel(op, attrs, {&tx});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ASSERT_EQ((*r)[0].shape(), (std::vector<int64_t>{n, c, oh, ow}));
      std::vector<float> want;
      for (int64_t pl = 0; pl < n * c; ++pl)
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            float mx = -INFINITY;
            double sum = 0;
            int64_t cnt = 0, cnt_pad = 0;
            for (int64_t a = 0; a < k; ++a)
              for (int64_t bb = 0; bb < k; ++bb) {
                const int64_t yy = i * s - p + a, xx = j * s - p + bb;
                if (yy < h + p && xx < w + p) ++cnt_pad;
                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                const float v = x[(pl * h + yy) * w + xx];
                mx = std::max(mx, v);
                sum += v;
                ++cnt;
              }
            want.push_back(std::string(op) == "MaxPool"
                               ? mx
                               : static_cast<float>(sum / (include ? cnt_pad : cnt)));
          }
      ExpectClose(ToVector<float>((*r)[0]), want);
      if (std::string(op) == "MaxPool") break;
    }
  }
}

TEST(NnPool, MaxPoolIndicesRoundTripThroughMaxUnpool) {
  Tensor x = F32({1, 1, 4, 4}, Random(16, 71));
  auto r = RunKernel("MaxPool", {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}},
                     {&x}, 2);
  ASSERT_TRUE(r.ok());
  const Tensor& idx = (*r)[1];
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(x.data<float>()[idx.data<int64_t>()[i]], (*r)[0].data<float>()[i]);
  }
  auto u =
      RunKernel("MaxUnpool", {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}},
                {&(*r)[0], &idx});
  ASSERT_TRUE(u.ok());
  EXPECT_EQ((*u)[0].shape(), (std::vector<int64_t>{1, 1, 4, 4}));
}

TEST(NnPool, MaxUnpoolRejectsOutOfRangeIndex) {
  Tensor x = F32({1, 1, 1, 1}, {1.f});
  Tensor i = I64({1, 1, 1, 1}, {99});
  auto r = RunKernel("MaxUnpool",
                     {{"kernel_shape", IntsAttr({2, 2})}, {"strides", IntsAttr({2, 2})}}, {&x, &i});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("out of range"), std::string::npos);
}

TEST(NnResize, LinearAlignCornersOnRandomShape) {
  // align_corners linear has a closed form: out(i) = interpolation at i*(in-1)/(out-1).
  const auto x = Random(1 * 1 * 3 * 5, 81);
  Tensor tx = F32({1, 1, 3, 5}, x);
  Tensor sizes = I64({4}, {1, 1, 7, 4});
  auto r = RunKernel("Resize",
                     {{"mode", StringAttr("linear")},
                      {"coordinate_transformation_mode", StringAttr("align_corners")}},
                     {&tx, nullptr, nullptr, &sizes}, 1, 13);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<float> want;
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      const double yy = i * 2.0 / 6.0, xx = j * 4.0 / 3.0;
      const int64_t y0 = std::min<int64_t>(static_cast<int64_t>(yy), 1);
      const int64_t x0 = std::min<int64_t>(static_cast<int64_t>(xx), 3);
      const double fy = yy - y0, fx = xx - x0;
      auto at = [&](int64_t a, int64_t b) { return static_cast<double>(x[a * 5 + b]); };
      want.push_back(
          static_cast<float>((1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x0 + 1)) +
                             fy * ((1 - fx) * at(y0 + 1, x0) + fx * at(y0 + 1, x0 + 1))));
    }
  ExpectClose(ToVector<float>((*r)[0]), want);
}

TEST(NnResize, RejectsScalesAndSizesTogether) {
  Tensor x = F32({1, 1, 2, 2}, Random(4, 1));
  Tensor scales = F32({4}, {1, 1, 2, 2});
  Tensor sizes = I64({4}, {1, 1, 4, 4});
  EXPECT_FALSE(RunKernel("Resize", {}, {&x, nullptr, &scales, &sizes}, 1, 13).ok());
}

TEST(NnDetect, NmsRejectsShapeMismatch) {
  Tensor boxes = F32({1, 2, 4}, Random(8, 1)), scores = F32({1, 1, 3}, Random(3, 2));
  EXPECT_FALSE(RunKernel("NonMaxSuppression", {}, {&boxes, &scores}).ok());
}

}  // namespace
}  // namespace trinity
