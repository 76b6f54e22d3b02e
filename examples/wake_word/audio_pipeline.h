// The whole audio pipeline: a 16 kHz int16 stream, in 80 ms frames, through openWakeWord
// (mel -> embedding -> wake-word heads) and Silero VAD v5, giving wake-word detections, speech
// segments and per-model latency. Everything runs on Trinity's CPU backend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oww_features.h"
#include "silero_vad.h"
#include "speech_segmenter.h"
#include "timed_session.h"
#include "wake_word_head.h"

namespace wake_word {

// One run of frames whose score stayed above the threshold, reported at its best frame.
struct Detection {
  std::string model;   // "hey_jarvis"
  double seconds = 0;  // end of the best frame, from the start of the stream
  float score = 0;
};

struct StreamResult {
  int64_t samples = 0;  // stream length
  int frames = 0;       // 80 ms frames the wake-word models saw
  std::vector<SpeechSegment> speech;
  std::vector<Detection> detections;
  std::map<std::string, float> max_score;            // per head, over the whole stream
  std::map<std::string, std::vector<float>> scores;  // per head, one per frame
};

struct PipelineOptions {
  std::string models_dir;
  // Head files in models_dir and the names their scores are reported under.
  std::vector<std::pair<std::string, std::string>> heads = {{"hey_jarvis_v0.1.onnx", "hey_jarvis"},
                                                            {"alexa_v0.1.onnx", "alexa"}};
  float detection_threshold = 0.5f;  // openWakeWord's customary threshold
  SegmenterOptions vad;
  int threads = 1;  // per model; these models are small enough that 1 is usually fastest
};

class AudioPipeline {
 public:
  static trinity::Result<std::unique_ptr<AudioPipeline>> Create(const PipelineOptions& options);

  // Runs a whole stream from a fresh state (start-up buffers as openWakeWord has them). Every
  // complete 80 ms frame goes to the wake-word models (a shorter tail is dropped, as
  // openWakeWord waits for a full frame); the VAD sees every sample.
  trinity::Result<StreamResult> Run(const std::vector<int16_t>& samples);

  // Median and total time per call of each model, over every Run so far (start-up excluded).
  std::vector<LatencyStats> Latency() const;
  const PipelineOptions& options() const { return options_; }

 private:
  explicit AudioPipeline(PipelineOptions o) : options_(std::move(o)) {}
  PipelineOptions options_;
  std::unique_ptr<WakeWordFeatures> features_;
  std::vector<std::unique_ptr<WakeWordHead>> heads_;
  std::unique_ptr<SileroVad> vad_;
};

}  // namespace wake_word
