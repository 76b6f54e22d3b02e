#include "rec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "normalize.h"
#include "resize.h"

namespace ocr {
namespace {

constexpr int kHeight = 48, kMinWidth = 320, kBatch = 6;

double AspectRatio(const Image& img) { return static_cast<double>(img.width) / img.height; }

}  // namespace

int RecInputWidth(double max_wh_ratio) { return static_cast<int>(kHeight * max_wh_ratio); }

std::vector<float> RecInput(const Image& crop, double max_wh_ratio) {
  const int plane_width = RecInputWidth(max_wh_ratio);
  const int width = std::min(plane_width, static_cast<int>(std::ceil(kHeight * AspectRatio(crop))));
  std::vector<float> out(static_cast<size_t>(3) * kHeight * plane_width, 0.f);
  WriteNormalizedChw(ResizeLinear(crop, std::max(width, 1), kHeight), kSymmetricNormalization,
                     out.data(), plane_width, kHeight);
  return out;
}

trinity::Result<std::vector<Decoded>> TextRecognizer::Recognize(const std::vector<Image>& crops) {
  std::vector<size_t> order(crops.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return AspectRatio(crops[a]) < AspectRatio(crops[b]);
  });
  std::vector<Decoded> result(crops.size());
  for (size_t begin = 0; begin < order.size(); begin += kBatch) {
    const size_t n = std::min<size_t>(kBatch, order.size() - begin);
    double max_ratio = static_cast<double>(kMinWidth) / kHeight;
    for (size_t i = 0; i < n; ++i)
      max_ratio = std::max(max_ratio, AspectRatio(crops[order[begin + i]]));
    const int width = RecInputWidth(max_ratio);
    auto input =
        trinity::Tensor::Create(trinity::DType::kF32, {static_cast<int64_t>(n), 3, kHeight, width});
    if (!input.ok()) return input.status();
    for (size_t i = 0; i < n; ++i) {
      const std::vector<float> one = RecInput(crops[order[begin + i]], max_ratio);
      std::memcpy(input->data<float>() + i * one.size(), one.data(), one.size() * sizeof(float));
    }
    auto probs = model_.Run(*input);
    if (!probs.ok()) return probs.status();
    if (probs->dtype() != trinity::DType::kF32 || probs->rank() != 3 ||
        probs->dim(0) != static_cast<int64_t>(n)) {
      return trinity::Status::RuntimeError(model_.path() + ": expected f32[" + std::to_string(n) +
                                           ",steps,classes] scores, got " + probs->Describe());
    }
    if (probs->dim(2) != static_cast<int64_t>(charset_.size())) {
      return trinity::Status::InvalidArgument(
          model_.path() + " scores " + std::to_string(probs->dim(2)) +
          " classes but the keys file gives " + std::to_string(charset_.size()) +
          " (blank + keys + space): model and keys file do not belong together");
    }
    const int steps = static_cast<int>(probs->dim(1)), classes = static_cast<int>(probs->dim(2));
    for (size_t i = 0; i < n; ++i) {
      const float* p = probs->data<float>() + i * static_cast<size_t>(steps) * classes;
      result[order[begin + i]] = CtcGreedyDecode(p, steps, classes, charset_);
    }
  }
  return result;
}

}  // namespace ocr
