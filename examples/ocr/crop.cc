#include "crop.h"

#include <algorithm>
#include <cmath>

#include "perspective.h"
#include "resize.h"

namespace ocr {

void SortBoxes(std::vector<DetectedBox>* boxes) {
  auto& b = *boxes;
  std::stable_sort(b.begin(), b.end(), [](const DetectedBox& l, const DetectedBox& r) {
    return l.box[0].y < r.box[0].y || (l.box[0].y == r.box[0].y && l.box[0].x < r.box[0].x);
  });
  // One insertion pass per box, as PaddleOCR does, so its results are reproduced exactly.
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    for (size_t j = i + 1; j-- > 0;) {
      if (std::fabs(b[j + 1].box[0].y - b[j].box[0].y) < 10 && b[j + 1].box[0].x < b[j].box[0].x) {
        std::swap(b[j], b[j + 1]);
      } else {
        break;
      }
    }
  }
}

trinity::Result<Image> CropTextLine(const Image& image, const Quad& box) {
  auto dist = [](const PointF& a, const PointF& b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const int width = static_cast<int>(std::max(dist(box[0], box[1]), dist(box[2], box[3])));
  const int height = static_cast<int>(std::max(dist(box[0], box[3]), dist(box[1], box[2])));
  const Quad target = {
      {{0, 0}, {double(width), 0}, {double(width), double(height)}, {0, double(height)}}};
  const auto to_image = PerspectiveTransform(target, box);
  if (width < 1 || height < 1 || !to_image) {
    return trinity::Status::InvalidArgument("degenerate text box (" + std::to_string(width) + "x" +
                                            std::to_string(height) + ")");
  }
  Image crop = WarpPerspectiveCubic(image, *to_image, width, height);
  if (static_cast<double>(height) / width >= 1.5) crop = Rotate90CounterClockwise(crop);
  return crop;
}

}  // namespace ocr
