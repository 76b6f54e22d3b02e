// `trinity demo`: runs every real model of the project (fetched by scripts/fetch_models.sh) on
// deterministic synthetic inputs, on the CPU, and prints what each produced and how long it took.
// The streaming audio demo (wake word + VAD on spoken clips) replaces this in a later step.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "cli.h"
#include "commands.h"

namespace trinity::cli {
namespace {

struct DemoModel {
  const char* file;
  const char* what;
  std::vector<int64_t> symbolic_fill;  // values for unknown dims, in order of appearance
};

const DemoModel kModels[] = {
    {"silero_vad_v5.onnx", "Silero VAD v5 (speech probability per 32 ms chunk)", {1, 576, 1}},
    {"silero_vad_legacy.onnx", "Silero VAD legacy", {1, 512, 1, 1}},
    {"melspectrogram.onnx", "openWakeWord mel spectrogram (1 s of audio)", {1, 16000}},
    {"embedding_model.onnx", "openWakeWord speech embedding", {1}},
    {"hey_jarvis_v0.1.onnx", "openWakeWord 'hey jarvis' head", {}},
    {"alexa_v0.1.onnx", "openWakeWord 'alexa' head", {}},
    {"ch_PP-OCRv4_det_infer.onnx", "PP-OCRv4 text detection (320x320)", {1, 320, 320}},
    {"ch_ppocr_mobile_v2.0_cls_infer.onnx", "PP-OCR text direction classifier", {1, 48, 192}},
    {"ch_PP-OCRv4_rec_infer.onnx", "PP-OCRv4 text recognition (48x320)", {1, 320}},
    {"face_detection_front_128x128_barracuda.onnx", "BlazeFace front face detector", {}},
    {"mlsd_320x320_tiny.onnx", "M-LSD tiny line segment detector", {}},
};

// Deterministic input: a 16 kHz vowel-like tone for audio, smooth patterns with noise for
// images, zeros for recurrent state, 16000 for a sample-rate scalar.
Tensor MakeInput(const TensorInfo& info, const std::vector<int64_t>& fill, size_t* fill_pos, std::mt19937* rng) {
  std::vector<int64_t> shape;
  for (const Dim& d : info.shape.dims) {
    if (d.known()) shape.push_back(d.value);
    else shape.push_back(*fill_pos < fill.size() ? fill[(*fill_pos)++] : 1);
  }
  Tensor t = Tensor::Empty(info.dtype, shape);
  if (info.dtype == DType::kI64) {
    for (int64_t i = 0; i < t.numel(); ++i) t.data<int64_t>()[i] = 16000;
    return t;
  }
  if (info.dtype != DType::kF32) return t;
  const bool state = info.name == "state" || info.name == "h" || info.name == "c";
  if (state) return t;
  std::normal_distribution<float> noise(0.f, 0.05f);
  float* p = t.data<float>();
  const bool audio = shape.size() == 2;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double x = static_cast<double>(i);
    if (audio) {  // 150 Hz fundamental with harmonics, as int16-scaled samples
      const double s = std::sin(2 * M_PI * 150 * x / 16000) + 0.5 * std::sin(2 * M_PI * 300 * x / 16000) +
                       0.25 * std::sin(2 * M_PI * 450 * x / 16000);
      p[i] = static_cast<float>(s * 0.3) + noise(*rng) * 0.1f;
    } else {
      p[i] = static_cast<float>(0.5 + 0.4 * std::sin(x * 0.013) * std::cos(x * 0.0007)) + noise(*rng);
    }
  }
  return t;
}

int RunDemo(int threads, int repeat) {
  const std::string dir = ModelsDir();
  std::printf("Trinity demo: real models on the CPU (%d threads), deterministic synthetic inputs\n", threads);
  std::printf("models from %s; median latency of %d runs after 1 warm-up\n\n", dir.c_str(), repeat);
  int ran = 0;
  for (const DemoModel& dm : kModels) {
    const std::string path = dir + "/" + dm.file;
    if (!std::filesystem::exists(path)) {
      std::fprintf(stderr, "error: %s not found; run scripts/fetch_models.sh\n", path.c_str());
      return kExitRuntimeFailure;
    }
    auto model = Model::Load(path);
    if (!model.ok()) return ReportError(model.status());
    SessionOptions options;
    options.num_threads = threads;
    auto session = Session::Create(*model, options);
    if (!session.ok()) return ReportError(session.status());
    std::mt19937 rng(1234);
    std::map<std::string, Tensor> inputs;
    size_t fill_pos = 0;
    for (const TensorInfo& in : (*model)->inputs()) inputs[in.name] = MakeInput(in, dm.symbolic_fill, &fill_pos, &rng);
    std::vector<double> ms;
    Result<std::map<std::string, Tensor>> out = Status::Internal("not run");
    for (int i = 0; i <= repeat; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      out = (*session)->Run(inputs);
      if (!out.ok()) return ReportError(out.status().WithContext(dm.file));
      if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-44s %8.2f ms  %s\n", dm.file, ms[ms.size() / 2], dm.what);
    for (const auto& o : (*model)->outputs()) {
      std::printf("    %-22s %s\n", o.name.c_str(), SummarizeTensor(out->at(o.name)).c_str());
    }
    ++ran;
  }
  std::printf("\n%d models ran.\n", ran);
  return kExitOk;
}

}  // namespace

void AddDemoCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("demo", "Run the project's real models and print their results");
  static int threads = 2, repeat = 5;
  cmd->add_option("--threads,-t", threads, "Threads")->check(CLI::Range(1, 1024));
  cmd->add_option("--repeat,-r", repeat, "Timed runs per model")->check(CLI::Range(1, 10000));
  cmd->callback([exit_code] { *exit_code = RunDemo(threads, repeat); });
}

}  // namespace trinity::cli
