// Fuzz target: ONNX model bytes -> Model::LoadFromMemory, and on success Session::Create and
// one Run with zero-filled inputs of the declared shapes (when they are small). Any crash,
// sanitizer report or hang is a bug; errors are the expected outcome for most inputs.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "trinity/trinity.h"

namespace {

// Inputs are only made for models whose declared inputs total at most this many elements, so
// the fuzzer spends its time in the loader and kernels rather than in memset.
constexpr int64_t kMaxInputElems = 1 << 16;

bool MakeZeroInputs(const trinity::Model& model, std::map<std::string, trinity::Tensor>* out) {
  int64_t total = 0;
  for (const auto& info : model.inputs()) {
    if (info.dtype == trinity::DType::kUndefined || !info.shape.rank_known) return false;
    std::vector<int64_t> dims;
    for (const auto& d : info.shape.dims) dims.push_back(d.known() ? d.value : 1);
    const int64_t n = trinity::shape_numel(dims);
    if (n < 0 || (total += n) > kMaxInputElems) return false;
    auto t = trinity::Tensor::Create(info.dtype, dims);
    if (!t.ok()) return false;
    (*out)[info.name] = std::move(t).value();
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto model = trinity::Model::LoadFromMemory(data, size);
  if (!model.ok()) return 0;
  auto session = trinity::Session::Create(*model, {.device = "cpu", .num_threads = 1});
  if (!session.ok()) return 0;
  std::map<std::string, trinity::Tensor> inputs;
  if (!MakeZeroInputs(**model, &inputs)) return 0;
  auto outputs = (*session)->Run(inputs);
  (void)outputs;
  return 0;
}
