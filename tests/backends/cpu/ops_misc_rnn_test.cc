// Unit tests for RNN, GRU and LSTM. Expected values come from hand-written scalar recurrences
// (hidden size 1 or closed forms); tolerance 1e-5 absolute.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "index " << i;
}

TEST(Rnn, DefaultsMatchClosedForm) {
  // X [1, 3, 2] (seq 1, batch 3), W = R = 0.1, H = 4: Y_h = tanh(0.1 * (x0 + x1)).
  Tensor x = F32({1, 3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor w = F32({1, 4, 2}, std::vector<float>(8, 0.1f));
  Tensor r = F32({1, 4, 4}, std::vector<float>(16, 0.1f));
  auto out = RunKernel("RNN", {{"hidden_size", IntAttr(4)}}, {&x, &w, &r}, 2, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::vector<double> want;
  for (double s : {3.0, 7.0, 11.0})
    for (int j = 0; j < 4; ++j) want.push_back(std::tanh(0.1 * s));
  ExpectNear(ToVector<float>((*out)[1]), want);
  ExpectNear(ToVector<float>((*out)[0]), want);  // Y [1, 1, 3, 4] holds the same values
}

// Scalar RNN reference: h = tanh(w*x + r*h + wb + rb).
std::vector<double> ScalarRnn(const std::vector<double>& xs, double w, double r, double b,
                              double h0) {
  std::vector<double> hs;
  double h = h0;
  for (double x : xs) {
    h = std::tanh(w * x + r * h + b);
    hs.push_back(h);
  }
  return hs;
}

TEST(Rnn, BidirectionalWithBiasAndInitialState) {
  // seq 3, batch 1, input 1, H 1.
  Tensor x = F32({3, 1, 1}, {0.5f, -1.f, 2.f});
  Tensor w = F32({2, 1, 1}, {0.7f, -0.4f});
  Tensor r = F32({2, 1, 1}, {0.3f, 0.9f});
  Tensor b = F32({2, 2}, {0.1f, 0.05f, -0.2f, 0.0f});
  Tensor h0 = F32({2, 1, 1}, {0.25f, -0.5f});
  auto out =
      RunKernel("RNN", {{"hidden_size", IntAttr(1)}, {"direction", StringAttr("bidirectional")}},
                {&x, &w, &r, &b, nullptr, &h0}, 2, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const auto fwd = ScalarRnn({0.5, -1, 2}, 0.7, 0.3, 0.15, 0.25);
  const auto bwd = ScalarRnn({2, -1, 0.5}, -0.4, 0.9, -0.2, -0.5);  // reversed in time
  // Y [seq, dir, batch, H]: the reverse direction's output at time t is bwd[2 - t].
  ExpectNear(ToVector<float>((*out)[0]), {fwd[0], bwd[2], fwd[1], bwd[1], fwd[2], bwd[0]});
  ExpectNear(ToVector<float>((*out)[1]), {fwd[2], bwd[2]});
}

TEST(Rnn, SequenceLensStopEarlyAndZeroTheTail) {
  // batch 2: lengths 3 and 1, reverse direction.
  Tensor x = F32({3, 2, 1}, {1.f, 4.f, 2.f, 5.f, 3.f, 6.f});
  Tensor w = F32({1, 1, 1}, {0.5f});
  Tensor r = F32({1, 1, 1}, {-0.5f});
  Tensor lens = Tensor::FromVector(DType::kI32, {2}, std::vector<int32_t>{3, 1});
  auto out = RunKernel("RNN", {{"hidden_size", IntAttr(1)}, {"direction", StringAttr("reverse")}},
                       {&x, &w, &r, nullptr, &lens}, 2, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const auto b0 = ScalarRnn({3, 2, 1}, 0.5, -0.5, 0, 0);
  const auto b1 = ScalarRnn({4}, 0.5, -0.5, 0, 0);
  ExpectNear(ToVector<float>((*out)[0]), {b0[2], b1[0], b0[1], 0.0, b0[0], 0.0});
  ExpectNear(ToVector<float>((*out)[1]), {b0[2], b1[0]});
}

TEST(Rnn, Layout1IsBatchMajor) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  auto rand = [&](size_t n) {
    std::vector<float> v(n);
    for (auto& e : v) e = d(rng);
    return v;
  };
  const int seq = 4, batch = 3, in = 2, h = 5;
  const std::vector<float> xv = rand(seq * batch * in);
  Tensor w = F32({2, h, in}, rand(2 * h * in));
  Tensor r = F32({2, h, h}, rand(2 * h * h));
  Tensor x0 = F32({seq, batch, in}, xv);
  std::vector<float> xt(xv.size());
  for (int t = 0; t < seq; ++t)
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < in; ++i) xt[(b * seq + t) * in + i] = xv[(t * batch + b) * in + i];
  Tensor x1 = F32({batch, seq, in}, xt);
  std::map<std::string, Attribute> attrs = {{"hidden_size", IntAttr(h)},
                                            {"direction", StringAttr("bidirectional")}};
  auto a = RunKernel("RNN", attrs, {&x0, &w, &r}, 2, 14);
  attrs["layout"] = IntAttr(1);
  auto b = RunKernel("RNN", attrs, {&x1, &w, &r}, 2, 14);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ((*b)[0].shape(), (std::vector<int64_t>{batch, seq, 2, h}));
  ASSERT_EQ((*b)[1].shape(), (std::vector<int64_t>{batch, 2, h}));
  const auto ya = ToVector<float>((*a)[0]), yb = ToVector<float>((*b)[0]);
  for (int t = 0; t < seq; ++t)
    for (int dd = 0; dd < 2; ++dd)
      for (int bb = 0; bb < batch; ++bb)
        for (int j = 0; j < h; ++j)
          EXPECT_FLOAT_EQ(ya[((t * 2 + dd) * batch + bb) * h + j],
                          yb[((bb * seq + t) * 2 + dd) * h + j]);
}

TEST(Rnn, RejectsBadShapesAndUnknownActivation) {
  Tensor x = F32({1, 1, 2}, {1, 2});
  Tensor w = F32({1, 3, 2}, std::vector<float>(6));
  Tensor r = F32({1, 3, 3}, std::vector<float>(9));
  Tensor bad_w = F32({1, 3, 3}, std::vector<float>(9));
  EXPECT_FALSE(RunKernel("RNN", {{"hidden_size", IntAttr(3)}}, {&x, &bad_w, &r}, 2, 14).ok());
  Tensor lens = Tensor::FromVector(DType::kI32, {1}, std::vector<int32_t>{5});
  EXPECT_FALSE(
      RunKernel("RNN", {{"hidden_size", IntAttr(3)}}, {&x, &w, &r, nullptr, &lens}, 2, 14).ok());
  Attribute acts;
  acts.kind = Attribute::Kind::kStrings;
  acts.strings = {"Gelu"};
  auto res =
      RunKernel("RNN", {{"hidden_size", IntAttr(3)}, {"activations", acts}}, {&x, &w, &r}, 2, 14);
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.status().message().find("Gelu"), std::string::npos);
  Node n;
  n.op_type = "RNN";
  n.attrs["activations"] = acts;
  EXPECT_FALSE(KernelRegistry::Cpu().Supports(SupportQuery{n, 14, {DType::kF32}, {}, {}}).supported);
}

TEST(Rnn, AlternativeActivationWithAlpha) {
  // LeakyRelu with alpha 0.5: h = leaky(w*x).
  Tensor x = F32({1, 2, 1}, {2.f, -2.f});
  Tensor w = F32({1, 1, 1}, {1.f});
  Tensor r = F32({1, 1, 1}, {0.f});
  Attribute acts;
  acts.kind = Attribute::Kind::kStrings;
  acts.strings = {"LeakyRelu"};
  auto out = RunKernel("RNN",
                       {{"hidden_size", IntAttr(1)},
                        {"activations", acts},
                        {"activation_alpha", FloatsAttr({0.5f})}},
                       {&x, &w, &r}, 2, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear(ToVector<float>((*out)[1]), {2.0, -1.0});
}

// Scalar GRU step (H = 1, input 1).
double GruStep(double x, double h, const double* w, const double* r, const double* wb,
               const double* rb, bool lbr) {
  const double z = Sigmoid(w[0] * x + r[0] * h + wb[0] + rb[0]);
  const double rr = Sigmoid(w[1] * x + r[1] * h + wb[1] + rb[1]);
  const double hh = lbr ? std::tanh(w[2] * x + wb[2] + rr * (r[2] * h + rb[2]))
                        : std::tanh(w[2] * x + r[2] * (rr * h) + wb[2] + rb[2]);
  return (1 - z) * hh + z * h;
}

class GruTest : public ::testing::TestWithParam<int> {};

TEST_P(GruTest, MatchesScalarRecurrence) {
  const bool lbr = GetParam() != 0;
  const double w[3] = {0.4, -0.6, 0.8}, r[3] = {0.5, 0.3, -0.7};
  const double wb[3] = {0.1, -0.1, 0.2}, rb[3] = {0.05, 0.3, -0.4};
  Tensor x = F32({3, 1, 1}, {1.f, -0.5f, 2.f});
  Tensor wt = F32({1, 3, 1}, {0.4f, -0.6f, 0.8f});
  Tensor rt = F32({1, 3, 1}, {0.5f, 0.3f, -0.7f});
  Tensor bt = F32({1, 6}, {0.1f, -0.1f, 0.2f, 0.05f, 0.3f, -0.4f});
  Tensor h0 = F32({1, 1, 1}, {0.3f});
  auto out = RunKernel("GRU", {{"hidden_size", IntAttr(1)}, {"linear_before_reset", IntAttr(lbr)}},
                       {&x, &wt, &rt, &bt, nullptr, &h0}, 2, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  double h = 0.3;
  std::vector<double> ys;
  for (double xv : {1.0, -0.5, 2.0}) {
    h = GruStep(xv, h, w, r, wb, rb, lbr);
    ys.push_back(h);
  }
  ExpectNear(ToVector<float>((*out)[0]), ys);
  ExpectNear(ToVector<float>((*out)[1]), {h});
}

INSTANTIATE_TEST_SUITE_P(LinearBeforeReset, GruTest, ::testing::Values(0, 1));

TEST(Lstm, PeepholesClipAndAllOutputs) {
  // H = 1, input 1, seq 2. Gates in ONNX order i, o, f, c; P in order i, o, f.
  const double w[4] = {0.3, -0.2, 0.5, 0.9}, r[4] = {0.1, 0.4, -0.3, 0.2};
  const double b[4] = {0.05, -0.05, 0.5, 0.0}, p[3] = {0.2, -0.1, 0.3};
  const double clip = 0.6;
  Tensor x = F32({2, 1, 1}, {1.5f, -0.8f});
  Tensor wt = F32({1, 4, 1}, {0.3f, -0.2f, 0.5f, 0.9f});
  Tensor rt = F32({1, 4, 1}, {0.1f, 0.4f, -0.3f, 0.2f});
  Tensor bt = F32({1, 8}, {0.05f, -0.05f, 0.5f, 0.f, 0.f, 0.f, 0.f, 0.f});
  Tensor h0 = F32({1, 1, 1}, {0.1f});
  Tensor c0 = F32({1, 1, 1}, {-0.2f});
  Tensor pt = F32({1, 3}, {0.2f, -0.1f, 0.3f});
  auto out = RunKernel("LSTM", {{"hidden_size", IntAttr(1)}, {"clip", FloatAttr(0.6f)}},
                       {&x, &wt, &rt, &bt, nullptr, &h0, &c0, &pt}, 3, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto cl = [&](double v) { return std::clamp(v, -clip, clip); };
  double h = 0.1, c = -0.2;
  std::vector<double> ys;
  for (double xv : {1.5, -0.8}) {
    auto pre = [&](int g) { return w[g] * xv + r[g] * h + b[g]; };
    const double i = Sigmoid(cl(pre(0) + p[0] * c));
    const double f = Sigmoid(cl(pre(2) + p[2] * c));
    const double ct = std::tanh(cl(pre(3)));
    c = f * c + i * ct;
    const double o = Sigmoid(cl(pre(1) + p[1] * c));
    h = o * std::tanh(c);
    ys.push_back(h);
  }
  ExpectNear(ToVector<float>((*out)[0]), ys);
  ExpectNear(ToVector<float>((*out)[1]), {h});
  ExpectNear(ToVector<float>((*out)[2]), {c});
}

TEST(Lstm, InputForgetCouplesGates) {
  Tensor x = F32({1, 1, 1}, {1.f});
  Tensor wt = F32({1, 4, 1}, {0.3f, -0.2f, 5.f, 0.9f});  // f weight ignored with input_forget
  Tensor rt = F32({1, 4, 1}, std::vector<float>(4, 0.f));
  Tensor c0 = F32({1, 1, 1}, {2.f});
  auto out = RunKernel("LSTM", {{"hidden_size", IntAttr(1)}, {"input_forget", IntAttr(1)}},
                       {&x, &wt, &rt, nullptr, nullptr, nullptr, &c0}, 3, 14);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const double i = Sigmoid(0.3), c = (1 - i) * 2.0 + i * std::tanh(0.9);
  ExpectNear(ToVector<float>((*out)[2]), {c});
  ExpectNear(ToVector<float>((*out)[1]), {Sigmoid(-0.2) * std::tanh(c)});
}

TEST(Lstm, F64MatchesF32) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> xd(2 * 3 * 4), wd(2 * 20 * 4), rd(2 * 20 * 5);
  for (auto* v : {&xd, &wd, &rd})
    for (auto& e : *v) e = d(rng);
  auto f32 = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
  Tensor x = F32({2, 3, 4}, f32(xd)), w = F32({2, 20, 4}, f32(wd)), r = F32({2, 20, 5}, f32(rd));
  Tensor xx = Tensor::FromVector(DType::kF64, {2, 3, 4}, xd);
  Tensor ww = Tensor::FromVector(DType::kF64, {2, 20, 4}, wd);
  Tensor rr = Tensor::FromVector(DType::kF64, {2, 20, 5}, rd);
  std::map<std::string, Attribute> attrs = {{"hidden_size", IntAttr(5)},
                                            {"direction", StringAttr("bidirectional")}};
  auto a = RunKernel("LSTM", attrs, {&x, &w, &r}, 3, 14);
  auto b = RunKernel("LSTM", attrs, {&xx, &ww, &rr}, 3, 14);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*b)[0].dtype(), DType::kF64);
  const auto ya = ToVector<float>((*a)[0]);
  const auto yb = ToVector<double>((*b)[0]);
  ASSERT_EQ(ya.size(), yb.size());
  for (size_t i = 0; i < ya.size(); ++i) EXPECT_NEAR(ya[i], yb[i], 1e-5);
}

}  // namespace
}  // namespace trinity::testing

