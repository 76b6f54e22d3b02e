// Plane geometry for text boxes: convex hull, minimum-area rectangle (what cv2.minAreaRect
// computes), the DB "unclip" of a rectangle, and PaddleOCR's two corner orderings.
#pragma once

#include <array>
#include <vector>

namespace ocr {

struct PointF {
  double x = 0;
  double y = 0;
};

// Four corners of a text box. After OrderClockwise: top-left, top-right, bottom-right,
// bottom-left (in image coordinates, y pointing down).
using Quad = std::array<PointF, 4>;

struct RotatedRect {
  PointF center;
  double width = 0;      // extent along `axis`
  double height = 0;     // extent perpendicular to it
  PointF axis = {1, 0};  // unit vector of the width side

  double short_side() const { return width < height ? width : height; }
  // The corners, in no particular order (callers order them as they need).
  Quad Corners() const;
};

// Convex hull of `points` (Andrew's monotone chain), counter-clockwise in a y-up frame, with
// collinear points dropped. Fewer than 3 distinct points come back as they are, deduplicated.
std::vector<PointF> ConvexHull(std::vector<PointF> points);

// The smallest-area rectangle enclosing `points`. One side of that rectangle lies on an edge
// of the convex hull (Freeman and Shapira), so trying each hull edge as the rectangle's axis
// (the rotating-calipers candidates) finds it. One point: a 0x0 rectangle; collinear points:
// height 0.
RotatedRect MinAreaRect(const std::vector<PointF>& points);

// DB's unclip of a rectangle: PaddleOCR offsets the box polygon outward by
// distance = area * ratio / perimeter with round joins (pyclipper). For a rectangle the
// minimum-area rectangle of that rounded shape is the rectangle grown by `distance` on every
// side, which is all the pipeline keeps, so it is computed exactly instead.
RotatedRect UnclipRect(const RotatedRect& rect, double ratio);

// PaddleOCR's get_mini_boxes order: corners sorted by x; of the two leftmost, the upper one
// first and the lower one last; of the two rightmost, the upper one second.
Quad OrderMiniBox(const Quad& corners);

// PaddleOCR's order_points_clockwise: the corner with the smallest x + y first, the largest
// x + y third; of the other two, the one with the smallest y - x second.
Quad OrderClockwise(const Quad& q);

}  // namespace ocr
