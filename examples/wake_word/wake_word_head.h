// One openWakeWord wake-word head (e.g. hey_jarvis_v0.1.onnx): the last 16 embeddings in, a
// score in [0, 1] out, as openwakeword/model.py's Model.predict computes it per 80 ms frame.
#pragma once

#include <memory>
#include <string>

#include "oww_features.h"
#include "timed_session.h"

namespace wake_word {

class WakeWordHead {
 public:
  // Opens `models_dir`/`file`; `name` labels its scores ("hey_jarvis"). The number of
  // embeddings it reads comes from its input shape f32[1, N, 96].
  static trinity::Result<std::unique_ptr<WakeWordHead>> Open(const std::string& models_dir,
                                                             const std::string& file,
                                                             const std::string& name, int threads);

  // The score for the features' current state. Like openWakeWord, the first
  // kWarmupPredictions scores after Reset are reported as 0 (the feature buffer still holds
  // start-up noise then).
  trinity::Result<float> Predict(const WakeWordFeatures& features);
  void Reset() { predictions_ = 0; }

  const std::string& name() const { return session_->name(); }
  const TimedSession& session() const { return *session_; }
  TimedSession& session() { return *session_; }

  static constexpr int kWarmupPredictions = 5;

 private:
  WakeWordHead(std::unique_ptr<TimedSession> s, std::string input, int frames)
      : session_(std::move(s)), input_(std::move(input)), frames_(frames) {}
  std::unique_ptr<TimedSession> session_;
  std::string input_;
  int frames_ = 0;
  int predictions_ = 0;
};

}  // namespace wake_word
