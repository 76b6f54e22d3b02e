#include "oww_features.h"

#include <random>

namespace wake_word {
namespace {

// openWakeWord's mel input: the current frame plus the 3 hops (160 samples each) before it,
// so consecutive calls produce contiguous mel frames.
constexpr size_t kMelContext = kFrameSamples + 160 * 3;
// openWakeWord keeps 120 embeddings (~10 s); heads read the last 16.
constexpr size_t kMaxFeatures = 120;

}  // namespace

trinity::Result<std::unique_ptr<WakeWordFeatures>> WakeWordFeatures::Create(
    const std::string& models_dir, int threads) {
  auto mel = TimedSession::Open(models_dir + "/melspectrogram.onnx", "melspectrogram", threads);
  if (!mel.ok()) return mel.status();
  auto emb = TimedSession::Open(models_dir + "/embedding_model.onnx", "embedding", threads);
  if (!emb.ok()) return emb.status();
  std::unique_ptr<WakeWordFeatures> f(new WakeWordFeatures(std::move(*mel), std::move(*emb)));

  // 4 s of noise -> mel frames -> every full 76-frame window at stride 8 -> embeddings.
  std::mt19937 rng(kNoiseSeed);
  std::vector<int16_t> noise(4 * kSampleRate);
  // Modulo instead of std::uniform_int_distribution, whose output differs between standard
  // libraries; the bias of 2^32 mod 2000 is irrelevant here.
  for (int16_t& s : noise) s = static_cast<int16_t>(-1000 + static_cast<int>(rng() % 2000));
  std::vector<float> spec;
  TRY_STATUS(f->Melspectrogram(noise, &spec));
  const int64_t frames = static_cast<int64_t>(spec.size()) / kMelBins;
  std::vector<float> windows;
  int64_t count = 0;
  for (int64_t start = 0; start + kEmbeddingWindow <= frames; start += kEmbeddingStride) {
    windows.insert(windows.end(), spec.begin() + start * kMelBins,
                   spec.begin() + (start + kEmbeddingWindow) * kMelBins);
    ++count;
  }
  TRY_STATUS(f->Embed(windows, count, &f->initial_features_));
  f->Reset();
  return f;
}

void WakeWordFeatures::Reset() {
  raw_.clear();
  mel_buffer_.assign(kEmbeddingWindow * kMelBins, 1.0f);
  features_ = initial_features_;
}

void WakeWordFeatures::ClearTimings() {
  mel_->ClearTimings();
  embedding_->ClearTimings();
}

trinity::Status WakeWordFeatures::Melspectrogram(const std::vector<int16_t>& samples,
                                                 std::vector<float>* out) {
  // The mel model takes raw int16 sample values as floats (not scaled to [-1, 1]).
  std::vector<float> x(samples.begin(), samples.end());
  const int64_t n = static_cast<int64_t>(x.size());
  auto result =
      mel_->Run({{"input", trinity::Tensor::FromVector(trinity::DType::kF32, {1, n}, x)}});
  if (!result.ok()) return result.status();
  const trinity::Tensor& spec = result->begin()->second;  // f32[1, 1, frames, 32]
  if (spec.dtype() != trinity::DType::kF32 || spec.numel() % kMelBins != 0) {
    return trinity::Status::InvalidArgument("melspectrogram: expected f32 [..., 32] output, got " +
                                            spec.Describe());
  }
  const float* p = spec.data<float>();
  for (int64_t i = 0; i < spec.numel(); ++i) out->push_back(p[i] / 10.0f + 2.0f);
  return trinity::Status::Ok();
}

trinity::Status WakeWordFeatures::Embed(const std::vector<float>& windows, int64_t count,
                                        std::deque<std::vector<float>>* out) {
  auto result = embedding_->Run(
      {{"input_1", trinity::Tensor::FromVector(trinity::DType::kF32,
                                               {count, kEmbeddingWindow, kMelBins, 1}, windows)}});
  if (!result.ok()) return result.status();
  const trinity::Tensor& e = result->begin()->second;  // f32[count, 1, 1, 96]
  if (e.dtype() != trinity::DType::kF32 || e.numel() != count * kEmbeddingSize) {
    return trinity::Status::InvalidArgument("embedding: expected f32[" + std::to_string(count) +
                                            ",1,1,96] output, got " + e.Describe());
  }
  const float* p = e.data<float>();
  for (int64_t i = 0; i < count; ++i) {
    out->emplace_back(p + i * kEmbeddingSize, p + (i + 1) * kEmbeddingSize);
  }
  return trinity::Status::Ok();
}

trinity::Status WakeWordFeatures::PushFrame(const int16_t* frame) {
  raw_.insert(raw_.end(), frame, frame + kFrameSamples);
  if (raw_.size() > kMelContext) raw_.erase(raw_.begin(), raw_.end() - kMelContext);
  TRY_STATUS(Melspectrogram(raw_, &mel_buffer_));
  // Only the newest 76 frames are ever read again.
  const size_t keep = kEmbeddingWindow * kMelBins;
  if (mel_buffer_.size() > keep) {
    mel_buffer_.erase(mel_buffer_.begin(), mel_buffer_.end() - static_cast<ptrdiff_t>(keep));
  }
  TRY_STATUS(Embed(mel_buffer_, 1, &features_));
  while (features_.size() > kMaxFeatures) features_.pop_front();
  return trinity::Status::Ok();
}

trinity::Result<trinity::Tensor> WakeWordFeatures::LastEmbeddings(int n) const {
  if (n <= 0 || static_cast<size_t>(n) > features_.size()) {
    return trinity::Status::InvalidArgument("wake-word head wants " + std::to_string(n) +
                                            " embeddings; the feature buffer holds " +
                                            std::to_string(features_.size()));
  }
  std::vector<float> x;
  x.reserve(static_cast<size_t>(n) * kEmbeddingSize);
  for (size_t i = features_.size() - static_cast<size_t>(n); i < features_.size(); ++i) {
    x.insert(x.end(), features_[i].begin(), features_[i].end());
  }
  return trinity::Tensor::FromVector(trinity::DType::kF32, {1, n, kEmbeddingSize}, x);
}

}  // namespace wake_word
