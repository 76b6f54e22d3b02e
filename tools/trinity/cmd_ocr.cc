// `trinity ocr IMAGE`: PP-OCRv4 text detection, direction classification and recognition on
// the CPU, with the pipeline of examples/ocr (PaddleOCR's pre- and post-processing).
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"
#include "ocr/pipeline.h"

namespace trinity::cli {
namespace {

struct OcrArgs {
  std::string image;
  std::string models_dir;
  int threads = 0;
  bool no_cls = false;
  bool json = false;
};

nlohmann::json BoxJson(const ocr::Quad& box) {
  nlohmann::json j = nlohmann::json::array();
  for (const ocr::PointF& p : box) j.push_back({static_cast<int>(p.x), static_cast<int>(p.y)});
  return j;
}

int RunOcr(const OcrArgs& a) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto image = ocr::LoadImage(a.image);
  if (!image.ok()) return ReportError(image.status());

  ocr::OcrOptions options;
  options.num_threads = a.threads;
  options.use_cls = !a.no_cls;
  const std::string models_dir = a.models_dir.empty() ? ModelsDir() : a.models_dir;
  auto pipeline = ocr::OcrPipeline::Create(models_dir, options);
  if (!pipeline.ok()) {
    return ReportError(pipeline.status().WithContext(
        "loading the OCR models (scripts/fetch_models.sh fetches them; --models-dir or "
        "$TRINITY_MODELS_DIR points elsewhere)"));
  }
  const auto t_loaded = Clock::now();
  ocr::OcrTimings timings;
  auto lines = (*pipeline)->Run(*image, &timings);
  if (!lines.ok()) return ReportRuntimeError(lines.status());
  auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  const double load_ms = ms(t_loaded - t0), run_ms = ms(Clock::now() - t_loaded);

  if (a.json) {
    nlohmann::json j_lines = nlohmann::json::array();
    for (const ocr::TextLine& l : *lines) {
      j_lines.push_back({{"text", l.text},
                         {"confidence", l.confidence},
                         {"box", BoxJson(l.box)},
                         {"box_score", l.box_score},
                         {"rotated", l.rotated}});
    }
    const nlohmann::json j = {{"image", a.image},
                              {"width", image->width},
                              {"height", image->height},
                              {"device", "cpu"},
                              {"threads", a.threads},
                              {"lines", j_lines},
                              {"timing_ms",
                               {{"load", load_ms},
                                {"det", timings.det_ms},
                                {"crop", timings.crop_ms},
                                {"cls", timings.cls_ms},
                                {"rec", timings.rec_ms},
                                {"run", run_ms}}}};
    std::printf("%s\n", j.dump().c_str());
    return kExitOk;
  }
  // One line per text line: text, confidence, corners; tab-separated so `cut -f1` gives the
  // text even when it holds spaces. Timings go to stderr to keep stdout the result alone.
  for (const ocr::TextLine& l : *lines) {
    std::printf("%s\t%.3f\t%s\n", l.text.c_str(), l.confidence, BoxJson(l.box).dump().c_str());
  }
  const std::string threads = a.threads == 1  ? std::string("1 thread")
                              : a.threads > 1 ? std::to_string(a.threads) + " threads"
                                              : std::string("one thread per core");
  std::fprintf(stderr,
               "ocr: %zu line(s) in %.0f ms (det %.0f, crop %.0f, cls %.0f, rec %.0f; models "
               "loaded in %.0f ms; cpu, %s)\n",
               lines->size(), run_ms, timings.det_ms, timings.crop_ms, timings.cls_ms,
               timings.rec_ms, load_ms, threads.c_str());
  return kExitOk;
}

}  // namespace

void AddOcrCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("ocr", "Read the text in an image (PP-OCRv4 on the CPU)");
  static OcrArgs a;
  cmd->add_option("image", a.image, "PNG, PPM (P6) or PGM (P5) image")->required();
  cmd->add_option("--models-dir", a.models_dir,
                  "Directory of the PP-OCR models (default: $TRINITY_MODELS_DIR, else "
                  "~/.cache/trinity/models)");
  cmd->add_option("--threads,-t", a.threads, "Threads per model (0 = one per core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--no-cls", a.no_cls, "Skip the 180-degree direction classifier");
  cmd->add_flag("--json", a.json, "Print one JSON object");
  cmd->callback([exit_code] { *exit_code = RunOcr(a); });
}

}  // namespace trinity::cli