namespace trinity::testing {
namespace {

TEST(Rnn, ThreadedMatchesSingleThreaded) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  auto rand = [&](size_t n) {
    std::vector<float> v(n);
    for (auto& e : v) e = d(rng);
    return v;
  };
  const int seq = 5, batch = 16, in = 8, h = 12;
  Tensor x = F32({seq, batch, in}, rand(seq * batch * in));
  Tensor w = F32({2, 3 * h, in}, rand(2 * 3 * h * in));
  Tensor r = F32({2, 3 * h, h}, rand(2 * 3 * h * h));
  std::vector<int32_t> lens(batch);
  for (int b = 0; b < batch; ++b) lens[b] = 1 + b % seq;
  Tensor sl = Tensor::FromVector(DType::kI32, {batch}, lens);
  std::map<std::string, Attribute> attrs = {{"hidden_size", IntAttr(h)},
                                            {"direction", StringAttr("bidirectional")}};
  auto one = RunKernel("GRU", attrs, {&x, &w, &r, nullptr, &sl}, 2, 14, 1);
  auto four = RunKernel("GRU", attrs, {&x, &w, &r, nullptr, &sl}, 2, 14, 4);
  ASSERT_TRUE(one.ok() && four.ok());
  EXPECT_EQ(ToVector<float>((*one)[0]), ToVector<float>((*four)[0]));
  EXPECT_EQ(ToVector<float>((*one)[1]), ToVector<float>((*four)[1]));
}

}  // namespace
}  // namespace trinity::testing
