// DB (differentiable binarization) post-processing: from the detector's text-probability map
// to text boxes in the original image, as PaddleOCR's DBPostProcess and the box filter of its
// TextDetector do it (quad boxes, "fast" box score).
#pragma once

#include <vector>

#include "geometry.h"

namespace ocr {

// PaddleOCR's defaults for PP-OCR detection (tools/infer/utility.py).
struct DbOptions {
  float thresh = 0.3f;        // a map cell is text above this probability
  float box_thresh = 0.6f;    // a region is kept when its box's mean probability reaches this
  double unclip_ratio = 1.5;  // how far boxes grow back (the model predicts shrunk regions)
  int max_candidates = 1000;  // regions looked at, at most
  int min_size = 3;           // shorter box sides are noise (map pixels; +2 after unclip)
};

struct DetectedBox {
  Quad box;     // corners in original-image pixels, OrderClockwise order
  float score;  // mean probability inside the box before unclip
};

// Mean of `prob` (width x height) over the pixels inside the polygon `box`, within its
// bounding box: box_score_fast.
float BoxScoreFast(const float* prob, int width, int height, const Quad& box);

// Boxes of the text regions of a probability map of width x height cells, scaled to an image
// of image_width x image_height, then filtered as TextDetector.filter_tag_det_res does:
// corners ordered clockwise, clipped to the image, boxes of 3 pixels or less per side dropped.
std::vector<DetectedBox> DbPostProcess(const float* prob, int width, int height, int image_width,
                                       int image_height, const DbOptions& options = {});

}  // namespace ocr
