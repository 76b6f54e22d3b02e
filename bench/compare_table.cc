#include "compare_table.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace trinity::bench {
namespace {

const ModelTiming* Find(const CompareReport& r, const std::string& model, int threads) {
  for (const ModelTiming& t : r.timings)
    if (t.model == model && t.threads == threads) return &t;
  return nullptr;
}

// Milliseconds with three significant digits at most, so small and large models both read well.
std::string Ms(double ms) {
  if (ms >= 100) return fmt::format("{:.1f}", ms);
  if (ms >= 10) return fmt::format("{:.2f}", ms);
  return fmt::format("{:.3f}", ms);
}

std::string Title(const CompareReport& r) {
  return fmt::format(
      "Trinity vs ONNX Runtime {}: median of {} interleaved runs after {} warm-up(s); "
      "ratio = Trinity / ORT (> 1: Trinity slower)",
      r.ort_version, r.repeat, r.warmup);
}

}  // namespace

double GeoMeanRatio(const CompareReport& r, int threads) {
  double log_sum = 0;
  int n = 0;
  for (const ModelTiming& t : r.timings) {
    if (t.threads != threads) continue;
    log_sum += std::log(t.ratio());
    ++n;
  }
  return n == 0 ? 0.0 : std::exp(log_sum / n);
}

std::string FormatText(const CompareReport& r) {
  std::string s = Title(r) + "\n";
  s += fmt::format("{:<18}", "model");
  for (int t : r.threads) {
    s += fmt::format(" | {:>11} {:>9} {:>6}", fmt::format("trinity@{}t", t),
                     fmt::format("ort@{}t", t), "ratio");
  }
  s += "\n";
  for (const std::string& m : r.models) {
    s += fmt::format("{:<18}", m);
    for (int t : r.threads) {
      const ModelTiming* x = Find(r, m, t);
      if (x == nullptr) {
        s += fmt::format(" | {:>11} {:>9} {:>6}", "-", "-", "-");
      } else {
        s += fmt::format(" | {:>11} {:>9} {:>6.2f}", Ms(x->trinity_median_ms), Ms(x->ort_median_ms),
                         x->ratio());
      }
    }
    s += "\n";
  }
  s += fmt::format("{:<18}", "geometric mean");
  for (int t : r.threads) s += fmt::format(" | {:>11} {:>9} {:>6.2f}", "", "", GeoMeanRatio(r, t));
  return s + "\n";
}

std::string FormatMarkdown(const CompareReport& r) {
  std::string head = "| model |", rule = "|---|";
  for (int t : r.threads) {
    head += fmt::format(" Trinity ms ({0}t) | ORT ms ({0}t) | ratio ({0}t) |", t);
    rule += "---:|---:|---:|";
  }
  std::string s = head + "\n" + rule + "\n";
  for (const std::string& m : r.models) {
    s += "| " + m + " |";
    for (int t : r.threads) {
      const ModelTiming* x = Find(r, m, t);
      s += x == nullptr ? " - | - | - |"
                        : fmt::format(" {} | {} | {:.2f} |", Ms(x->trinity_median_ms),
                                      Ms(x->ort_median_ms), x->ratio());
    }
    s += "\n";
  }
  s += "| **geometric mean** |";
  for (int t : r.threads) s += fmt::format(" | | **{:.2f}** |", GeoMeanRatio(r, t));
  return s + "\n";
}

std::string FormatJson(const CompareReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ModelTiming& t : r.timings) {
    rows.push_back({{"model", t.model},
                    {"threads", t.threads},
                    {"trinity_median_ms", t.trinity_median_ms},
                    {"ort_median_ms", t.ort_median_ms},
                    {"trinity_min_ms", t.trinity_min_ms},
                    {"ort_min_ms", t.ort_min_ms},
                    {"ratio", t.ratio()}});
  }
  nlohmann::json geo = nlohmann::json::object();
  for (int t : r.threads) geo[std::to_string(t)] = GeoMeanRatio(r, t);
  nlohmann::json j = {{"onnxruntime_version", r.ort_version},
                      {"references", r.references_dir},
                      {"repeat", r.repeat},
                      {"warmup", r.warmup},
                      {"results", rows},
                      {"geomean_ratio", geo}};
  return j.dump(2) + "\n";
}

}  // namespace trinity::bench
