// Model input geometry and normalisation of the detector, classifier and recogniser.
#include <gtest/gtest.h>

#include "ocr/cls.h"
#include "ocr/det.h"
#include "ocr/normalize.h"
#include "ocr/rec.h"

namespace ocr {
namespace {

TEST(OcrModelInput, DetSizeRoundsToMultiplesOf32HalvesToEven) {
  auto size = [](int w, int h) {
    const DetSize s = DetInputSize(w, h);
    return std::make_pair(s.width, s.height);
  };
  EXPECT_EQ(size(100, 50), std::make_pair(96, 64));       // 3.125 -> 3, 1.5625 -> 2
  EXPECT_EQ(size(48, 80), std::make_pair(64, 64));        // 1.5 -> 2 and 2.5 -> 2 (Python round)
  EXPECT_EQ(size(16, 10), std::make_pair(32, 32));        // at least 32
  EXPECT_EQ(size(2000, 1000), std::make_pair(960, 480));  // longer side limited to 960
  EXPECT_EQ(size(700, 1920), std::make_pair(352, 960));   // 350 -> 10.9375 -> 11 * 32
}

TEST(OcrModelInput, NormalizationUsesChannelOrderAsStored) {
  Image img = Image::Blank(1, 1);
  img.pixel(0, 0)[0] = 255;  // blue
  std::vector<float> out(3, -9.f);
  WriteNormalizedChw(img, kImageNetNormalization, out.data(), 1, 1);
  // PaddleOCR applies mean[0]/std[0] to channel 0, which is blue in cv2's BGR images.
  EXPECT_NEAR(out[0], (1 - 0.485f) / 0.229f, 1e-5);
  EXPECT_NEAR(out[1], (0 - 0.456f) / 0.224f, 1e-5);
  EXPECT_NEAR(out[2], (0 - 0.406f) / 0.225f, 1e-5);
}

TEST(OcrModelInput, RecKeepsAspectRatioAndPadsWithZeros) {
  // A white 100 x 40 crop: 48 * 2.5 = 120 columns of 1.0, then zeros up to 320.
  const Image crop = Image::Blank(100, 40, 255);
  const double ratio = 320.0 / 48;
  ASSERT_EQ(RecInputWidth(ratio), 320);
  const std::vector<float> in = RecInput(crop, ratio);
  ASSERT_EQ(in.size(), 3u * 48 * 320);
  for (int c = 0; c < 3; ++c) {
    const float* row = in.data() + c * 48 * 320 + 47 * 320;  // last row of each plane
    EXPECT_EQ(row[0], 1.f);
    EXPECT_EQ(row[119], 1.f);
    EXPECT_EQ(row[120], 0.f);
    EXPECT_EQ(row[319], 0.f);
  }
  // A crop wider than the batch's ratio fills the width exactly; black maps to -1.
  const std::vector<float> wide = RecInput(Image::Blank(500, 20, 0), 500.0 / 20);
  ASSERT_EQ(wide.size(), 3u * 48 * 1200);
  EXPECT_EQ(wide[1199], -1.f);
}

TEST(OcrModelInput, ClsWidthIsCappedAt192) {
  const std::vector<float> in = ClsInput(Image::Blank(1000, 20, 255));
  ASSERT_EQ(in.size(), 3u * 48 * 192);
  EXPECT_EQ(in[191], 1.f);
  const std::vector<float> narrow = ClsInput(Image::Blank(20, 20, 255));
  EXPECT_EQ(narrow[47], 1.f);
  EXPECT_EQ(narrow[48], 0.f);
}

}  // namespace
}  // namespace ocr
