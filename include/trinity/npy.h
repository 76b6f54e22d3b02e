// NumPy .npy files: read and write tensors (little-endian, C order, format 1.0-3.0).
#pragma once

#include <cstddef>
#include <string>

#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

Result<Tensor> ReadNpy(const std::string& path);
// Parses .npy bytes held in memory; `what` names the source in error messages ("'x.npy'").
Result<Tensor> ParseNpy(const void* data, size_t size, const std::string& what);
Status WriteNpy(const std::string& path, const Tensor& tensor);
// Reads .npy, or an ONNX TensorProto when the file ends in .pb.
Result<Tensor> ReadTensorFile(const std::string& path);

}  // namespace trinity
