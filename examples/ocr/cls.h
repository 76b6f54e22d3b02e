// Text direction: PaddleOCR's TextClassifier (predict_cls.py) with the mobile v2.0 model,
// which tells upright text lines ("0") from upside-down ones ("180").
#pragma once

#include <vector>

#include "image.h"
#include "model_runner.h"

namespace ocr {

struct Direction {
  bool upside_down = false;  // the model's label is "180"
  float score = 0;           // the probability of that label
  bool rotated = false;      // the crop was turned (upside down, score above the threshold)
};

// Resized to height 48 keeping the aspect ratio (width rounded up, at most 192), values in
// [-1, 1], padded with zeros to 3x48x192. Returns the 48x192x3 CHW values.
std::vector<float> ClsInput(const Image& crop);

class DirectionClassifier {
 public:
  explicit DirectionClassifier(ModelRunner model) : model_(std::move(model)) {}

  // Classifies every crop (in batches of 6, as PaddleOCR) and turns by 180 degrees those
  // labelled "180" with a probability above `threshold`.
  trinity::Result<std::vector<Direction>> Apply(std::vector<Image>* crops, float threshold = 0.9f);

 private:
  ModelRunner model_;
};

}  // namespace ocr
