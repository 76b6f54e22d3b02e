// NumPy .npy files: read and write tensors (little-endian, C order, format 1.0-3.0).
#pragma once

#include <string>

#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

Result<Tensor> ReadNpy(const std::string& path);
Status WriteNpy(const std::string& path, const Tensor& tensor);
// Reads .npy, or an ONNX TensorProto when the file ends in .pb.
Result<Tensor> ReadTensorFile(const std::string& path);

}  // namespace trinity
