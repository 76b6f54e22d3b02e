// Fuzz target: serialized ONNX TensorProto bytes (the .pb files of ONNX test data) ->
// ParseTensorProto. Must return a tensor or an error; never crash or allocate absurdly.
#include <cstddef>
#include <cstdint>
#include <string>

#include "import/onnx/onnx_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string name;
  auto t = trinity::ParseTensorProto(data, size, "'fuzz.pb'", &name);
  (void)t;
  return 0;
}
