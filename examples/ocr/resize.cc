#include "resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ocr {
namespace {

constexpr int kCoefBits = 11;  // OpenCV's INTER_RESIZE_COEF_BITS
constexpr int kCoefScale = 1 << kCoefBits;

// For each destination index: the left source index and the fixed-point weight of the right.
void LinearTaps(int src_size, int dst_size, std::vector<int>* index, std::vector<int>* weight) {
  const double scale = static_cast<double>(src_size) / dst_size;
  index->resize(dst_size);
  weight->resize(dst_size);
  for (int d = 0; d < dst_size; ++d) {
    const double f = (d + 0.5) * scale - 0.5;
    int s = static_cast<int>(std::floor(f));
    double frac = f - s;
    if (s < 0) s = 0, frac = 0;
    if (s >= src_size - 1) s = src_size - 1, frac = 0;
    (*index)[d] = s;
    (*weight)[d] = static_cast<int>(std::lround(frac * kCoefScale));
  }
}

}  // namespace

Image ResizeLinear(const Image& src, int dst_width, int dst_height) {
  Image dst = Image::Blank(dst_width, dst_height);
  std::vector<int> xi, xw, yi, yw;
  LinearTaps(src.width, dst_width, &xi, &xw);
  LinearTaps(src.height, dst_height, &yi, &yw);
  // Horizontal pass into fixed-point rows, then the vertical blend of two rows.
  std::vector<int> row0(static_cast<size_t>(dst_width) * 3), row1(row0.size());
  auto horizontal = [&](int y, std::vector<int>* out) {
    for (int x = 0; x < dst_width; ++x) {
      const uint8_t* a = src.pixel(xi[x], y);
      const uint8_t* b = src.pixel(std::min(xi[x] + 1, src.width - 1), y);
      for (int c = 0; c < 3; ++c) (*out)[x * 3 + c] = a[c] * (kCoefScale - xw[x]) + b[c] * xw[x];
    }
  };
  for (int y = 0; y < dst_height; ++y) {
    horizontal(yi[y], &row0);
    horizontal(std::min(yi[y] + 1, src.height - 1), &row1);
    uint8_t* out = dst.pixel(0, y);
    constexpr int64_t kHalf = int64_t{1} << (2 * kCoefBits - 1);
    for (int i = 0; i < dst_width * 3; ++i) {
      const int64_t v = int64_t{row0[i]} * (kCoefScale - yw[y]) + int64_t{row1[i]} * yw[y];
      out[i] = static_cast<uint8_t>(std::clamp<int64_t>((v + kHalf) >> (2 * kCoefBits), 0, 255));
    }
  }
  return dst;
}

Image Rotate180(const Image& src) {
  Image dst = Image::Blank(src.width, src.height);
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      std::copy_n(src.pixel(x, y), 3, dst.pixel(src.width - 1 - x, src.height - 1 - y));
    }
  }
  return dst;
}

Image Rotate90CounterClockwise(const Image& src) {
  Image dst = Image::Blank(src.height, src.width);
  // Source (x, y) lands at column y, row (width - 1 - x).
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      std::copy_n(src.pixel(x, y), 3, dst.pixel(y, src.width - 1 - x));
    }
  }
  return dst;
}

}  // namespace ocr
