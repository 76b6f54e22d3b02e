// Speech segments from per-chunk speech probabilities, by the rules of silero-vad's
// get_speech_timestamps (utils_vad.py) with max_speech_duration_s = inf (its default, under
// which the splitting of over-long segments never happens and is not implemented here):
//   - speech starts at the first chunk with probability >= threshold;
//   - it ends where probability first fell below neg_threshold (default threshold - 0.15), once
//     it has stayed below threshold for min_silence_duration_ms; a chunk >= threshold in between
//     cancels the pending end;
//   - segments no longer than min_speech_duration_ms are dropped; one still open at the end of
//     the audio ends there;
//   - each segment is padded by speech_pad_ms each side (the first one clamped at 0 and the last
//     at the audio's end); when two segments are closer than 2 * speech_pad_ms the gap between
//     them is split in half instead.
#pragma once

#include <cstdint>
#include <vector>

namespace wake_word {

struct SegmenterOptions {
  float threshold = 0.5f;
  float neg_threshold = -1.0f;  // < 0: max(threshold - 0.15, 0.01), as silero-vad
  int min_speech_duration_ms = 250;
  int min_silence_duration_ms = 100;
  int speech_pad_ms = 30;
  int sample_rate = 16000;
  int chunk_samples = 512;  // samples per probability
};

struct SpeechSegment {
  int64_t start = 0;  // samples
  int64_t end = 0;    // samples, exclusive
  bool operator==(const SpeechSegment&) const = default;
};

class SpeechSegmenter {
 public:
  explicit SpeechSegmenter(const SegmenterOptions& options = SegmenterOptions());
  // Adds the probability of the next chunk.
  void Push(float prob);
  // The segments of an audio stream of `audio_samples` samples, padded; then starts afresh.
  std::vector<SpeechSegment> Finish(int64_t audio_samples);

 private:
  SegmenterOptions opt_;
  float neg_threshold_;
  double min_speech_samples_, min_silence_samples_, pad_samples_;
  int64_t index_ = 0;  // chunks seen
  bool triggered_ = false;
  int64_t start_ = 0, temp_end_ = 0;
  std::vector<SpeechSegment> segments_;
};

}  // namespace wake_word
