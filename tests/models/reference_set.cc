#include "reference_set.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace trinity::refs {
namespace {

namespace fs = std::filesystem;

const char* kSetupHint = "run scripts/setup.sh to make them";

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

std::string CacheDir() {
  if (std::string d = Env("TRINITY_CACHE_DIR"); !d.empty()) return d;
  return Env("HOME") + "/.cache/trinity";
}

// First line of a small text file, without the newline.
Result<std::string> ReadLine(const fs::path& path) {
  std::ifstream f(path);
  std::string line;
  if (!f || !std::getline(f, line) || line.empty()) {
    return Status::NotFound("cannot read '" + path.string() + "'");
  }
  return line;
}

}  // namespace

const std::vector<RealModel>& RealModels() {
  // scripts/references/make.py makes references for the same list.
  static const std::vector<RealModel> kModels = {
      {"silero_vad_v5", "silero_vad_v5.onnx", false},
      {"silero_vad_legacy", "silero_vad_legacy.onnx", false},
      {"melspectrogram", "melspectrogram.onnx", false},
      {"embedding_model", "embedding_model.onnx", false},
      {"hey_jarvis", "hey_jarvis_v0.1.onnx", false},
      {"alexa", "alexa_v0.1.onnx", false},
      {"ppocr_det", "ch_PP-OCRv4_det_infer.onnx", false},
      {"ppocr_cls", "ch_ppocr_mobile_v2.0_cls_infer.onnx", true},
      {"ppocr_rec", "ch_PP-OCRv4_rec_infer.onnx", true},
      {"blazeface", "face_detection_front_128x128_barracuda.onnx", false},
      {"mlsd", "mlsd_320x320_tiny.onnx", false},
  };
  return kModels;
}

const RealModel* FindRealModel(const std::string& name) {
  for (const RealModel& m : RealModels())
    if (m.name == name) return &m;
  return nullptr;
}

std::string ModelsDir() {
  if (std::string d = Env("TRINITY_MODELS_DIR"); !d.empty()) return d;
  return CacheDir() + "/models";
}

Result<std::string> ReferencesDir() {
  if (std::string d = Env("TRINITY_REFERENCES_DIR"); !d.empty()) return d;
  const fs::path version_file = fs::path(CacheDir()) / "ort" / "VERSION";
  auto version = ReadLine(version_file);
  if (!version.ok()) {
    return Status::NotFound("no ONNX Runtime install (" + version_file.string() +
                            "), so no references; " + kSetupHint);
  }
  return (fs::path(CacheDir()) / "references" / *version).string();
}

Result<std::string> ReadOrtVersion(const std::string& references_dir) {
  auto v = ReadLine(fs::path(references_dir) / "ORT_VERSION");
  if (!v.ok()) return v.status().WithContext(std::string("references incomplete; ") + kSetupHint);
  return v;
}

Result<ReferenceCase> LoadReference(const std::string& references_dir,
                                    const std::string& models_dir, const RealModel& model) {
  const fs::path dir = fs::path(references_dir) / model.name;
  const fs::path manifest = dir / "manifest.tsv";
  std::ifstream f(manifest);
  if (!f) {
    return Status::NotFound("no references for " + model.name + " ('" + manifest.string() +
                            "' missing); " + kSetupHint);
  }
  ReferenceCase rc;
  rc.model_path = (fs::path(models_dir) / model.file).string();
  if (!fs::exists(rc.model_path)) {
    return Status::NotFound("model '" + rc.model_path + "' not found; " + kSetupHint);
  }
  std::string line;
  for (int line_no = 1; std::getline(f, line); ++line_no) {
    std::istringstream fields(line);
    std::string kind, name, file;
    std::getline(fields, kind, '\t');
    std::getline(fields, name, '\t');
    std::getline(fields, file, '\t');
    const std::string where = manifest.string() + ":" + std::to_string(line_no);
    if (kind == "model") {
      // The references were made for this file; a different one would make them meaningless.
      if (name != model.file) {
        return Status::InvalidArgument(where + ": references are for '" + name + "', not '" +
                                       model.file + "'; " + kSetupHint);
      }
      continue;
    }
    if ((kind != "input" && kind != "output") || name.empty() || file.empty()) {
      return Status::InvalidArgument(where + ": expected 'input|output<TAB>NAME<TAB>FILE'");
    }
    auto t = ReadNpy((dir / file).string());
    if (!t.ok()) return t.status().WithContext(std::string("references: ") + kSetupHint);
    if (kind == "input") {
      rc.inputs[name] = std::move(t).value();
    } else {
      rc.outputs.emplace_back(name, std::move(t).value());
    }
  }
  if (rc.inputs.empty() || rc.outputs.empty()) {
    return Status::NotFound(manifest.string() + " lists no inputs or no outputs; " + kSetupHint);
  }
  return rc;
}

}  // namespace trinity::refs
