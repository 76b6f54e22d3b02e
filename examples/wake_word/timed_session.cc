#include "timed_session.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace wake_word {

trinity::Result<std::unique_ptr<TimedSession>> TimedSession::Open(const std::string& path,
                                                                  const std::string& name,
                                                                  int threads) {
  auto model = trinity::Model::Load(path);
  if (!model.ok()) return model.status();
  trinity::SessionOptions options;
  options.device = "cpu";
  options.num_threads = threads;
  auto session = trinity::Session::Create(*model, options);
  if (!session.ok()) return session.status().WithContext(path);
  return std::unique_ptr<TimedSession>(new TimedSession(std::move(*session), name));
}

trinity::Result<std::map<std::string, trinity::Tensor>> TimedSession::Run(
    const std::map<std::string, trinity::Tensor>& inputs) {
  const auto t0 = std::chrono::steady_clock::now();
  auto out = session_->Run(inputs);
  ms_.push_back(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if (!out.ok()) return out.status().WithContext(name_);
  return out;
}

LatencyStats TimedSession::Stats() const {
  LatencyStats s;
  s.name = name_;
  s.calls = ms_.size();
  if (ms_.empty()) return s;
  std::vector<double> sorted = ms_;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  s.median_ms = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.total_ms = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  return s;
}

}  // namespace wake_word
