#include "det.h"

#include <algorithm>
#include <cmath>

#include "normalize.h"
#include "resize.h"

namespace ocr {

DetSize DetInputSize(int width, int height, int limit_side_len) {
  double ratio = 1.0;
  if (std::max(width, height) > limit_side_len) {
    ratio = static_cast<double>(limit_side_len) / std::max(width, height);
  }
  const int w = static_cast<int>(width * ratio), h = static_cast<int>(height * ratio);
  // Python's round(): halves to even, as std::nearbyint in the default rounding mode.
  return {std::max(static_cast<int>(std::nearbyint(w / 32.0)) * 32, 32),
          std::max(static_cast<int>(std::nearbyint(h / 32.0)) * 32, 32)};
}

trinity::Result<std::vector<DetectedBox>> TextDetector::Detect(const Image& image,
                                                               const DbOptions& options) {
  // Tiny images are first padded with black to at least 32x32 (DetResizeForTest does this
  // when width + height < 64); boxes are still scaled back to the original size.
  Image source = image;
  if (image.width + image.height < 64) {
    source = Image::Blank(std::max(32, image.width), std::max(32, image.height));
    for (int y = 0; y < image.height; ++y) {
      std::copy_n(image.pixel(0, y), image.width * 3, source.pixel(0, y));
    }
  }
  const DetSize size = DetInputSize(source.width, source.height);
  const Image resized = ResizeLinear(source, size.width, size.height);
  auto input = trinity::Tensor::Create(trinity::DType::kF32, {1, 3, size.height, size.width});
  if (!input.ok()) return input.status();
  WriteNormalizedChw(resized, kImageNetNormalization, input->data<float>(), size.width,
                     size.height);
  auto prob = model_.Run(*input);
  if (!prob.ok()) return prob.status();
  const std::vector<int64_t> expected = {1, 1, size.height, size.width};
  if (prob->dtype() != trinity::DType::kF32 || prob->shape() != expected) {
    return trinity::Status::RuntimeError(model_.path() + ": expected a probability map f32" +
                                         trinity::shape_to_string(expected) + ", got " +
                                         prob->Describe());
  }
  return DbPostProcess(prob->data<float>(), size.width, size.height, image.width, image.height,
                       options);
}

}  // namespace ocr
