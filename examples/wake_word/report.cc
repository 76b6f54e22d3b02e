#include "report.h"

namespace wake_word {

void PrintStreamResult(std::FILE* out, const StreamResult& r, float threshold) {
  std::fprintf(out, "  speech:");
  if (r.speech.empty()) std::fprintf(out, " none");
  for (size_t i = 0; i < r.speech.size(); ++i) {
    std::fprintf(out, "%s %.2f-%.2f s", i ? "," : "",
                 static_cast<double>(r.speech[i].start) / kSampleRate,
                 static_cast<double>(r.speech[i].end) / kSampleRate);
  }
  std::fprintf(out, "\n");
  if (r.detections.empty()) std::fprintf(out, "  detection: none above %.2f\n", threshold);
  for (const Detection& d : r.detections) {
    std::fprintf(out, "  detection: %s at %.2f s score %.3f\n", d.model.c_str(), d.seconds,
                 d.score);
  }
  std::fprintf(out, "  max score:");
  for (const auto& [name, score] : r.max_score) std::fprintf(out, " %s %.3f", name.c_str(), score);
  std::fprintf(out, "\n");
}

void PrintLatency(std::FILE* out, const std::vector<LatencyStats>& stats) {
  std::fprintf(out, "latency per model call (CPU backend):\n");
  for (const LatencyStats& s : stats) {
    std::fprintf(out, "  %-16s %5zu calls  median %7.3f ms  total %8.1f ms\n", s.name.c_str(),
                 s.calls, s.median_ms, s.total_ms);
  }
}

}  // namespace wake_word
