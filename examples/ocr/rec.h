// Text recognition with PP-OCRv4's recogniser (SVTR-LCNet, CTC head): PaddleOCR's
// TextRecognizer.resize_norm_img before the model, CTCLabelDecode after it.
#pragma once

#include <string>
#include <vector>

#include "ctc.h"
#include "image.h"
#include "model_runner.h"

namespace ocr {

// Height 48; width 48 * max_wh_ratio (truncated). The crop is resized to height 48 keeping its
// aspect ratio (width rounded up, at most that width), values in [-1, 1], zero-padded on the
// right. Returns 3 x 48 x RecInputWidth(max_wh_ratio) values, channels first.
int RecInputWidth(double max_wh_ratio);
std::vector<float> RecInput(const Image& crop, double max_wh_ratio);

class TextRecognizer {
 public:
  TextRecognizer(ModelRunner model, std::vector<std::string> charset)
      : model_(std::move(model)), charset_(std::move(charset)) {}

  // Text and confidence of each crop. As PaddleOCR, crops are sorted by aspect ratio and run in
  // batches of 6, each padded to the widest of its crops (and at least 320 = 48 * 320/48).
  trinity::Result<std::vector<Decoded>> Recognize(const std::vector<Image>& crops);

 private:
  ModelRunner model_;
  std::vector<std::string> charset_;
};

}  // namespace ocr
