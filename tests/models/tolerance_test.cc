// The comparison the model tests rely on: it must fail on a real difference, or the model tests
// could pass while Trinity is wrong.
#include "tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace trinity::refs {
namespace {

Tensor F32(std::vector<int64_t> shape, const std::vector<float>& v) {
  return Tensor::FromVector(DType::kF32, std::move(shape), v);
}

TEST(CompareOutput, WithinToleranceIsOk) {
  // 1e-4*|1000| + 1e-4 allows 0.1001 at 1000, and 1e-4 near zero.
  const auto c =
      CompareOutput(F32({2}, {1000.1f, 0.00005f}), F32({2}, {1000.0f, 0.0f}), 1e-4, 1e-4, false);
  EXPECT_TRUE(c.ok());
  EXPECT_NEAR(c.max_abs_diff, 0.1, 1e-4);
  EXPECT_LT(c.worst_ratio, 1.0);
}

TEST(CompareOutput, BeyondToleranceFailsAndSaysWhere) {
  const auto c =
      CompareOutput(F32({2, 2}, {1, 2, 3, 4.01f}), F32({2, 2}, {1, 2, 3, 4}), 1e-4, 1e-4, false);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.violations, 1);
  EXPECT_GT(c.worst_ratio, 1.0);
  EXPECT_NE(c.worst.find("[1,1]"), std::string::npos) << c.worst;
}

TEST(CompareOutput, NanAgainstNumberFailsNanAgainstNanPasses) {
  const float nan = std::nanf("");
  EXPECT_FALSE(CompareOutput(F32({1}, {nan}), F32({1}, {1}), 1e-4, 1e-4, false).ok());
  EXPECT_TRUE(CompareOutput(F32({1}, {nan}), F32({1}, {nan}), 1e-4, 1e-4, false).ok());
}

TEST(CompareOutput, ShapeOrDtypeMismatchFails) {
  EXPECT_FALSE(CompareOutput(F32({2}, {1, 2}), F32({1, 2}, {1, 2}), 1e-4, 1e-4, false).ok());
  const Tensor i64 = Tensor::FromVector(DType::kI64, {2}, std::vector<int64_t>{1, 2});
  EXPECT_FALSE(CompareOutput(F32({2}, {1, 2}), i64, 1e-4, 1e-4, false).ok());
}

TEST(CompareOutput, ArgmaxPerRowOverLastAxis) {
  // Row 0 agrees; row 1 flips its winner while staying within a loose tolerance.
  const Tensor want = F32({2, 3}, {0.1f, 0.7f, 0.2f, 0.50f, 0.49f, 0.01f});
  const Tensor got = F32({2, 3}, {0.1f, 0.7f, 0.2f, 0.49f, 0.50f, 0.01f});
  const auto c = CompareOutput(got, want, 0.1, 0.1, true);
  EXPECT_EQ(c.violations, 0);
  EXPECT_EQ(c.argmax_rows, 2);
  EXPECT_EQ(c.argmax_equal, 1);
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace trinity::refs
