// Text detection with PP-OCR's DB detector: PaddleOCR's DetResizeForTest and NormalizeImage
// before the model, DbPostProcess after it.
#pragma once

#include <vector>

#include "db_postprocess.h"
#include "image.h"
#include "model_runner.h"

namespace ocr {

struct DetSize {
  int width = 0;
  int height = 0;
};

// DetResizeForTest with limit_type "max": the longer side is scaled down to `limit_side_len`
// when it exceeds it (never up), then each side is rounded to a multiple of 32 (at least 32),
// as the detector's five stride-2 stages need.
DetSize DetInputSize(int width, int height, int limit_side_len = 960);

class TextDetector {
 public:
  explicit TextDetector(ModelRunner model) : model_(std::move(model)) {}

  // Boxes of the text in `image`, in image pixels, in no particular order.
  trinity::Result<std::vector<DetectedBox>> Detect(const Image& image,
                                                   const DbOptions& options = {});

 private:
  ModelRunner model_;
};

}  // namespace ocr
