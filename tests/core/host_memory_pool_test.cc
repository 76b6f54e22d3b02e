#include "core/host_memory_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "trinity/tensor.h"

namespace trinity {
namespace {

TEST(HostMemoryPool, SizeClassesWasteAtMostAnEighth) {
  for (size_t bytes : {size_t{1}, size_t{63}, size_t{4000}, size_t{16384}, size_t{16385},
                       size_t{100000}, size_t{1} << 20, (size_t{1} << 20) + 1, size_t{12345678}}) {
    const size_t cls = HostMemoryPool::RoundToClass(bytes);
    EXPECT_GE(cls, bytes);
    EXPECT_EQ(cls % HostMemoryPool::kAlignment, 0u);
    if (bytes > HostMemoryPool::kSmallLimit) {
      EXPECT_LE(cls, bytes + bytes / 8 + 64) << bytes;
    }
  }
}

TEST(HostMemoryPool, FreedBlockIsReusedForTheSameClass) {
  if (!HostMemoryPool::kCaching) GTEST_SKIP() << "no caching under AddressSanitizer";
  HostMemoryPool& pool = HostMemoryPool::Instance();
  pool.Trim();
  void* a = pool.Allocate(200000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % HostMemoryPool::kAlignment, 0u);
  pool.Free(a, 200000);
  EXPECT_EQ(pool.cached_bytes(), HostMemoryPool::RoundToClass(200000));
  void* b = pool.Allocate(199999);  // same class
  EXPECT_EQ(a, b);
  EXPECT_EQ(pool.cached_bytes(), 0u);
  pool.Free(b, 199999);
  pool.Trim();
  EXPECT_EQ(pool.cached_bytes(), 0u);
}

TEST(HostMemoryPool, SmallBlocksAreReusedToo) {
  if (!HostMemoryPool::kCaching) GTEST_SKIP() << "no caching under AddressSanitizer";
  HostMemoryPool& pool = HostMemoryPool::Instance();
  pool.Trim();
  void* a = pool.Allocate(100);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % HostMemoryPool::kAlignment, 0u);
  pool.Free(a, 100);
  EXPECT_EQ(pool.cached_bytes(), 128u);
  EXPECT_EQ(pool.Allocate(65), a);  // same 128-byte class
  pool.Free(a, 65);
  pool.Trim();
}

TEST(HostMemoryPool, CreateZeroFillsEvenReusedMemory) {
  HostMemoryPool::Instance().Trim();
  {
    Tensor dirty = Tensor::Empty(DType::kF32, {50000});
    std::memset(dirty.raw_data(), 0x5A, dirty.nbytes());
  }  // back to the pool, dirty
  auto t = Tensor::Create(DType::kF32, {50000});
  ASSERT_TRUE(t.ok());
  for (int64_t i = 0; i < t->numel(); ++i) ASSERT_EQ(t->data<float>()[i], 0.f) << i;
  Tensor z = Tensor::Zeros(DType::kI32, {50000});
  for (int64_t i = 0; i < z.numel(); ++i) ASSERT_EQ(z.data<int32_t>()[i], 0) << i;
}

}  // namespace
}  // namespace trinity
