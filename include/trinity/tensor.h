// Tensor: a typed, shaped view of bytes in a Buffer. Copying a Tensor shares its bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "trinity/buffer.h"
#include "trinity/dtype.h"
#include "trinity/status.h"

namespace trinity {

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType dtype, std::vector<int64_t> shape, std::shared_ptr<Buffer> buffer,
         size_t byte_offset = 0);

  // A new zero-filled host tensor. Fails on a negative dim, overflow or allocation failure.
  static Result<Tensor> Create(DType dtype, std::vector<int64_t> shape);
  // A new host tensor whose contents are unspecified (not zeroed), for code that writes every
  // element. Throws std::bad_alloc on failure; for kernels, whose caller catches it.
  static Tensor Empty(DType dtype, std::vector<int64_t> shape);
  // Like Empty, zero-filled.
  static Tensor Zeros(DType dtype, std::vector<int64_t> shape);
  // A host tensor holding a copy of `values` (size must equal the shape's element count).
  template <class T>
  static Tensor FromVector(DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    Tensor t = Empty(dtype, std::move(shape));
    const size_t bytes = std::min(t.nbytes(), values.size() * sizeof(T));
    if (bytes > 0) std::memcpy(t.raw_data(), values.data(), bytes);  // empty vectors: no pointer
    return t;
  }

  bool defined() const { return buffer_ != nullptr || dtype_ != DType::kUndefined; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t dim(size_t i) const { return shape_[i]; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * dtype_size(dtype_); }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  size_t byte_offset() const { return offset_; }

  // Host address of the first element (nullptr for device-only or empty tensors).
  void* raw_data();
  const void* raw_data() const;
  template <class T>
  T* data() { return static_cast<T*>(raw_data()); }
  template <class T>
  const T* data() const { return static_cast<const T*>(raw_data()); }

  // Same bytes, new shape (element count must match). No copy.
  Tensor Reshaped(std::vector<int64_t> shape) const;
  // A deep copy into new host memory.
  Tensor Clone() const;
  // "f32[1,3,224,224]".
  std::string Describe() const;

 private:
  DType dtype_ = DType::kUndefined;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::shared_ptr<Buffer> buffer_;
  size_t offset_ = 0;
};

}  // namespace trinity
