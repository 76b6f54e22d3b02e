// The reference set that scripts/make_references.sh makes: for each real model of DESIGN.md,
// inputs (real speech, drawn images) and ONNX Runtime's outputs for them. Shared by the model
// tests (tests/models) and the speed comparison (bench/compare_ort), so both use the same
// inputs and find them the same way.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "trinity/trinity.h"

namespace trinity::refs {

struct RealModel {
  std::string name;  // short name, the folder in the reference set ("ppocr_rec")
  std::string file;  // file in the models folder ("ch_PP-OCRv4_rec_infer.onnx")
  // Classifier outputs: the argmax over the last axis must equal ONNX Runtime's.
  bool argmax_last_axis = false;
};

// Every real model, in the order scripts/references/make.py makes them.
const std::vector<RealModel>& RealModels();
// The model called `name`, or nullptr.
const RealModel* FindRealModel(const std::string& name);

// $TRINITY_MODELS_DIR, else $TRINITY_CACHE_DIR/models, else ~/.cache/trinity/models.
std::string ModelsDir();
// $TRINITY_REFERENCES_DIR, else <cache>/references/<version in <cache>/ort/VERSION>. NotFound,
// saying to run scripts/setup.sh, when ONNX Runtime was never fetched.
Result<std::string> ReferencesDir();
// The ONNX Runtime version recorded beside the references (their ORT_VERSION file).
Result<std::string> ReadOrtVersion(const std::string& references_dir);

struct ReferenceCase {
  std::string model_path;
  std::map<std::string, Tensor> inputs;
  // In the model's output order, as ONNX Runtime wrote them.
  std::vector<std::pair<std::string, Tensor>> outputs;
};

// Reads `model`'s manifest, inputs and outputs. NotFound (naming the file and saying to run
// scripts/setup.sh) when any piece is missing; other errors name the bad file.
Result<ReferenceCase> LoadReference(const std::string& references_dir,
                                    const std::string& models_dir, const RealModel& model);

}  // namespace trinity::refs
