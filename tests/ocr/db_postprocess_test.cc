// DB post-processing on synthetic probability maps, with boxes worked out by hand.
#include "ocr/db_postprocess.h"

#include <gtest/gtest.h>

namespace ocr {
namespace {

struct ProbMap {
  int width, height;
  std::vector<float> p;
  ProbMap(int w, int h) : width(w), height(h), p(static_cast<size_t>(w) * h, 0.f) {}
  void Fill(int x0, int y0, int x1, int y1, float v) {  // inclusive
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) p[static_cast<size_t>(y) * width + x] = v;
  }
};

void ExpectBox(const Quad& q, std::array<std::array<double, 2>, 4> want) {
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(q[i].x, want[i][0]) << "corner " << i;
    EXPECT_EQ(q[i].y, want[i][1]) << "corner " << i;
  }
}

TEST(OcrDbPostProcess, OneRectangleIsUnclippedAndScaledToTheImage) {
  ProbMap m(64, 32);
  m.Fill(10, 8, 40, 15, 0.9f);
  // Pixel centres span 30 x 7; distance = 30 * 7 * 1.5 / 74 = 4.2568 per side, so the box
  // is x 5.743..44.257, y 3.743..19.257 on the map; x2 to the 128 x 64 image, rounded.
  const auto boxes = DbPostProcess(m.p.data(), m.width, m.height, 128, 64);
  ASSERT_EQ(boxes.size(), 1u);
  ExpectBox(boxes[0].box, {{{11, 7}, {89, 7}, {89, 39}, {11, 39}}});
  EXPECT_NEAR(boxes[0].score, 0.9f, 1e-6);
}

TEST(OcrDbPostProcess, WeakSmallAndThinRegionsAreDropped) {
  ProbMap m(64, 48);
  m.Fill(5, 5, 30, 12, 0.5f);    // above thresh 0.3 but its box scores under box_thresh 0.6
  m.Fill(40, 5, 41, 6, 0.95f);   // 1 x 1 between pixel centres: under min_size 3
  m.Fill(5, 20, 60, 21, 0.95f);  // 55 x 1: too thin
  m.Fill(5, 30, 50, 40, 0.95f);  // kept
  const auto boxes = DbPostProcess(m.p.data(), m.width, m.height, 64, 48);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_LT(boxes[0].box[0].y, 30);
  EXPECT_GT(boxes[0].box[2].y, 40);
}

TEST(OcrDbPostProcess, BoxesAreClippedToTheImage) {
  ProbMap m(32, 32);
  m.Fill(0, 0, 31, 10, 0.8f);  // touches three borders: the grown box leaves the map
  const auto boxes = DbPostProcess(m.p.data(), m.width, m.height, 32, 32);
  ASSERT_EQ(boxes.size(), 1u);
  for (const PointF& p : boxes[0].box) {
    EXPECT_GE(p.x, 0);
    EXPECT_LE(p.x, 31);
    EXPECT_GE(p.y, 0);
    EXPECT_LE(p.y, 31);
  }
  // 31 x 10 grows by 5.67 a side: y -5.67..15.67 rounds to 0..16, x clips to 0..31.
  ExpectBox(boxes[0].box, {{{0, 0}, {31, 0}, {31, 16}, {0, 16}}});
}

TEST(OcrDbPostProcess, BoxScoreFastAveragesInsideThePolygon) {
  ProbMap m(20, 10);
  m.Fill(0, 0, 9, 9, 1.0f);  // left half 1, right half 0
  const Quad whole = {{{0, 0}, {19, 0}, {19, 9}, {0, 9}}};
  EXPECT_NEAR(BoxScoreFast(m.p.data(), m.width, m.height, whole), 0.5f, 1e-6);
  const Quad left = {{{2, 2}, {7, 2}, {7, 7}, {2, 7}}};
  EXPECT_NEAR(BoxScoreFast(m.p.data(), m.width, m.height, left), 1.0f, 1e-6);
  // Inside the right half only: all zeros.
  const Quad right = {{{12, 1}, {18, 1}, {18, 8}, {12, 8}}};
  EXPECT_NEAR(BoxScoreFast(m.p.data(), m.width, m.height, right), 0.0f, 1e-6);
}

TEST(OcrDbPostProcess, EmptyMapHasNoBoxes) {
  ProbMap m(32, 32);
  EXPECT_TRUE(DbPostProcess(m.p.data(), m.width, m.height, 100, 100).empty());
}

}  // namespace
}  // namespace ocr
