// Unit tests of the tensor-manipulation kernels (ops_shape*.cc). Results are exact (these ops
// move values), so comparisons are exact unless stated.
#include <gtest/gtest.h>

#include <numeric>

#include "backends/cpu/kernel_test_util.h"

namespace trinity::testing {
namespace {

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.f);
  return v;
}

bool HasError(const Result<std::vector<Tensor>>& r, const std::string& text) {
  return !r.ok() && r.status().message().find(text) != std::string::npos;
}

TEST(ShapeOps, ReshapeIsAViewWithZeroAndMinusOne) {
  Tensor x = F32({2, 3, 4}, Iota(24));
  Tensor s = I64({3}, {0, -1, 2});
  auto r = RunKernel("Reshape", {}, {&x, &s});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{2, 6, 2}));
  EXPECT_EQ((*r)[0].raw_data(), x.raw_data());  // shares the buffer
}

TEST(ShapeOps, ReshapeRejectsMismatchAndTwoInferredDims) {
  Tensor x = F32({2, 3}, Iota(6));
  Tensor bad = I64({1}, {5});
  EXPECT_TRUE(HasError(RunKernel("Reshape", {}, {&x, &bad}), "element counts differ"));
  Tensor two = I64({2}, {-1, -1});
  EXPECT_TRUE(HasError(RunKernel("Reshape", {}, {&x, &two}), "more than one -1"));
}

TEST(ShapeOps, ReshapeAllowZeroKeepsZeroDims) {
  Tensor x = F32({0, 3}, {});
  Tensor s = I64({2}, {3, 0});
  auto r = RunKernel("Reshape", {{"allowzero", IntAttr(1)}}, {&x, &s});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{3, 0}));
}

TEST(ShapeOps, SqueezeUnsqueezeFlattenFromAttrsAndInputs) {
  Tensor x = F32({1, 3, 1}, Iota(3));
  auto sq = RunKernel("Squeeze", {{"axes", IntsAttr({0})}}, {&x}, 1, 11);
  ASSERT_TRUE(sq.ok());
  EXPECT_EQ((*sq)[0].shape(), (std::vector<int64_t>{3, 1}));
  Tensor axes = I64({2}, {0, -1});
  auto un = RunKernel("Unsqueeze", {}, {&x, &axes}, 1, 13);
  ASSERT_TRUE(un.ok());
  EXPECT_EQ((*un)[0].shape(), (std::vector<int64_t>{1, 1, 3, 1, 1}));
  auto fl = RunKernel("Flatten", {{"axis", IntAttr(-1)}}, {&x});
  ASSERT_TRUE(fl.ok());
  EXPECT_EQ((*fl)[0].shape(), (std::vector<int64_t>{3, 1}));
  Tensor one = I64({1}, {1});
  EXPECT_TRUE(HasError(RunKernel("Squeeze", {}, {&x, &one}, 1, 13), "size is not 1"));
}

TEST(ShapeOps, TransposeGeneralAndNchwToNhwc) {
  Tensor x = F32({2, 3, 4, 5}, Iota(120));
  auto r = RunKernel("Transpose", {{"perm", IntsAttr({0, 2, 3, 1})}}, {&x});
  ASSERT_TRUE(r.ok());
  const Tensor& y = (*r)[0];
  ASSERT_EQ(y.shape(), (std::vector<int64_t>{2, 4, 5, 3}));
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 4; ++h)
      for (int w = 0; w < 5; ++w)
        for (int c = 0; c < 3; ++c)
          ASSERT_EQ(y.data<float>()[((n * 4 + h) * 5 + w) * 3 + c],
                    x.data<float>()[((n * 3 + c) * 4 + h) * 5 + w]);
  auto d = RunKernel("Transpose", {}, {&x});  // default reverses axes
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)[0].shape(), (std::vector<int64_t>{5, 4, 3, 2}));
  EXPECT_EQ((*d)[0].data<float>()[1], 60.f);
  EXPECT_TRUE(HasError(RunKernel("Transpose", {{"perm", IntsAttr({0, 0, 1, 2})}}, {&x}),
                       "not a permutation"));
}

