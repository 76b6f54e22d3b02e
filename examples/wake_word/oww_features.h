// openWakeWord's streaming feature extractor (AudioFeatures in openwakeword/utils.py), on Trinity:
// 80 ms frames of 16 kHz int16 audio -> mel spectrogram frames -> 96-value speech embeddings.
//
// Per 1280-sample frame, as openWakeWord's _streaming_features does:
//   1. the mel model runs on the last 1280 + 160*3 = 1760 raw samples (fewer at the very start),
//      given as raw int16 values in a float tensor, and its output is mapped by spec/10 + 2;
//   2. the new mel frames (8 per call once 1760 samples exist) are appended to a buffer that
//      starts as 76 frames of ones;
//   3. the embedding model runs on the buffer's last 76 frames and its output is appended to the
//      feature buffer.
// The feature buffer starts with the embeddings of 4 s of uniform random int16 noise in
// [-1000, 1000), 76-frame windows with stride 8 (41 embeddings), as openWakeWord fills it. Its
// noise is unseeded; ours comes from std::mt19937 with kNoiseSeed, so runs are reproducible.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "timed_session.h"
#include "trinity/trinity.h"

namespace wake_word {

constexpr int kSampleRate = 16000;
constexpr int kFrameSamples = 1280;  // 80 ms
constexpr int kMelBins = 32;
constexpr int kEmbeddingWindow = 76;  // mel frames per embedding
constexpr int kEmbeddingStride = 8;   // mel frames between embeddings
constexpr int kEmbeddingSize = 96;
constexpr uint32_t kNoiseSeed = 12345;

class WakeWordFeatures {
 public:
  // Opens melspectrogram.onnx and embedding_model.onnx from `models_dir` and fills the
  // initial feature buffer.
  static trinity::Result<std::unique_ptr<WakeWordFeatures>> Create(const std::string& models_dir,
                                                                   int threads);

  // Adds one 80 ms frame (kFrameSamples samples) and appends one embedding.
  trinity::Status PushFrame(const int16_t* frame);
  // The last `n` embeddings as f32[1, n, 96], oldest first (the wake-word heads' input).
  trinity::Result<trinity::Tensor> LastEmbeddings(int n) const;
  // Back to the state right after Create (a new, unrelated stream).
  void Reset();

  const TimedSession& mel() const { return *mel_; }
  const TimedSession& embedding() const { return *embedding_; }
  // Forgets timings of the start-up calls, so latency reports cover streaming calls only.
  void ClearTimings();

 private:
  WakeWordFeatures(std::unique_ptr<TimedSession> mel, std::unique_ptr<TimedSession> embedding)
      : mel_(std::move(mel)), embedding_(std::move(embedding)) {}
  // Mel frames (spec/10 + 2) of `samples`, appended to `out` row by row.
  trinity::Status Melspectrogram(const std::vector<int16_t>& samples, std::vector<float>* out);
  // Embeddings of `windows` stacked 76x32 mel windows, appended to `out`.
  trinity::Status Embed(const std::vector<float>& windows, int64_t count,
                        std::deque<std::vector<float>>* out);

  std::unique_ptr<TimedSession> mel_, embedding_;
  std::deque<std::vector<float>> initial_features_;  // the noise embeddings, kept for Reset
  std::vector<int16_t> raw_;                         // the last <= 1760 samples
  std::vector<float> mel_buffer_;                    // the last 76 mel frames, row-major
  std::deque<std::vector<float>> features_;          // embeddings, oldest first
};

}  // namespace wake_word
