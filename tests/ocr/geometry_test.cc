// Convex hull, minimum-area rectangle, unclip and the two corner orderings.
#include "ocr/geometry.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ocr {
namespace {

// Sides sorted, so a rectangle's orientation (which side is "width") does not matter.
void ExpectSides(const RotatedRect& r, double a, double b) {
  EXPECT_NEAR(std::min(r.width, r.height), std::min(a, b), 1e-9);
  EXPECT_NEAR(std::max(r.width, r.height), std::max(a, b), 1e-9);
}

void ExpectPoint(const PointF& p, double x, double y) {
  EXPECT_NEAR(p.x, x, 1e-9) << "expected (" << x << ", " << y << ")";
  EXPECT_NEAR(p.y, y, 1e-9) << "expected (" << x << ", " << y << ")";
}

TEST(OcrGeometry, HullDropsInteriorDuplicateAndCollinearPoints) {
  const auto hull =
      ConvexHull({{0, 0}, {2, 0}, {4, 0}, {4, 3}, {0, 3}, {1, 1}, {2, 2}, {4, 3}, {0, 1}});
  ASSERT_EQ(hull.size(), 4u);
  double area = 0;  // shoelace: positive for the counter-clockwise (y-up) orientation
  for (size_t i = 0; i < hull.size(); ++i) {
    const PointF& a = hull[i];
    const PointF& b = hull[(i + 1) % hull.size()];
    area += a.x * b.y - b.x * a.y;
  }
  EXPECT_NEAR(area / 2, 12.0, 1e-9);
}

TEST(OcrGeometry, MinAreaRectOfAxisAlignedPixels) {
  std::vector<PointF> pts;
  for (int y = 5; y <= 9; ++y)
    for (int x = 10; x <= 30; ++x) pts.push_back({double(x), double(y)});
  const RotatedRect r = MinAreaRect(pts);
  ExpectSides(r, 20, 4);  // pixel centres: 30 - 10 by 9 - 5
  ExpectPoint(r.center, 20, 7);
}

TEST(OcrGeometry, MinAreaRectOfRotatedRectangle) {
  // A 10 x 4 rectangle turned by 30 degrees, with points on its sides and inside.
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  std::vector<PointF> pts;
  for (double u = -5; u <= 5; u += 0.5)
    for (double v = -2; v <= 2; v += 0.5) pts.push_back({50 + u * c - v * s, 40 + u * s + v * c});
  const RotatedRect r = MinAreaRect(pts);
  ExpectSides(r, 10, 4);
  ExpectPoint(r.center, 50, 40);
  // The long side runs along 30 degrees (either direction).
  const PointF axis = r.width > r.height ? r.axis : PointF{r.axis.y, -r.axis.x};
  EXPECT_NEAR(std::fabs(axis.x * c + axis.y * s), 1.0, 1e-9);
}

TEST(OcrGeometry, MinAreaRectDegenerateInputs) {
  const RotatedRect one = MinAreaRect({{3, 4}, {3, 4}});
  ExpectSides(one, 0, 0);
  ExpectPoint(one.center, 3, 4);
  const RotatedRect line = MinAreaRect({{0, 0}, {3, 4}, {6, 8}});
  ExpectSides(line, 10, 0);
  ExpectPoint(line.center, 3, 4);
  EXPECT_EQ(MinAreaRect({}).short_side(), 0);
}

TEST(OcrGeometry, UnclipGrowsEverySideByAreaTimesRatioOverPerimeter) {
  RotatedRect r;
  r.center = {10, 10};
  r.width = 10;
  r.height = 2;
  // distance = 20 * 1.5 / 24 = 1.25 on each side.
  const RotatedRect g = UnclipRect(r, 1.5);
  EXPECT_DOUBLE_EQ(g.width, 12.5);
  EXPECT_DOUBLE_EQ(g.height, 4.5);
  ExpectPoint(g.center, 10, 10);
  EXPECT_DOUBLE_EQ(UnclipRect(RotatedRect{}, 1.5).width, 0);  // no division by zero
}

TEST(OcrGeometry, CornersOfRotatedRect) {
  RotatedRect r;
  r.center = {5, 5};
  r.width = 4;
  r.height = 2;
  r.axis = {0, 1};  // width runs down
  const Quad q = OrderClockwise(r.Corners());
  ExpectPoint(q[0], 4, 3);
  ExpectPoint(q[1], 6, 3);
  ExpectPoint(q[2], 6, 7);
  ExpectPoint(q[3], 4, 7);
}

TEST(OcrGeometry, OrderMiniBoxAndOrderClockwiseFromAnyStart) {
  const Quad shuffled = {{{30, 5}, {10, 15}, {10, 5}, {30, 15}}};
  for (const Quad& q : {OrderMiniBox(shuffled), OrderClockwise(shuffled)}) {
    ExpectPoint(q[0], 10, 5);
    ExpectPoint(q[1], 30, 5);
    ExpectPoint(q[2], 30, 15);
    ExpectPoint(q[3], 10, 15);
  }
  // A slanted box: corners go top-left, top-right, bottom-right, bottom-left.
  const Quad slanted = {{{12, 20}, {2, 10}, {20, 4}, {30, 14}}};
  const Quad mini = OrderMiniBox(slanted);
  ExpectPoint(mini[0], 2, 10);
  ExpectPoint(mini[1], 20, 4);
  ExpectPoint(mini[2], 30, 14);
  ExpectPoint(mini[3], 12, 20);
  const Quad cw = OrderClockwise(slanted);
  ExpectPoint(cw[0], 2, 10);
  ExpectPoint(cw[1], 20, 4);
  ExpectPoint(cw[2], 30, 14);
  ExpectPoint(cw[3], 12, 20);
}

}  // namespace
}  // namespace ocr
