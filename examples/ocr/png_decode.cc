// PNG decoding through libpng's simplified API, which already handles every colour type, bit
// depth, palette and transparency; we only ask for 8-bit BGR composited onto white.
#include <png.h>

#include <cstring>

#include "image.h"

namespace ocr {

trinity::Result<Image> DecodePng(const uint8_t* data, size_t size, const std::string& what) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, data, size)) {
    return trinity::Status::InvalidArgument(what + ": corrupt PNG header: " + png.message);
  }
  const int64_t pixels = static_cast<int64_t>(png.width) * png.height;
  if (png.width == 0 || png.height == 0 || pixels > kMaxImagePixels) {
    png_image_free(&png);
    return trinity::Status::InvalidArgument(
        what + ": PNG is " + std::to_string(png.width) + "x" + std::to_string(png.height) +
        "; images must have between 1 and " + std::to_string(kMaxImagePixels) + " pixels");
  }
  png.format = PNG_FORMAT_BGR;
  Image img = Image::Blank(static_cast<int>(png.width), static_cast<int>(png.height));
  // Transparent pixels are composed onto white: text is usually dark on a light page, and
  // black (what dropping alpha would leave) would hide it.
  const png_color white = {255, 255, 255};
  if (!png_image_finish_read(&png, &white, img.bgr.data(), 0, nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    return trinity::Status::InvalidArgument(what + ": corrupt PNG data: " + message);
  }
  return img;
}

}  // namespace ocr
