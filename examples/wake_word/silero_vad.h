// Silero VAD v5 over a stream, as silero-vad's OnnxWrapper feeds it (utils_vad.py): 512-sample
// chunks of 16 kHz audio scaled to [-1, 1), each with the previous chunk's last 64 samples in
// front (input f32[1, 576]; zeros before the first chunk), the recurrent state f32[2, 1, 128]
// carried from chunk to chunk (zeros at the start), and sr = 16000 as an int64 scalar.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timed_session.h"
#include "trinity/trinity.h"

namespace wake_word {

constexpr int kVadChunk = 512;   // 32 ms
constexpr int kVadContext = 64;  // samples of the previous chunk prepended to each chunk

class SileroVad {
 public:
  // Opens `models_dir`/silero_vad_v5.onnx.
  static trinity::Result<std::unique_ptr<SileroVad>> Open(const std::string& models_dir,
                                                          int threads);

  // Buffers `n` samples and appends the speech probability of every 512-sample chunk completed.
  trinity::Status Push(const int16_t* samples, size_t n, std::vector<float>* probs);
  // Ends the stream: a partial last chunk is padded with zeros (as get_speech_timestamps pads).
  trinity::Status Flush(std::vector<float>* probs);
  // Zero state and context, empty buffer: ready for a new stream.
  void Reset();

  const TimedSession& session() const { return *session_; }

 private:
  explicit SileroVad(std::unique_ptr<TimedSession> s) : session_(std::move(s)) { Reset(); }
  trinity::Status RunChunk(std::vector<float>* probs);

  std::unique_ptr<TimedSession> session_;
  std::vector<float> context_;  // the last 64 samples of the previous chunk
  std::vector<float> pending_;  // samples not yet in a full chunk
  trinity::Tensor state_;       // f32[2, 1, 128]
};

}  // namespace wake_word
