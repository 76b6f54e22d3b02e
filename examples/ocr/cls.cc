#include "cls.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "normalize.h"
#include "resize.h"

namespace ocr {
namespace {

constexpr int kHeight = 48, kWidth = 192, kBatch = 6;

}  // namespace

std::vector<float> ClsInput(const Image& crop) {
  const double ratio = static_cast<double>(crop.width) / crop.height;
  const int width = std::min(kWidth, static_cast<int>(std::ceil(kHeight * ratio)));
  std::vector<float> out(3 * kHeight * kWidth, 0.f);
  WriteNormalizedChw(ResizeLinear(crop, std::max(width, 1), kHeight), kSymmetricNormalization,
                     out.data(), kWidth, kHeight);
  return out;
}

trinity::Result<std::vector<Direction>> DirectionClassifier::Apply(std::vector<Image>* crops,
                                                                   float threshold) {
  std::vector<Direction> result;
  for (size_t begin = 0; begin < crops->size(); begin += kBatch) {
    const size_t n = std::min<size_t>(kBatch, crops->size() - begin);
    auto input = trinity::Tensor::Create(trinity::DType::kF32,
                                         {static_cast<int64_t>(n), 3, kHeight, kWidth});
    if (!input.ok()) return input.status();
    for (size_t i = 0; i < n; ++i) {
      const std::vector<float> one = ClsInput((*crops)[begin + i]);
      std::memcpy(input->data<float>() + i * one.size(), one.data(), one.size() * sizeof(float));
    }
    auto probs = model_.Run(*input);
    if (!probs.ok()) return probs.status();
    if (probs->dtype() != trinity::DType::kF32 || probs->rank() != 2 ||
        probs->dim(0) != static_cast<int64_t>(n) || probs->dim(1) != 2) {
      return trinity::Status::RuntimeError(model_.path() + ": expected f32[" + std::to_string(n) +
                                           ",2] label probabilities, got " + probs->Describe());
    }
    for (size_t i = 0; i < n; ++i) {
      const float* p = probs->data<float>() + 2 * i;
      Direction d;
      d.upside_down = p[1] > p[0];
      d.score = d.upside_down ? p[1] : p[0];
      Image& crop = (*crops)[begin + i];
      d.rotated = d.upside_down && d.score > threshold;
      if (d.rotated) crop = Rotate180(crop);
      result.push_back(d);
    }
  }
  return result;
}

}  // namespace ocr
