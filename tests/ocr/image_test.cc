// Image decoding: PNG (through libpng) and binary PGM/PPM, and the errors for bad files.
#include "ocr/image.h"

#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace ocr {
namespace {

class OcrImage : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/trinity_ocr_image_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  // A PNG of `format` (libpng's PNG_FORMAT_*) holding `pixels`.
  std::string WritePng(const std::string& name, int w, int h, uint32_t format,
                       const std::vector<uint8_t>& pixels) {
    png_image img = {};
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = format;
    png_alloc_size_t size = 0;
    EXPECT_TRUE(png_image_write_to_memory(&img, nullptr, &size, 0, pixels.data(), 0, nullptr));
    std::string bytes(size, '\0');
    EXPECT_TRUE(png_image_write_to_memory(&img, bytes.data(), &size, 0, pixels.data(), 0, nullptr))
        << img.message;
    return Write(name, bytes);
  }

  std::string dir_;
};

TEST_F(OcrImage, RgbPngBecomesBgr) {
  // Two pixels: red, then (10, 20, 30).
  const std::string path = WritePng("rgb.png", 2, 1, PNG_FORMAT_RGB, {255, 0, 0, 10, 20, 30});
  auto img = LoadImage(path);
  ASSERT_TRUE(img.ok()) << img.status().ToString();
  EXPECT_EQ(img->width, 2);
  EXPECT_EQ(img->height, 1);
  EXPECT_EQ(img->bgr, (std::vector<uint8_t>{0, 0, 255, 30, 20, 10}));
}

TEST_F(OcrImage, GreyPngHasThreeEqualChannels) {
  auto img = LoadImage(WritePng("grey.png", 3, 1, PNG_FORMAT_GRAY, {0, 128, 255}));
  ASSERT_TRUE(img.ok()) << img.status().ToString();
  EXPECT_EQ(img->bgr, (std::vector<uint8_t>{0, 0, 0, 128, 128, 128, 255, 255, 255}));
}

TEST_F(OcrImage, TransparentPixelsBecomeWhite) {
  // Opaque black, then fully transparent black.
  auto img = LoadImage(WritePng("alpha.png", 2, 1, PNG_FORMAT_RGBA, {0, 0, 0, 255, 0, 0, 0, 0}));
  ASSERT_TRUE(img.ok()) << img.status().ToString();
  EXPECT_EQ(img->bgr, (std::vector<uint8_t>{0, 0, 0, 255, 255, 255}));
}

TEST_F(OcrImage, PpmAndPgm) {
  auto ppm = LoadImage(Write("a.ppm", std::string("P6\n# comment\n2 1\n255\n") +
                                          std::string("\xff\x00\x00\x01\x02\x03", 6)));
  ASSERT_TRUE(ppm.ok()) << ppm.status().ToString();
  EXPECT_EQ(ppm->bgr, (std::vector<uint8_t>{0, 0, 255, 3, 2, 1}));
  // 16-bit grey, maxval 1000: 500 -> 128 (rounded), 1000 -> 255.
  auto pgm =
      LoadImage(Write("a.pgm", std::string("P5 2 1 1000\n") + std::string("\x01\xf4\x03\xe8", 4)));
  ASSERT_TRUE(pgm.ok()) << pgm.status().ToString();
  EXPECT_EQ(pgm->bgr, (std::vector<uint8_t>{128, 128, 128, 255, 255, 255}));
}

void ExpectError(const trinity::Result<Image>& r, trinity::StatusCode code,
                 const std::string& needle) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().ToString();
}

TEST_F(OcrImage, MissingEmptyTruncatedAndUnsupportedFilesAreErrors) {
  ExpectError(LoadImage(dir_ + "/absent.png"), trinity::StatusCode::kNotFound, "absent.png");
  ExpectError(LoadImage(Write("empty.png", "")), trinity::StatusCode::kInvalidArgument, "empty");
  ExpectError(LoadImage(dir_), trinity::StatusCode::kInvalidArgument, "directory");
  // A valid PNG cut short inside its image data.
  const std::string full = [&] {
    std::ifstream f(
        WritePng("full.png", 64, 64, PNG_FORMAT_RGB, std::vector<uint8_t>(64 * 64 * 3, 7)),
        std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }();
  ExpectError(LoadImage(Write("cut.png", full.substr(0, full.size() - 30))),
              trinity::StatusCode::kInvalidArgument, "corrupt PNG");
  ExpectError(LoadImage(Write("sig.png", std::string("\x89PNG\r\n\x1a\n", 8) + "garbage")),
              trinity::StatusCode::kInvalidArgument, "corrupt PNG header");
  ExpectError(LoadImage(Write("photo.jpg", std::string("\xff\xd8\xff\xe0", 4) + "JFIF")),
              trinity::StatusCode::kInvalidArgument, "JPEG");
  ExpectError(LoadImage(Write("short.ppm", "P6 4 4 255\n\x01\x02")),
              trinity::StatusCode::kInvalidArgument, "truncated PNM");
  ExpectError(LoadImage(Write("huge.pgm", "P5 100000 100000 255\n")),
              trinity::StatusCode::kInvalidArgument, "100000x100000");
  ExpectError(LoadImage(Write("ascii.pgm", "P2 1 1 255\n0\n")),
              trinity::StatusCode::kInvalidArgument, "ASCII");
}

}  // namespace
}  // namespace ocr
