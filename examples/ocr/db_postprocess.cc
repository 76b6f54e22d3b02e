#include "db_postprocess.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "components.h"

namespace ocr {
namespace {

// np.round: halves go to the even neighbour (the default rounding mode does the same).
double RoundHalfEven(double v) { return std::nearbyint(v); }

// Scales map coordinates to image coordinates and clips them (np.round, np.clip).
PointF ToImage(const PointF& p, int width, int height, int image_width, int image_height) {
  return {std::clamp(RoundHalfEven(p.x / width * image_width), 0.0, double(image_width)),
          std::clamp(RoundHalfEven(p.y / height * image_height), 0.0, double(image_height))};
}

// clip_det_res: int(min(max(v, 0), size - 1)).
double ClipToPixel(double v, int size) { return std::trunc(std::clamp(v, 0.0, size - 1.0)); }

double Distance(const PointF& a, const PointF& b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace

float BoxScoreFast(const float* prob, int width, int height, const Quad& box) {
  double lo_x = box[0].x, hi_x = box[0].x, lo_y = box[0].y, hi_y = box[0].y;
  for (const PointF& p : box) {
    lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  }
  const int xmin = std::clamp(static_cast<int>(std::floor(lo_x)), 0, width - 1);
  const int xmax = std::clamp(static_cast<int>(std::ceil(hi_x)), 0, width - 1);
  const int ymin = std::clamp(static_cast<int>(std::floor(lo_y)), 0, height - 1);
  const int ymax = std::clamp(static_cast<int>(std::ceil(hi_y)), 0, height - 1);
  // cv2.fillPoly of the corners moved to the bounding box's origin and truncated to integers;
  // the polygon is convex, so each row is filled between its leftmost and rightmost crossing.
  Quad q;
  for (size_t i = 0; i < 4; ++i) {
    q[i] = {std::trunc(box[i].x - xmin), std::trunc(box[i].y - ymin)};
  }
  double sum = 0;
  int64_t count = 0;
  for (int y = 0; y <= ymax - ymin; ++y) {
    double left = 1e30, right = -1e30;
    for (size_t i = 0; i < 4; ++i) {
      const PointF& a = q[i];
      const PointF& b = q[(i + 1) % 4];
      if ((y < a.y && y < b.y) || (y > a.y && y > b.y)) continue;
      if (a.y == b.y) {
        left = std::min({left, a.x, b.x}), right = std::max({right, a.x, b.x});
      } else {
        const double x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y);
        left = std::min(left, x), right = std::max(right, x);
      }
    }
    const int x0 = std::max(0, static_cast<int>(std::ceil(left - 1e-9)));
    const int x1 = std::min(xmax - xmin, static_cast<int>(std::floor(right + 1e-9)));
    for (int x = x0; x <= x1; ++x) {
      sum += prob[static_cast<size_t>(ymin + y) * width + xmin + x];
      ++count;
    }
  }
  return count > 0 ? static_cast<float>(sum / static_cast<double>(count)) : 0.f;
}

std::vector<DetectedBox> DbPostProcess(const float* prob, int width, int height, int image_width,
                                       int image_height, const DbOptions& options) {
  std::vector<uint8_t> mask(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = prob[i] > options.thresh;
  std::vector<Component> regions = FindComponents(mask, width, height);
  if (regions.size() > static_cast<size_t>(options.max_candidates)) {
    regions.resize(options.max_candidates);
  }

  std::vector<DetectedBox> boxes;
  for (const Component& region : regions) {
    const RotatedRect rect = MinAreaRect(region.extremes);
    if (rect.short_side() < options.min_size) continue;
    const Quad mini = OrderMiniBox(rect.Corners());
    const float score = BoxScoreFast(prob, width, height, mini);
    if (score < options.box_thresh) continue;
    const RotatedRect grown = UnclipRect(rect, options.unclip_ratio);
    if (grown.short_side() < options.min_size + 2) continue;
    Quad box = OrderMiniBox(grown.Corners());
    for (PointF& p : box) p = ToImage(p, width, height, image_width, image_height);

    // filter_tag_det_res.
    box = OrderClockwise(box);
    for (PointF& p : box) p = {ClipToPixel(p.x, image_width), ClipToPixel(p.y, image_height)};
    const int box_width = static_cast<int>(Distance(box[0], box[1]));
    const int box_height = static_cast<int>(Distance(box[0], box[3]));
    if (box_width <= 3 || box_height <= 3) continue;
    boxes.push_back({box, score});
  }
  return boxes;
}

}  // namespace ocr
