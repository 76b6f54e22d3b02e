// CTC greedy decoding of a recogniser's per-step class scores (PaddleOCR's CTCLabelDecode).
#pragma once

#include <string>
#include <vector>

#include "trinity/status.h"

namespace ocr {

// The recogniser's classes: index 0 is the CTC blank (an empty string here), then one class per
// line of the keys file (ppocr_keys_v1.txt: UTF-8, one character a line), then " " last, as
// PaddleOCR builds them with use_space_char=True (its default).
trinity::Result<std::vector<std::string>> LoadCharset(const std::string& keys_path);

struct Decoded {
  std::string text;
  float score = 0;  // mean probability of the emitted characters; 0 when none
};

// Best class per step; a class repeated on consecutive steps counts once, blanks are dropped.
// `probs` holds steps x classes values (classes == charset.size()).
Decoded CtcGreedyDecode(const float* probs, int steps, int classes,
                        const std::vector<std::string>& charset);

}  // namespace ocr
