#include "trinity/tensor.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/half.h"

namespace trinity {
namespace {

TEST(Tensor, CreateZeroFilledAndDescribe) {
  auto t = Tensor::Create(DType::kF32, {2, 3});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->numel(), 6);
  EXPECT_EQ(t->nbytes(), 24u);
  EXPECT_EQ(t->Describe(), "f32[2,3]");
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t->data<float>()[i], 0.f);
}

TEST(Tensor, CreateRejectsNegativeAndAbsurdShapes) {
  EXPECT_FALSE(Tensor::Create(DType::kF32, {2, -1}).ok());
  auto huge = Tensor::Create(DType::kF32, {1 << 30, 1 << 30, 1 << 30});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("invalid tensor shape"), std::string::npos);
}

TEST(Tensor, ReshapedSharesBytes) {
  Tensor t = Tensor::FromVector<float>(DType::kF32, {2, 2}, {1, 2, 3, 4});
  Tensor r = t.Reshaped({4});
  r.data<float>()[0] = 9;
  EXPECT_EQ(t.data<float>()[0], 9);
  Tensor c = t.Clone();
  c.data<float>()[0] = 1;
  EXPECT_EQ(t.data<float>()[0], 9);
}

TEST(Buffer, SharedBufferHasFd) {
  auto b = Buffer::AllocateHostShared(100, "trinity-test");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->domain(), MemoryDomain::kHostShared);
  EXPECT_GE((*b)->shareable_fd(), 0);
  static_cast<char*>((*b)->data())[99] = 7;
}

TEST(Half, RoundTripsExactValuesAndRounds) {
  for (float f : {0.f, 1.f, -2.5f, 65504.f, 6.1035156e-05f, 5.96e-08f}) {
    EXPECT_EQ(half_bits_to_float(float_to_half_bits(f)), static_cast<float>(Float16(f))) << f;
  }
  EXPECT_EQ(half_bits_to_float(float_to_half_bits(1.f)), 1.f);
  EXPECT_EQ(half_bits_to_float(float_to_half_bits(65504.f)), 65504.f);
  EXPECT_TRUE(std::isinf(half_bits_to_float(float_to_half_bits(1e6f))));
  EXPECT_EQ(bf16_bits_to_float(float_to_bf16_bits(1.5f)), 1.5f);
}

}  // namespace
}  // namespace trinity
