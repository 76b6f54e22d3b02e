// Connected regions of a binary map, as the DB text detector's post-processing needs them.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry.h"

namespace ocr {

struct Component {
  int64_t pixels = 0;  // number of pixels in the region
  // The leftmost and rightmost pixel of the region in each of its rows (pixel centres at
  // integer coordinates). Every vertex of the region's convex hull is among them, so these
  // points give the same minimum-area rectangle as the region's outer contour does.
  std::vector<PointF> extremes;
};

// 8-connected regions of non-zero cells of a width x height row-major map, in the order of
// their first pixel in a raster scan. 8-connectivity matches the borders OpenCV's
// findContours follows.
std::vector<Component> FindComponents(const std::vector<uint8_t>& mask, int width, int height);

}  // namespace ocr
