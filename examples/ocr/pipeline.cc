#include "pipeline.h"

#include <chrono>
#include <filesystem>

#include "crop.h"

namespace ocr {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

trinity::Result<ModelRunner> OpenModel(const std::string& dir, const char* file, int threads) {
  const std::string path = (std::filesystem::path(dir) / file).string();
  if (!std::filesystem::exists(path)) {
    return trinity::Status::NotFound("OCR model '" + path + "' not found");
  }
  return ModelRunner::Open(path, threads);
}

}  // namespace

trinity::Result<std::unique_ptr<OcrPipeline>> OcrPipeline::Create(const std::string& models_dir,
                                                                  const OcrOptions& options) {
  TRY_ASSIGN(ModelRunner det, OpenModel(models_dir, kDetModelFile, options.num_threads));
  TRY_ASSIGN(ModelRunner cls, OpenModel(models_dir, kClsModelFile, options.num_threads));
  TRY_ASSIGN(ModelRunner rec, OpenModel(models_dir, kRecModelFile, options.num_threads));
  TRY_ASSIGN(std::vector<std::string> charset,
             LoadCharset((std::filesystem::path(models_dir) / kKeysFile).string()));
  return std::unique_ptr<OcrPipeline>(
      new OcrPipeline(options, TextDetector(std::move(det)), DirectionClassifier(std::move(cls)),
                      TextRecognizer(std::move(rec), std::move(charset))));
}

trinity::Result<std::vector<TextLine>> OcrPipeline::Run(const Image& image, OcrTimings* timings) {
  OcrTimings t;
  auto t0 = Clock::now();
  TRY_ASSIGN(std::vector<DetectedBox> boxes, det_.Detect(image, options_.db));
  SortBoxes(&boxes);
  t.det_ms = MsSince(t0);

  t0 = Clock::now();
  std::vector<Image> crops;
  for (const DetectedBox& b : boxes) {
    TRY_ASSIGN(Image crop, CropTextLine(image, b.box));
    crops.push_back(std::move(crop));
  }
  t.crop_ms = MsSince(t0);

  t0 = Clock::now();
  std::vector<Direction> directions(crops.size());
  if (options_.use_cls && !crops.empty()) {
    TRY_ASSIGN(directions, cls_.Apply(&crops, options_.cls_thresh));
  }
  t.cls_ms = MsSince(t0);

  t0 = Clock::now();
  std::vector<Decoded> texts;
  if (!crops.empty()) {
    TRY_ASSIGN(texts, rec_.Recognize(crops));
  }
  t.rec_ms = MsSince(t0);

  std::vector<TextLine> lines;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (texts[i].score < options_.drop_score) continue;
    lines.push_back(
        {boxes[i].box, texts[i].text, texts[i].score, boxes[i].score, directions[i].rotated});
  }
  if (timings) *timings = t;
  return lines;
}

}  // namespace ocr
