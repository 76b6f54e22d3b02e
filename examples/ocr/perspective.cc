#include "perspective.h"

#include <algorithm>
#include <cmath>

namespace ocr {

std::optional<Homography> PerspectiveTransform(const Quad& from, const Quad& to) {
  // Two linear equations per correspondence in the eight unknowns H0..H7.
  double a[8][9] = {};
  for (int i = 0; i < 4; ++i) {
    const double x = from[i].x, y = from[i].y, u = to[i].x, v = to[i].y;
    const double r0[9] = {x, y, 1, 0, 0, 0, -u * x, -u * y, u};
    const double r1[9] = {0, 0, 0, x, y, 1, -v * x, -v * y, v};
    std::copy(r0, r0 + 9, a[2 * i]);
    std::copy(r1, r1 + 9, a[2 * i + 1]);
  }
  // Gaussian elimination with partial pivoting.
  for (int col = 0; col < 8; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 8; ++r) {
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    }
    if (std::fabs(a[pivot][col]) < 1e-12) return std::nullopt;
    std::swap(a[col], a[pivot]);
    for (int r = 0; r < 8; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int c = col; c < 9; ++c) a[r][c] -= f * a[col][c];
    }
  }
  Homography h;
  for (int i = 0; i < 8; ++i) h[i] = a[i][8] / a[i][i];
  h[8] = 1;
  return h;
}

PointF Apply(const Homography& h, const PointF& p) {
  const double w = h[6] * p.x + h[7] * p.y + h[8];
  return {(h[0] * p.x + h[1] * p.y + h[2]) / w, (h[3] * p.x + h[4] * p.y + h[5]) / w};
}

namespace {

constexpr int kTabBits = 5;  // OpenCV's INTER_BITS: sub-pixel positions in 1/32 steps
constexpr int kTabSize = 1 << kTabBits;

void CubicWeights(double t, double w[4]) {
  constexpr double A = -0.75;
  w[0] = ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A;
  w[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  w[2] = ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1;
  w[3] = 1 - w[0] - w[1] - w[2];
}

}  // namespace

Image WarpPerspectiveCubic(const Image& src, const Homography& m, int width, int height) {
  Image dst = Image::Blank(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      double w = m[6] * x + m[7] * y + m[8];
      w = w != 0 ? kTabSize / w : 0;
      const double fx = std::clamp((m[0] * x + m[1] * y + m[2]) * w, -1e9, 1e9);
      const double fy = std::clamp((m[3] * x + m[4] * y + m[5]) * w, -1e9, 1e9);
      const long qx = std::lrint(fx), qy = std::lrint(fy);
      const long ix = qx >> kTabBits, iy = qy >> kTabBits;  // floor
      double wx[4], wy[4];
      CubicWeights(static_cast<double>(qx & (kTabSize - 1)) / kTabSize, wx);
      CubicWeights(static_cast<double>(qy & (kTabSize - 1)) / kTabSize, wy);
      double acc[3] = {0, 0, 0};
      for (int j = 0; j < 4; ++j) {
        const int sy = static_cast<int>(std::clamp<long>(iy - 1 + j, 0, src.height - 1));
        for (int i = 0; i < 4; ++i) {
          const int sx = static_cast<int>(std::clamp<long>(ix - 1 + i, 0, src.width - 1));
          const uint8_t* p = src.pixel(sx, sy);
          for (int c = 0; c < 3; ++c) acc[c] += wx[i] * wy[j] * p[c];
        }
      }
      uint8_t* out = dst.pixel(x, y);
      for (int c = 0; c < 3; ++c) {
        out[c] = static_cast<uint8_t>(std::clamp<long>(std::lround(acc[c]), 0, 255));
      }
    }
  }
  return dst;
}

}  // namespace ocr
