// Image to model input: channels first, each value (pixel / 255 - mean[c]) / stddev[c], in the
// image's blue-green-red channel order (PaddleOCR normalises cv2's BGR images as they are).
#pragma once

#include "image.h"

namespace ocr {

struct Normalization {
  float mean[3];
  float stddev[3];
};

// PaddleOCR's detector: ImageNet statistics (NormalizeImage).
constexpr Normalization kImageNetNormalization = {{0.485f, 0.456f, 0.406f},
                                                  {0.229f, 0.224f, 0.225f}};
// PaddleOCR's classifier and recogniser: (x / 255 - 0.5) / 0.5, i.e. to [-1, 1].
constexpr Normalization kSymmetricNormalization = {{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}};

// Writes `image` into the top-left corner of a 3 x plane_height x plane_width float block at
// `out` (plane_width >= image.width, plane_height >= image.height); the rest is left as is.
void WriteNormalizedChw(const Image& image, const Normalization& n, float* out, int plane_width,
                        int plane_height);

}  // namespace ocr
