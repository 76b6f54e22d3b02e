#include "components.h"

#include <algorithm>
#include <limits>

namespace ocr {

std::vector<Component> FindComponents(const std::vector<uint8_t>& mask, int width, int height) {
  std::vector<Component> out;
  std::vector<uint8_t> seen(mask.size(), 0);
  std::vector<int> stack;
  std::vector<int> row_min, row_max;  // per row of the current region, relative to its first row
  for (int start = 0; start < width * height; ++start) {
    if (!mask[start] || seen[start]) continue;
    // Flood fill from `start`; regions only grow downwards from their first raster pixel.
    const int y0 = start / width;
    row_min.assign(1, std::numeric_limits<int>::max());
    row_max.assign(1, -1);
    Component c;
    seen[start] = 1;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      const int x = p % width, y = p / width;
      ++c.pixels;
      const size_t r = static_cast<size_t>(y - y0);
      if (r >= row_min.size()) {
        row_min.resize(r + 1, std::numeric_limits<int>::max());
        row_max.resize(r + 1, -1);
      }
      row_min[r] = std::min(row_min[r], x);
      row_max[r] = std::max(row_max[r], x);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const int q = ny * width + nx;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack.push_back(q);
          }
        }
      }
    }
    for (size_t r = 0; r < row_min.size(); ++r) {
      if (row_max[r] < 0) continue;
      const double y = static_cast<double>(y0 + r);
      c.extremes.push_back({static_cast<double>(row_min[r]), y});
      if (row_max[r] != row_min[r]) c.extremes.push_back({static_cast<double>(row_max[r]), y});
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ocr
