// Images for the OCR pipeline: 8-bit, 3 channels, blue-green-red order (as OpenCV's imread
// gives them, which is what PaddleOCR's models were trained on), rows top to bottom.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trinity/status.h"

namespace ocr {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> bgr;  // width * height * 3 bytes

  static Image Blank(int width, int height, uint8_t value = 0) {
    return {width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height * 3, value)};
  }
  uint8_t* pixel(int x, int y) { return &bgr[(static_cast<size_t>(y) * width + x) * 3]; }
  const uint8_t* pixel(int x, int y) const {
    return &bgr[(static_cast<size_t>(y) * width + x) * 3];
  }
};

// Larger images are refused instead of allocated: a forged header cannot exhaust memory.
constexpr int64_t kMaxImagePixels = 100'000'000;

// Reads a PNG, or a binary PPM (P6) / PGM (P5) file, chosen by the file's first bytes. Grey
// images become three equal channels; transparent pixels are composited onto white. Errors
// (InvalidArgument / NotFound) name the file and what is wrong with it.
trinity::Result<Image> LoadImage(const std::string& path);

// Decoders of bytes held in memory; `what` names the source in error messages.
trinity::Result<Image> DecodePng(const uint8_t* data, size_t size, const std::string& what);
trinity::Result<Image> DecodePnm(const uint8_t* data, size_t size, const std::string& what);

}  // namespace ocr
