// Resizing and right-angle rotations of images, with OpenCV's semantics where PaddleOCR uses
// OpenCV (cv2.resize, cv2.rotate, np.rot90), so that the models see the pixels they expect.
#pragma once

#include "image.h"

namespace ocr {

// cv2.resize(..., INTER_LINEAR): pixel centres aligned ((x + 0.5) * scale - 0.5), edges
// replicated, 11-bit fixed-point weights as OpenCV uses for 8-bit images, rounded result.
Image ResizeLinear(const Image& src, int dst_width, int dst_height);

// cv2.rotate(img, ROTATE_180).
Image Rotate180(const Image& src);
// np.rot90(img): a quarter turn counter-clockwise (the top row becomes the left column).
Image Rotate90CounterClockwise(const Image& src);

}  // namespace ocr
