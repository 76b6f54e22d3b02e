// run_model: the smallest complete Trinity program. Copy it as a starting point.
//
//   example_run_model MODEL.onnx [THREADS] [NAME=FILE.npy ...]
//
// Loads an ONNX model, lists the devices, prints the model's inputs and outputs, creates a CPU
// session, fills every input (from the given .npy files, else with zeros of the declared shape,
// symbolic dims set to 1), runs the model once and prints each output's shape and first values.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "trinity/trinity.h"  // the whole public API

namespace {

// Every Trinity call returns a Status or a Result<T> instead of throwing; this prints the
// error (its message names the input, node or file at fault) and gives the exit code.
int Fail(const trinity::Status& status) {
  std::fprintf(stderr, "error: %s\n", status.ToString().c_str());
  return 1;
}

// The first few values of a tensor, for a quick look.
std::string FirstValues(const trinity::Tensor& t, int64_t count = 8) {
  std::string s;
  char buf[32];
  for (int64_t i = 0; i < t.numel() && i < count; ++i) {
    switch (t.dtype()) {
      case trinity::DType::kF32:
        std::snprintf(buf, sizeof buf, " %g", t.data<float>()[i]);
        break;
      case trinity::DType::kF64:
        std::snprintf(buf, sizeof buf, " %g", t.data<double>()[i]);
        break;
      case trinity::DType::kI64:
        std::snprintf(buf, sizeof buf, " %lld", static_cast<long long>(t.data<int64_t>()[i]));
        break;
      case trinity::DType::kI32:
        std::snprintf(buf, sizeof buf, " %d", t.data<int32_t>()[i]);
        break;
      default:
        return s + " ...";  // other dtypes: see trinity/dtype.h
    }
    s += buf;
  }
  return t.numel() > count ? s + " ..." : s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.onnx [THREADS] [NAME=FILE.npy ...]\n", argv[0]);
    return 2;
  }
  const std::string model_path = argv[1];
  int arg = 2;
  int threads = 1;
  if (arg < argc && std::string(argv[arg]).find('=') == std::string::npos)
    threads = std::atoi(argv[arg++]);

  // Model::Load parses and validates the ONNX file. The model is immutable and shared
  // (shared_ptr), so several sessions can use one copy of the weights.
  auto model = trinity::Model::Load(model_path);
  if (!model.ok()) return Fail(model.status());

  // ListDevices() reports every processor Trinity found; "cpu" is always first.
  std::printf("devices:\n");
  for (const trinity::DeviceInfo& d : trinity::ListDevices()) {
    std::printf("  %s: %s (%s)\n", d.id.c_str(), d.name.c_str(), d.api.c_str());
  }

  // inputs()/outputs() give each tensor's name, dtype and declared shape; Describe() prints
  // them as "f32[batch,4]" (symbolic dims by name).
  std::printf("inputs:\n");
  for (const trinity::TensorInfo& in : (*model)->inputs()) {
    std::printf("  %s: %s\n", in.name.c_str(), in.Describe().c_str());
  }
  std::printf("outputs:\n");
  for (const trinity::TensorInfo& out : (*model)->outputs()) {
    std::printf("  %s: %s\n", out.name.c_str(), out.Describe().c_str());
  }

  // Session::Create compiles the model for one device: it checks every node is supported,
  // folds constants, fuses ops and starts the session's thread pool.
  trinity::SessionOptions options;
  options.device = "cpu";
  options.num_threads = threads;
  auto session = trinity::Session::Create(*model, options);
  if (!session.ok()) return Fail(session.status());

  // Inputs are passed by name. ReadNpy loads a NumPy file (ReadTensorFile also takes ONNX
  // .pb tensors); Tensor::Create makes a zero-filled tensor of a concrete shape.
  std::map<std::string, trinity::Tensor> inputs;
  for (; arg < argc; ++arg) {
    const std::string spec = argv[arg];
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "error: expected NAME=FILE.npy, got '%s'\n", spec.c_str());
      return 2;
    }
    auto tensor = trinity::ReadNpy(spec.substr(eq + 1));
    if (!tensor.ok()) return Fail(tensor.status());
    inputs[spec.substr(0, eq)] = *tensor;
  }
  for (const trinity::TensorInfo& in : (*model)->inputs()) {
    if (inputs.count(in.name)) continue;
    std::vector<int64_t> shape;
    for (const trinity::Dim& d : in.shape.dims) shape.push_back(d.known() ? d.value : 1);
    auto zeros = trinity::Tensor::Create(in.dtype, shape);
    if (!zeros.ok()) return Fail(zeros.status());
    inputs[in.name] = *zeros;
  }

  // Run checks each input's dtype and shape against the model (errors name the input and
  // what it expects) and returns every output by name.
  auto outputs = (*session)->Run(inputs);
  if (!outputs.ok()) return Fail(outputs.status());

  std::printf("results:\n");
  for (const trinity::TensorInfo& out : (*model)->outputs()) {
    const trinity::Tensor& t = outputs->at(out.name);
    std::printf("  %s: %s%s\n", out.name.c_str(), t.Describe().c_str(), FirstValues(t).c_str());
  }
  return 0;
}
