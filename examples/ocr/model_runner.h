// One ONNX model with one image input and one output, on a Trinity CPU session.
#pragma once

#include <memory>
#include <string>

#include "trinity/trinity.h"

namespace ocr {

class ModelRunner {
 public:
  // Loads `path` and compiles it for the CPU; errors name the file.
  static trinity::Result<ModelRunner> Open(const std::string& path, int num_threads);

  // Runs the model on `input` (fed to its first input) and returns its first output.
  trinity::Result<trinity::Tensor> Run(const trinity::Tensor& input);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string input_name_, output_name_;
  std::shared_ptr<trinity::Session> session_;
};

}  // namespace ocr
