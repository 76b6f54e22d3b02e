#include "normalize.h"

#include <cstddef>

namespace ocr {

void WriteNormalizedChw(const Image& image, const Normalization& n, float* out, int plane_width,
                        int plane_height) {
  const size_t plane = static_cast<size_t>(plane_width) * plane_height;
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < image.height; ++y) {
      float* row = out + c * plane + static_cast<size_t>(y) * plane_width;
      for (int x = 0; x < image.width; ++x) {
        row[x] = (image.pixel(x, y)[c] / 255.0f - n.mean[c]) / n.stddev[c];
      }
    }
  }
}

}  // namespace ocr
