// ONNX -> Trinity IR. Parsing, schema-based type inference and the protobuf types come from
// Debian's libonnx; everything past this file sees only graph/graph.h.
#pragma once

#include <string>

#include "graph/graph.h"
#include "trinity/status.h"

namespace trinity {

struct ImportOptions {
  // Directory that external-data tensor locations are relative to ("" = no external data).
  std::string base_dir;
  // Run ONNX shape inference to learn the types of intermediate values.
  bool infer_shapes = true;
};

// Parses and validates an ONNX model held in memory. Every failure names what is wrong:
// truncated or corrupt bytes, an unsupported IR version or opset, a bad node or tensor.
Result<Graph> ImportOnnxModel(const void* data, size_t size, const ImportOptions& options = {});
// Same, from a file (external data resolves relative to the file's directory).
Result<Graph> ImportOnnxFile(const std::string& path);

}  // namespace trinity

namespace trinity {

// Reads a serialized ONNX TensorProto (the .pb files of ONNX test data). `name` receives the
// tensor's name when non-null.
Result<Tensor> LoadTensorProtoFile(const std::string& path, std::string* name = nullptr);
// Same, from bytes in memory; `what` names the source in error messages.
Result<Tensor> ParseTensorProto(const void* data, size_t size, const std::string& what,
                                std::string* name = nullptr);

}  // namespace trinity
