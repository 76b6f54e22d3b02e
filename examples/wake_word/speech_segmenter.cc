#include "speech_segmenter.h"

#include <algorithm>

namespace wake_word {

SpeechSegmenter::SpeechSegmenter(const SegmenterOptions& options)
    : opt_(options),
      neg_threshold_(options.neg_threshold >= 0 ? options.neg_threshold
                                                : std::max(options.threshold - 0.15f, 0.01f)),
      min_speech_samples_(options.sample_rate * options.min_speech_duration_ms / 1000.0),
      min_silence_samples_(options.sample_rate * options.min_silence_duration_ms / 1000.0),
      pad_samples_(options.sample_rate * options.speech_pad_ms / 1000.0) {}

void SpeechSegmenter::Push(float prob) {
  const int64_t pos = opt_.chunk_samples * index_++;
  // silero-vad uses temp_end == 0 as "no pending end"; so do we, for identical results.
  if (prob >= opt_.threshold && temp_end_ != 0) temp_end_ = 0;
  if (prob >= opt_.threshold && !triggered_) {
    triggered_ = true;
    start_ = pos;
    return;
  }
  if (prob < neg_threshold_ && triggered_) {
    if (temp_end_ == 0) temp_end_ = pos;
    if (static_cast<double>(pos - temp_end_) < min_silence_samples_) return;
    if (static_cast<double>(temp_end_ - start_) > min_speech_samples_) {
      segments_.push_back({start_, temp_end_});
    }
    temp_end_ = 0;
    triggered_ = false;
  }
}

std::vector<SpeechSegment> SpeechSegmenter::Finish(int64_t audio_samples) {
  std::vector<SpeechSegment> s = std::move(segments_);
  if (triggered_ && static_cast<double>(audio_samples - start_) > min_speech_samples_) {
    s.push_back({start_, audio_samples});
  }
  const auto pad = static_cast<int64_t>(pad_samples_);
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == 0) s[i].start = std::max<int64_t>(0, s[i].start - pad);
    if (i + 1 < s.size()) {
      const int64_t silence = s[i + 1].start - s[i].end;
      if (static_cast<double>(silence) < 2 * pad_samples_) {
        s[i].end += silence / 2;
        s[i + 1].start = std::max<int64_t>(0, s[i + 1].start - silence / 2);
      } else {
        s[i].end = std::min(audio_samples, s[i].end + pad);
        s[i + 1].start = std::max<int64_t>(0, s[i + 1].start - pad);
      }
    } else {
      s[i].end = std::min(audio_samples, s[i].end + pad);
    }
  }
  segments_.clear();
  index_ = 0;
  triggered_ = false;
  start_ = temp_end_ = 0;
  return s;
}

}  // namespace wake_word
