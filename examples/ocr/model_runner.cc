#include "model_runner.h"

namespace ocr {

trinity::Result<ModelRunner> ModelRunner::Open(const std::string& path, int num_threads) {
  auto model = trinity::Model::Load(path);
  if (!model.ok()) return model.status();
  if ((*model)->inputs().empty() || (*model)->outputs().empty()) {
    return trinity::Status::InvalidArgument("'" + path + "' has no inputs or no outputs");
  }
  trinity::SessionOptions options;
  options.device = "cpu";
  options.num_threads = num_threads;
  auto session = trinity::Session::Create(*model, options);
  if (!session.ok()) return session.status().WithContext(path);
  ModelRunner r;
  r.path_ = path;
  r.input_name_ = (*model)->inputs()[0].name;
  r.output_name_ = (*model)->outputs()[0].name;
  r.session_ = std::move(session).value();
  return r;
}

trinity::Result<trinity::Tensor> ModelRunner::Run(const trinity::Tensor& input) {
  auto outputs = session_->Run({{input_name_, input}});
  if (!outputs.ok()) return outputs.status().WithContext(path_);
  return outputs->at(output_name_);
}

}  // namespace ocr
