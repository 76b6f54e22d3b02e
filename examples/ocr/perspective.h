// Perspective (homography) maps and warping, as cv2.getPerspectiveTransform and
// cv2.warpPerspective(..., INTER_CUBIC, BORDER_REPLICATE) do them.
#pragma once

#include <array>
#include <optional>

#include "geometry.h"
#include "image.h"

namespace ocr {

// Row-major 3x3 matrix H with H[8] = 1: (x, y) maps to
// ((H0 x + H1 y + H2) / w, (H3 x + H4 y + H5) / w) with w = H6 x + H7 y + 1.
using Homography = std::array<double, 9>;

// The homography taking from[i] to to[i]; nullopt when three points are collinear.
std::optional<Homography> PerspectiveTransform(const Quad& from, const Quad& to);

PointF Apply(const Homography& h, const PointF& p);

// A width x height image whose pixel (x, y) is `src` sampled at Apply(dst_to_src, (x, y)):
// bicubic (a = -0.75, sub-pixel positions in 1/32 steps, as OpenCV), coordinates outside
// `src` clamped to its edge.
Image WarpPerspectiveCubic(const Image& src, const Homography& dst_to_src, int width, int height);

}  // namespace ocr