TEST(ShapeOps, TransposeLarge2DMatchesNaive) {
  Tensor x = F32({67, 129}, Iota(67 * 129));
  auto r = RunKernel("Transpose", {}, {&x}, 1, 17, 2);
  ASSERT_TRUE(r.ok());
  for (int i = 0; i < 67; ++i)
    for (int j = 0; j < 129; ++j)
      ASSERT_EQ((*r)[0].data<float>()[j * 67 + i], x.data<float>()[i * 129 + j]);
}

TEST(ShapeOps, ConcatAndSplit) {
  Tensor a = F32({2, 1}, {1, 2}), b = F32({2, 2}, {3, 4, 5, 6});
  auto c = RunKernel("Concat", {{"axis", IntAttr(-1)}}, {&a, &b});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(ToVector<float>((*c)[0]), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  Tensor sizes = I64({2}, {1, 2});
  auto s = RunKernel("Split", {{"axis", IntAttr(1)}}, {&(*c)[0], &sizes}, 2, 13);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToVector<float>((*s)[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(ToVector<float>((*s)[1]), (std::vector<float>{3, 4, 5, 6}));
  Tensor x = F32({5}, Iota(5));
  auto n = RunKernel("Split", {{"num_outputs", IntAttr(3)}}, {&x}, 3, 18);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ((*n)[2].shape(), (std::vector<int64_t>{1}));
  EXPECT_TRUE(HasError(RunKernel("Split", {}, {&x}, 2, 13), "equal parts"));
  EXPECT_TRUE(HasError(RunKernel("Concat", {{"axis", IntAttr(0)}}, {&a, &x}), "does not match"));
}

TEST(ShapeOps, SliceNegativeStepsAndClamping) {
  Tensor x = F32({3, 4}, Iota(12));
  Tensor st = I64({2}, {-1, 100}), en = I64({2}, {INT64_MIN, -100}), ax = I64({2}, {0, 1}),
         sp = I64({2}, {-2, -1});
  auto r = RunKernel("Slice", {}, {&x, &st, &en, &ax, &sp});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(ToVector<float>((*r)[0]), (std::vector<float>{11, 10, 9, 8, 3, 2, 1, 0}));
  auto old = RunKernel(
      "Slice", {{"starts", IntsAttr({1})}, {"ends", IntsAttr({3})}, {"axes", IntsAttr({1})}}, {&x},
      1, 9);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(ToVector<float>((*old)[0]), (std::vector<float>{1, 2, 5, 6, 9, 10}));
  Tensor zero = I64({1}, {0});
  Tensor one = I64({1}, {1});
  EXPECT_TRUE(HasError(RunKernel("Slice", {}, {&x, &zero, &one, nullptr, &zero}), "zero"));
}

TEST(ShapeOps, ExpandAndTile) {
  Tensor x = F32({3, 1}, {1, 2, 3});
  Tensor s = I64({3}, {2, 1, 2});
  auto e = RunKernel("Expand", {}, {&x, &s});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)[0].shape(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(ToVector<float>((*e)[0]), (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  Tensor y = F32({2, 2}, {1, 2, 3, 4});
  Tensor reps = I64({2}, {2, 2});
  auto t = RunKernel("Tile", {}, {&y, &reps});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(ToVector<float>((*t)[0]),
            (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}));
  Tensor neg = I64({2}, {-1, 1});
  EXPECT_TRUE(HasError(RunKernel("Tile", {}, {&y, &neg}), "negative"));
}

TEST(ShapeOps, PadModes) {
  Tensor x = F32({1, 3}, {1, 2, 3});
  Tensor pads = I64({4}, {0, 2, 0, 2});
  Tensor cv = F32({}, {9});
  auto c = RunKernel("Pad", {}, {&x, &pads, &cv});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(ToVector<float>((*c)[0]), (std::vector<float>{9, 9, 1, 2, 3, 9, 9}));
  auto re = RunKernel("Pad", {{"mode", StringAttr("reflect")}}, {&x, &pads});
  ASSERT_TRUE(re.ok());
  EXPECT_EQ(ToVector<float>((*re)[0]), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  auto ed = RunKernel("Pad", {{"mode", StringAttr("edge")}}, {&x, &pads});
  ASSERT_TRUE(ed.ok());
  EXPECT_EQ(ToVector<float>((*ed)[0]), (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
  auto wr = RunKernel("Pad", {{"mode", StringAttr("wrap")}}, {&x, &pads});
  ASSERT_TRUE(wr.ok());
  EXPECT_EQ(ToVector<float>((*wr)[0]), (std::vector<float>{2, 3, 1, 2, 3, 1, 2}));
  auto v2 =
      RunKernel("Pad", {{"pads", IntsAttr({0, -1, 1, 0})}, {"value", FloatAttr(5)}}, {&x}, 1, 2);
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(ToVector<float>((*v2)[0]), (std::vector<float>{2, 3, 5, 5}));
  Tensor axes = I64({1}, {-1});
  Tensor p2 = I64({2}, {1, 0});
  auto ax = RunKernel("Pad", {}, {&x, &p2, nullptr, &axes}, 1, 18);
  ASSERT_TRUE(ax.ok());
  EXPECT_EQ(ToVector<float>((*ax)[0]), (std::vector<float>{0, 1, 2, 3}));
}

TEST(ShapeOps, GatherAndNegativeIndicesAndRangeError) {
  Tensor x = F32({3, 2}, Iota(6));
  Tensor idx = I64({2}, {-1, 0});
  auto r = RunKernel("Gather", {}, {&x, &idx});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<float>((*r)[0]), (std::vector<float>{4, 5, 0, 1}));
  auto c = RunKernel("Gather", {{"axis", IntAttr(1)}}, {&x, &idx});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(ToVector<float>((*c)[0]), (std::vector<float>{1, 0, 3, 2, 5, 4}));
  Tensor bad = I64({1}, {3});
  EXPECT_TRUE(
      HasError(RunKernel("Gather", {}, {&x, &bad}), "indices value 3 out of range [-3, 3)"));
}

TEST(ShapeOps, GatherElementsScatterElementsReduction) {
  Tensor x = F32({2, 2}, {1, 2, 3, 4});
  Tensor idx = I64({2, 2}, {0, 0, 1, 0});
  auto g = RunKernel("GatherElements", {{"axis", IntAttr(1)}}, {&x, &idx});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(ToVector<float>((*g)[0]), (std::vector<float>{1, 1, 4, 3}));
  Tensor up = F32({2, 2}, {10, 20, 30, 40});
  auto s = RunKernel("ScatterElements", {{"axis", IntAttr(1)}, {"reduction", StringAttr("add")}},
                     {&x, &idx, &up}, 1, 16);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToVector<float>((*s)[0]), (std::vector<float>{31, 2, 43, 34}));
}

TEST(ShapeOps, GatherNDBatchDimsAndScatterND) {
  Tensor x = Tensor::FromVector<int32_t>(DType::kI32, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor idx = I64({2, 1}, {1, 0});
  auto g = RunKernel("GatherND", {{"batch_dims", IntAttr(1)}}, {&x, &idx});
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(ToVector<int32_t>((*g)[0]), (std::vector<int32_t>{2, 3, 4, 5}));
  Tensor d = F32({4}, {1, 2, 3, 4});
  Tensor si = I64({2, 1}, {3, 3});
  Tensor up = F32({2}, {2, 5});
  auto s = RunKernel("ScatterND", {{"reduction", StringAttr("mul")}}, {&d, &si, &up}, 1, 16);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToVector<float>((*s)[0]), (std::vector<float>{1, 2, 3, 40}));
}

TEST(ShapeOps, OneHotNonZeroCompress) {
  Tensor idx = I64({3}, {0, -1, 7});
  Tensor depth = I64({}, {3});
  Tensor vals = F32({2}, {0, 1});
  auto o = RunKernel("OneHot", {}, {&idx, &depth, &vals}, 1, 11);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(ToVector<float>((*o)[0]), (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0}));
  Tensor b = Tensor::FromVector<uint8_t>(DType::kBool, {2, 2}, {1, 0, 1, 1});
  auto nz = RunKernel("NonZero", {}, {&b});
  ASSERT_TRUE(nz.ok());
  EXPECT_EQ(ToVector<int64_t>((*nz)[0]), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
  Tensor x = F32({2, 2}, {1, 2, 3, 4});
  Tensor cond = Tensor::FromVector<uint8_t>(DType::kBool, {2}, {0, 1});
  auto c = RunKernel("Compress", {{"axis", IntAttr(1)}}, {&x, &cond});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(ToVector<float>((*c)[0]), (std::vector<float>{2, 4}));
}

TEST(ShapeOps, TopKTiesGoToLowerIndex) {
  Tensor x = F32({5}, {3, 1, 3, 2, 3});
  Tensor k = I64({1}, {2});
  auto r = RunKernel("TopK", {}, {&x, &k}, 2, 11);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<float>((*r)[0]), (std::vector<float>{3, 3}));
  EXPECT_EQ(ToVector<int64_t>((*r)[1]), (std::vector<int64_t>{0, 2}));
  auto s = RunKernel("TopK", {{"largest", IntAttr(0)}}, {&x, &k}, 2, 11);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToVector<int64_t>((*s)[1]), (std::vector<int64_t>{1, 3}));
  Tensor big = I64({1}, {6});
  EXPECT_TRUE(HasError(RunKernel("TopK", {}, {&x, &big}, 2, 11), "out of range"));
}

TEST(ShapeOps, ArgMaxSelectLastIndex) {
  Tensor x = F32({2, 3}, {1, 5, 5, 7, 7, 0});
  auto r = RunKernel("ArgMax", {{"axis", IntAttr(1)}, {"select_last_index", IntAttr(1)}}, {&x});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<int64_t>((*r)[0]), (std::vector<int64_t>{2, 1}));
  auto m = RunKernel("ArgMin", {{"axis", IntAttr(0)}, {"keepdims", IntAttr(0)}}, {&x});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)[0].shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(ToVector<int64_t>((*m)[0]), (std::vector<int64_t>{0, 0, 1}));
}

TEST(ShapeOps, UniqueUnsortedAllOutputs) {
  Tensor x = F32({6}, {2, 1, 1, 3, 4, 3});
  auto r = RunKernel("Unique", {{"sorted", IntAttr(0)}}, {&x}, 4, 11);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<float>((*r)[0]), (std::vector<float>{2, 1, 3, 4}));
  EXPECT_EQ(ToVector<int64_t>((*r)[1]), (std::vector<int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(ToVector<int64_t>((*r)[2]), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(ToVector<int64_t>((*r)[3]), (std::vector<int64_t>{1, 2, 2, 1}));
}

TEST(ShapeOps, CumSumExclusiveReverse) {
  Tensor x = Tensor::FromVector<double>(DType::kF64, {4}, {1, 2, 3, 4});
  Tensor axis = Tensor::FromVector<int32_t>(DType::kI32, {}, {0});
  auto r = RunKernel("CumSum", {{"exclusive", IntAttr(1)}, {"reverse", IntAttr(1)}}, {&x, &axis});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<double>((*r)[0]), (std::vector<double>{9, 7, 4, 0}));
}

TEST(ShapeOps, DepthToSpaceRoundTripsSpaceToDepth) {
  Tensor x = F32({1, 2, 4, 4}, Iota(32));
  for (const char* mode : {"DCR", "CRD"}) {
    auto s = RunKernel("SpaceToDepth", {{"blocksize", IntAttr(2)}}, {&x});
    ASSERT_TRUE(s.ok());
    EXPECT_EQ((*s)[0].shape(), (std::vector<int64_t>{1, 8, 2, 2}));
    auto d = RunKernel("DepthToSpace", {{"blocksize", IntAttr(2)}, {"mode", StringAttr(mode)}},
                       {&(*s)[0]});
    ASSERT_TRUE(d.ok());
    if (std::string(mode) == "DCR") {
      EXPECT_EQ(ToVector<float>((*d)[0]), Iota(32));
    }
  }
}

TEST(ShapeOps, SmallCreatorsShapeRangeEyeTrilu) {
  Tensor x = F32({2, 3, 4}, Iota(24));
  auto sh = RunKernel("Shape", {{"start", IntAttr(-2)}}, {&x}, 1, 15);
  ASSERT_TRUE(sh.ok());
  EXPECT_EQ(ToVector<int64_t>((*sh)[0]), (std::vector<int64_t>{3, 4}));
  Tensor a = Tensor::FromVector<int32_t>(DType::kI32, {}, {10});
  Tensor l = Tensor::FromVector<int32_t>(DType::kI32, {}, {4});
  Tensor d = Tensor::FromVector<int32_t>(DType::kI32, {}, {-3});
  auto rg = RunKernel("Range", {}, {&a, &l, &d}, 1, 11);
  ASSERT_TRUE(rg.ok());
  EXPECT_EQ(ToVector<int32_t>((*rg)[0]), (std::vector<int32_t>{10, 7}));
  Tensor m = F32({2, 3}, Iota(6));
  auto ey = RunKernel("EyeLike", {{"k", IntAttr(1)}, {"dtype", IntAttr(7)}}, {&m}, 1, 9);
  ASSERT_TRUE(ey.ok());
  EXPECT_EQ(ToVector<int64_t>((*ey)[0]), (std::vector<int64_t>{0, 1, 0, 0, 0, 1}));
  auto tl = RunKernel("Trilu", {{"upper", IntAttr(0)}}, {&m}, 1, 14);
  ASSERT_TRUE(tl.ok());
  EXPECT_EQ(ToVector<float>((*tl)[0]), (std::vector<float>{0, 0, 0, 3, 4, 0}));
  Tensor shape = I64({2}, {2, 2});
  Attribute v;
  v.kind = Attribute::Kind::kTensor;
  v.t = Tensor::FromVector<int32_t>(DType::kI32, {1}, {7});
  auto cs = RunKernel("ConstantOfShape", {{"value", v}}, {&shape}, 1, 9);
  ASSERT_TRUE(cs.ok());
  EXPECT_EQ(ToVector<int32_t>((*cs)[0]), (std::vector<int32_t>{7, 7, 7, 7}));
}

TEST(ShapeOps, ReverseSequenceBatchMajor) {
  Tensor x = F32({2, 3}, {0, 1, 2, 3, 4, 5});  // [batch, time]
  Tensor lens = I64({2}, {2, 3});
  auto r = RunKernel("ReverseSequence", {{"time_axis", IntAttr(1)}, {"batch_axis", IntAttr(0)}},
                     {&x, &lens}, 1, 10);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToVector<float>((*r)[0]), (std::vector<float>{1, 0, 2, 5, 4, 3}));
  Tensor bad = I64({2}, {4, 0});
  EXPECT_TRUE(
      HasError(RunKernel("ReverseSequence", {{"time_axis", IntAttr(1)}, {"batch_axis", IntAttr(0)}},
                         {&x, &bad}, 1, 10),
               "out of range"));
}

TEST(ShapeOps, SqueezeWithoutAxesDropsAllOnes) {
  Tensor x = F32({1, 3, 1}, Iota(3));
  Tensor empty = I64({0}, {});
  auto r = RunKernel("Squeeze", {}, {&x, &empty}, 1, 13);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape(), (std::vector<int64_t>{3}));
}

TEST(ShapeOps, GatherThreadedMatchesNaive) {
  // 60000 gathered elements and two threads, so chunks start mid-way through an index list.
  Tensor x = F32({20000, 3}, Iota(60000));
  Tensor idx = I64({3}, {2, 0, -2});
  auto r = RunKernel("Gather", {{"axis", IntAttr(1)}}, {&x, &idx}, 1, 13, 2);
  ASSERT_TRUE(r.ok());
  const float* y = (*r)[0].data<float>();
  for (int o = 0; o < 20000; ++o) {
    ASSERT_EQ(y[o * 3 + 0], o * 3 + 2);
    ASSERT_EQ(y[o * 3 + 1], o * 3 + 0);
    ASSERT_EQ(y[o * 3 + 2], o * 3 + 1);
  }
}

}  // namespace
}  // namespace trinity::testing
