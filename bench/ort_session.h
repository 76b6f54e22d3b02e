// OrtSession: one ONNX Runtime (CPU) session over Trinity tensors, through ORT's C API. Shared
// by bench/ort_run (one model, like `trinity run`) and bench/compare_ort (Trinity and ORT timed
// side by side), so both configure ORT the same way:
//   intra-op threads = N (0: ORT's default), inter-op threads = 1, sequential execution,
//   graph optimisation level "all" unless asked otherwise,
// which is how a user who wants single-model latency would set it up.
//
// Errors are Statuses carrying ORT's own message: InvalidArgument for a model ORT refuses or
// inputs that do not fit the model, RuntimeError for a failure while running.
//
// Threading: one Run at a time per session, as for trinity::Session.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "trinity/trinity.h"

namespace trinity::bench {

struct OrtOptions {
  int intra_op_threads = 0;       // 0: ONNX Runtime's default (one per core)
  std::string graph_opt = "all";  // "disable", "basic", "extended" or "all"
  // ORT's intra-op workers spin after each run waiting for more work (ORT's default). A tool
  // that alternates ORT with another runtime in one process may turn it off: the spinning
  // worker otherwise takes a core from the other runtime's threads.
  bool allow_spinning = true;
};

struct OrtIoInfo {
  std::string name;
  DType dtype = DType::kUndefined;  // kUndefined: an element type Trinity has no dtype for
  std::vector<int64_t> shape;       // -1 for a symbolic dim
  // "f32[1,?,64]".
  std::string Describe() const;
};

class OrtModelSession {
 public:
  static Result<std::unique_ptr<OrtModelSession>> Create(const std::string& model_path,
                                                         const OrtOptions& options);
  ~OrtModelSession();
  OrtModelSession(const OrtModelSession&) = delete;
  OrtModelSession& operator=(const OrtModelSession&) = delete;

  const std::vector<OrtIoInfo>& inputs() const { return inputs_; }
  const std::vector<OrtIoInfo>& outputs() const { return outputs_; }

  // Checks `inputs` against the model (every input given, names, dtypes, shapes) and binds them
  // for the following runs. ORT reads the tensors' bytes in place; the session keeps them alive.
  Status SetInputs(const std::map<std::string, Tensor>& inputs);
  // Runs the model on the bound inputs; the outputs replace the previous run's.
  Status Run();
  // A copy of output `i` of the last run.
  Result<Tensor> Output(size_t i) const;

  // The version string of the loaded ONNX Runtime library ("1.30.0").
  static std::string Version();

 private:
  struct Handles;
  OrtModelSession();
  std::unique_ptr<Handles> h_;
  std::vector<OrtIoInfo> inputs_, outputs_;
};

}  // namespace trinity::bench
