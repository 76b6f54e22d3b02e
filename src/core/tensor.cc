#include "trinity/tensor.h"

#include <new>

#include "trinity/shape.h"

namespace trinity {

Tensor::Tensor(DType dtype, std::vector<int64_t> shape, std::shared_ptr<Buffer> buffer,
               size_t byte_offset)
    : dtype_(dtype), shape_(std::move(shape)), buffer_(std::move(buffer)), offset_(byte_offset) {
  numel_ = shape_numel(shape_);
  if (numel_ < 0) numel_ = 0;
}

namespace {

Result<Tensor> CreateHost(DType dtype, std::vector<int64_t> shape, bool zero) {
  const int64_t n = shape_numel(shape);
  if (n < 0) return Status::InvalidArgument("invalid tensor shape " + shape_to_string(shape));
  const size_t esz = dtype_size(dtype);
  if (esz == 0) return Status::InvalidArgument("cannot create a tensor of undefined dtype");
  if (static_cast<uint64_t>(n) > (uint64_t{1} << 40) / esz) {
    return Status::RuntimeError("tensor " + shape_to_string(shape) + " of " + dtype_name(dtype) +
                                " is larger than 1 TiB");
  }
  const size_t bytes = static_cast<size_t>(n) * esz;
  TRY_ASSIGN(auto buf,
             zero ? Buffer::AllocateHost(bytes) : Buffer::AllocateHostUninitialized(bytes));
  return Tensor(dtype, std::move(shape), std::move(buf));
}

}  // namespace

Result<Tensor> Tensor::Create(DType dtype, std::vector<int64_t> shape) {
  return CreateHost(dtype, std::move(shape), /*zero=*/true);
}

Tensor Tensor::Empty(DType dtype, std::vector<int64_t> shape) {
  auto r = CreateHost(dtype, std::move(shape), /*zero=*/false);
  if (!r.ok()) throw std::bad_alloc();
  return std::move(r).value();
}

Tensor Tensor::Zeros(DType dtype, std::vector<int64_t> shape) {
  auto r = CreateHost(dtype, std::move(shape), /*zero=*/true);
  if (!r.ok()) throw std::bad_alloc();
  return std::move(r).value();
}

void* Tensor::raw_data() {
  if (!buffer_) return nullptr;
  auto* base = static_cast<char*>(buffer_->data());
  return base ? base + offset_ : nullptr;
}

const void* Tensor::raw_data() const { return const_cast<Tensor*>(this)->raw_data(); }

Tensor Tensor::Reshaped(std::vector<int64_t> shape) const {
  Tensor t = *this;
  t.shape_ = std::move(shape);
  t.numel_ = shape_numel(t.shape_);
  return t;
}

Tensor Tensor::Clone() const {
  Tensor t = Empty(dtype_, shape_);
  if (nbytes() > 0) std::memcpy(t.raw_data(), raw_data(), nbytes());
  return t;
}

std::string Tensor::Describe() const {
  return std::string(dtype_name(dtype_)) + shape_to_string(shape_);
}

}  // namespace trinity
