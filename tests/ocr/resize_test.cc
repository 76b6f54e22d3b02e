// Linear resizing (OpenCV INTER_LINEAR semantics) and right-angle rotations.
#include "ocr/resize.h"

#include <gtest/gtest.h>

namespace ocr {
namespace {

// A one-channel-looking image: every channel holds the same value.
Image Grey(int w, int h, const std::vector<uint8_t>& values) {
  Image img = Image::Blank(w, h);
  for (size_t i = 0; i < values.size(); ++i)
    for (int c = 0; c < 3; ++c) img.bgr[i * 3 + c] = values[i];
  return img;
}

std::vector<uint8_t> Channel0(const Image& img) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i < img.bgr.size(); i += 3) v.push_back(img.bgr[i]);
  return v;
}

TEST(OcrResize, UpscaleMatchesOpenCv) {
  // cv2.resize(np.array([[0, 255]], np.uint8), (4, 1)) == [[0, 64, 191, 255]].
  EXPECT_EQ(Channel0(ResizeLinear(Grey(2, 1, {0, 255}), 4, 1)),
            (std::vector<uint8_t>{0, 64, 191, 255}));
}

TEST(OcrResize, HalvingAveragesPairs) {
  EXPECT_EQ(Channel0(ResizeLinear(Grey(4, 2, {0, 100, 200, 50, 10, 110, 210, 60}), 2, 1)),
            (std::vector<uint8_t>{55, 130}));
}

TEST(OcrResize, SameSizeIsACopy) {
  const Image img = Grey(3, 2, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(ResizeLinear(img, 3, 2).bgr, img.bgr);
}

TEST(OcrResize, Rotations) {
  const Image img = Grey(3, 2, {1, 2, 3, 4, 5, 6});  // rows: 1 2 3 / 4 5 6
  EXPECT_EQ(Channel0(Rotate180(img)), (std::vector<uint8_t>{6, 5, 4, 3, 2, 1}));
  const Image ccw = Rotate90CounterClockwise(img);  // np.rot90: rows 3 6 / 2 5 / 1 4
  EXPECT_EQ(ccw.width, 2);
  EXPECT_EQ(ccw.height, 3);
  EXPECT_EQ(Channel0(ccw), (std::vector<uint8_t>{3, 6, 2, 5, 1, 4}));
}

}  // namespace
}  // namespace ocr
