// From detected boxes to upright text-line images: PaddleOCR's sorted_boxes and
// get_rotate_crop_image (tools/infer/predict_system.py, utility.py).
#pragma once

#include <vector>

#include "db_postprocess.h"
#include "image.h"
#include "trinity/status.h"

namespace ocr {

// Reading order: by the top-left corner's (y, x), then a box whose top-left y is within 10
// pixels of the previous box's and which lies further left moves before it (same line).
void SortBoxes(std::vector<DetectedBox>* boxes);

// The box's contents straightened to a width x height image (width = the longer of the top
// and bottom sides, height = the longer of the left and right sides, truncated), bicubic;
// turned a quarter counter-clockwise when it is at least 1.5 times taller than wide
// (vertical text). Fails on a degenerate box.
trinity::Result<Image> CropTextLine(const Image& image, const Quad& box);

}  // namespace ocr
