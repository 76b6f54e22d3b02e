// Reading order of boxes, perspective maps and text-line crops.
#include "ocr/crop.h"

#include <gtest/gtest.h>

#include "ocr/perspective.h"

namespace ocr {
namespace {

DetectedBox BoxAt(double x, double y, double w = 20, double h = 8) {
  return {{{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}}, 1.f};
}

// Each pixel's channels encode its coordinates: (x, y, x + y).
Image CoordinateImage(int w, int h) {
  Image img = Image::Blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      img.pixel(x, y)[0] = static_cast<uint8_t>(x);
      img.pixel(x, y)[1] = static_cast<uint8_t>(y);
      img.pixel(x, y)[2] = static_cast<uint8_t>(x + y);
    }
  return img;
}

TEST(OcrCrop, SortBoxesTopToBottomThenLeftToRightWithinTenPixels) {
  // Same line (top-left y within 10 px): by x. Lines 30 px apart: by y.
  std::vector<DetectedBox> boxes = {BoxAt(100, 42), BoxAt(5, 40), BoxAt(50, 5), BoxAt(60, 38),
                                    BoxAt(10, 9)};
  SortBoxes(&boxes);
  const std::vector<std::pair<double, double>> want = {
      {10, 9}, {50, 5}, {5, 40}, {60, 38}, {100, 42}};
  ASSERT_EQ(boxes.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(boxes[i].box[0].x, want[i].first) << i;
    EXPECT_EQ(boxes[i].box[0].y, want[i].second) << i;
  }
}

TEST(OcrCrop, PerspectiveTransformMapsCornersAndRejectsCollinearPoints) {
  const Quad from = {{{0, 0}, {10, 0}, {10, 5}, {0, 5}}};
  const Quad to = {{{3, 1}, {20, 4}, {18, 15}, {1, 9}}};
  const auto h = PerspectiveTransform(from, to);
  ASSERT_TRUE(h.has_value());
  for (size_t i = 0; i < 4; ++i) {
    const PointF p = Apply(*h, from[i]);
    EXPECT_NEAR(p.x, to[i].x, 1e-9);
    EXPECT_NEAR(p.y, to[i].y, 1e-9);
  }
  const Quad line = {{{0, 0}, {1, 1}, {2, 2}, {3, 3}}};
  EXPECT_FALSE(PerspectiveTransform(line, to).has_value());
}

TEST(OcrCrop, AxisAlignedBoxCopiesPixelsExactly) {
  const Image img = CoordinateImage(64, 32);
  auto crop = CropTextLine(img, BoxAt(10, 4, 30, 12).box);
  ASSERT_TRUE(crop.ok()) << crop.status().ToString();
  ASSERT_EQ(crop->width, 30);
  ASSERT_EQ(crop->height, 12);
  for (int y = 0; y < crop->height; ++y)
    for (int x = 0; x < crop->width; ++x) {
      ASSERT_EQ(crop->pixel(x, y)[0], 10 + x) << x << "," << y;
      ASSERT_EQ(crop->pixel(x, y)[1], 4 + y) << x << "," << y;
    }
}

TEST(OcrCrop, SizeIsTheLongerOppositeSideTruncated) {
  const Image img = CoordinateImage(64, 64);
  // Top side 20, bottom side hypot(22, 1) = 22.02; left hypot(1, 10) = 10.05, right hypot(1, 11)
  // = 11.05.
  const Quad box = {{{10, 10}, {30, 10}, {31, 21}, {9, 20}}};
  auto crop = CropTextLine(img, box);
  ASSERT_TRUE(crop.ok()) << crop.status().ToString();
  EXPECT_EQ(crop->width, 22);
  EXPECT_EQ(crop->height, 11);
}

TEST(OcrCrop, TallBoxIsTurnedCounterClockwise) {
  const Image img = CoordinateImage(64, 64);
  auto crop = CropTextLine(img, BoxAt(5, 2, 10, 30).box);  // 10 wide, 30 tall
  ASSERT_TRUE(crop.ok()) << crop.status().ToString();
  ASSERT_EQ(crop->width, 30);
  ASSERT_EQ(crop->height, 10);
  // After a counter-clockwise quarter turn, the box's top-right pixel is the top-left one.
  EXPECT_EQ(crop->pixel(0, 0)[0], 14);
  EXPECT_EQ(crop->pixel(0, 0)[1], 2);
  EXPECT_EQ(crop->pixel(29, 9)[0], 5);
  EXPECT_EQ(crop->pixel(29, 9)[1], 31);
}

TEST(OcrCrop, DegenerateBoxIsAnError) {
  const Image img = CoordinateImage(16, 16);
  const Quad flat = {{{2, 2}, {10, 2}, {10, 2}, {2, 2}}};
  auto crop = CropTextLine(img, flat);
  ASSERT_FALSE(crop.ok());
  EXPECT_NE(crop.status().message().find("degenerate"), std::string::npos);
}

}  // namespace
}  // namespace ocr
