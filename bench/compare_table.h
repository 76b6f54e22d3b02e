// The results of bench/compare_ort and their three renderings: an aligned text table for the
// terminal, a Markdown table for docs/performance.md, and JSON for scripts.
#pragma once

#include <string>
#include <vector>

namespace trinity::bench {

struct ModelTiming {
  std::string model;
  int threads = 0;
  double trinity_median_ms = 0;
  double ort_median_ms = 0;
  double trinity_min_ms = 0;
  double ort_min_ms = 0;
  double ratio() const { return trinity_median_ms / ort_median_ms; }  // > 1: Trinity slower
};

struct CompareReport {
  std::string ort_version;
  std::string references_dir;
  int repeat = 0;
  int warmup = 0;
  std::vector<int> threads;         // columns, in the order asked
  std::vector<std::string> models;  // rows, in the order asked
  std::vector<ModelTiming> timings;
};

// Geometric mean of the median ratios at `threads` (0 when there is none).
double GeoMeanRatio(const CompareReport& r, int threads);

std::string FormatText(const CompareReport& r);
std::string FormatMarkdown(const CompareReport& r);
std::string FormatJson(const CompareReport& r);

}  // namespace trinity::bench
