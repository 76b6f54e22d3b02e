// Session: a model compiled for one device, with its own memory and threads.
//
//   auto model = trinity::Model::Load("model.onnx");
//   auto session = trinity::Session::Create(*model, {.device = "cpu", .num_threads = 2});
//   auto outputs = (*session)->Run({{"input", tensor}});
//
// Threading: Run() may be called from one thread at a time per session; use one session per
// thread (they can share a Model) to run concurrently.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "trinity/model.h"
#include "trinity/status.h"
#include "trinity/tensor.h"

namespace trinity {

struct SessionOptions {
  std::string device = "cpu";  // an id from ListDevices()
  int num_threads = 0;         // 0: one per hardware core
  bool optimize = true;        // constant folding and fusion
};

class Session {
 public:
  // Fails naming the nodes the device cannot run, with the reason for each.
  static Result<std::unique_ptr<Session>> Create(std::shared_ptr<const Model> model,
                                                 const SessionOptions& options = {});
  ~Session();

  // Runs the model. Every model input must be given, with the declared dtype and a shape that
  // matches the declared one (symbolic dims match anything); errors name the input and the
  // expected type. Returns every model output by name.
  Result<std::map<std::string, Tensor>> Run(const std::map<std::string, Tensor>& inputs);

  const Model& model() const { return *model_; }
  const SessionOptions& options() const { return options_; }
  // Nodes after optimisation (constant folding, fusion).
  size_t num_nodes() const;

 private:
  struct Impl;
  Session(std::shared_ptr<const Model> model, SessionOptions options);
  std::shared_ptr<const Model> model_;
  SessionOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trinity
