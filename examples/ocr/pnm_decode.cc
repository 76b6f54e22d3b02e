// Binary PGM (P5) and PPM (P6) decoding: a text header (magic, width, height, maxval, with
// '#' comments) followed by raw samples, one or two bytes each (big-endian when maxval > 255).
#include <cctype>

#include "image.h"

namespace ocr {
namespace {

// Reads the next unsigned decimal header field, skipping whitespace and comments.
bool NextField(const uint8_t* data, size_t size, size_t* pos, int64_t* value) {
  while (*pos < size) {
    if (data[*pos] == '#') {
      while (*pos < size && data[*pos] != '\n') ++*pos;
    } else if (std::isspace(data[*pos])) {
      ++*pos;
    } else {
      break;
    }
  }
  if (*pos >= size || !std::isdigit(data[*pos])) return false;
  *value = 0;
  while (*pos < size && std::isdigit(data[*pos])) {
    *value = *value * 10 + (data[*pos] - '0');
    if (*value > (int64_t{1} << 31)) return false;
    ++*pos;
  }
  return true;
}

}  // namespace

trinity::Result<Image> DecodePnm(const uint8_t* data, size_t size, const std::string& what) {
  if (size < 2 || data[0] != 'P' || (data[1] != '5' && data[1] != '6')) {
    return trinity::Status::InvalidArgument(what + ": not a binary PGM (P5) or PPM (P6) file");
  }
  const int channels = data[1] == '6' ? 3 : 1;
  size_t pos = 2;
  int64_t width = 0, height = 0, maxval = 0;
  if (!NextField(data, size, &pos, &width) || !NextField(data, size, &pos, &height) ||
      !NextField(data, size, &pos, &maxval) || pos >= size || !std::isspace(data[pos])) {
    return trinity::Status::InvalidArgument(what + ": corrupt PNM header (expected width, " +
                                            "height and maxval)");
  }
  ++pos;  // the single whitespace byte before the samples
  if (width <= 0 || height <= 0 || width * height > kMaxImagePixels) {
    return trinity::Status::InvalidArgument(
        what + ": PNM is " + std::to_string(width) + "x" + std::to_string(height) +
        "; images must have between 1 and " + std::to_string(kMaxImagePixels) + " pixels");
  }
  if (maxval < 1 || maxval > 65535) {
    return trinity::Status::InvalidArgument(what + ": PNM maxval " + std::to_string(maxval) +
                                            " is outside 1..65535");
  }
  const int bytes_per_sample = maxval > 255 ? 2 : 1;
  const size_t samples = static_cast<size_t>(width * height * channels);
  if (size - pos < samples * bytes_per_sample) {
    return trinity::Status::InvalidArgument(
        what + ": truncated PNM: " + std::to_string(samples * bytes_per_sample) +
        " bytes of samples expected, " + std::to_string(size - pos) + " present");
  }
  Image img = Image::Blank(static_cast<int>(width), static_cast<int>(height));
  const uint8_t* s = data + pos;
  for (size_t p = 0; p < static_cast<size_t>(width * height); ++p) {
    uint8_t rgb[3];
    for (int c = 0; c < channels; ++c) {
      const size_t i = (p * channels + c) * bytes_per_sample;
      const int64_t v = bytes_per_sample == 2 ? (s[i] << 8 | s[i + 1]) : s[i];
      rgb[c] = static_cast<uint8_t>((v * 255 + maxval / 2) / maxval);  // rescale to 0..255
    }
    if (channels == 1) rgb[1] = rgb[2] = rgb[0];
    img.bgr[p * 3 + 0] = rgb[2];
    img.bgr[p * 3 + 1] = rgb[1];
    img.bgr[p * 3 + 2] = rgb[0];
  }
  return img;
}

}  // namespace ocr
