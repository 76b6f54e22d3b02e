// A Trinity session that records how long each Run takes, for per-model latency reports.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "trinity/trinity.h"

namespace wake_word {

// Median and total wall time of a model's calls.
struct LatencyStats {
  std::string name;
  size_t calls = 0;
  double median_ms = 0;
  double total_ms = 0;
};

class TimedSession {
 public:
  // Loads `path` and compiles it for the CPU backend with `threads` threads.
  static trinity::Result<std::unique_ptr<TimedSession>> Open(const std::string& path,
                                                             const std::string& name, int threads);

  // Session::Run, timed. Errors are prefixed with the model's name.
  trinity::Result<std::map<std::string, trinity::Tensor>> Run(
      const std::map<std::string, trinity::Tensor>& inputs);

  const trinity::Model& model() const { return session_->model(); }
  const std::string& name() const { return name_; }
  LatencyStats Stats() const;
  // Forgets recorded timings (e.g. the one-off calls that fill start-up buffers).
  void ClearTimings() { ms_.clear(); }

 private:
  TimedSession(std::unique_ptr<trinity::Session> s, std::string name)
      : session_(std::move(s)), name_(std::move(name)) {}
  std::unique_ptr<trinity::Session> session_;
  std::string name_;
  std::vector<double> ms_;
};

}  // namespace wake_word
