#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli.h"

namespace trinity::cli {

int ReportError(const Status& status) {
  std::fprintf(stderr, "error: %s\n", status.ToString().c_str());
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kCorruptModel:
      return kExitBadInput;
    default:
      return kExitRuntimeFailure;
  }
}

int ReportRuntimeError(const Status& status) {
  std::fprintf(stderr, "error: %s\n", status.ToString().c_str());
  return kExitRuntimeFailure;
}

std::string SanitizeFileName(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) c = '_';
  }
  return out;
}

std::string CacheDir() {
  if (const char* d = std::getenv("TRINITY_CACHE_DIR"); d && *d) return d;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/trinity";
}

std::string ModelsDir() {
  if (const char* d = std::getenv("TRINITY_MODELS_DIR"); d && *d) return d;
  return CacheDir() + "/models";
}

std::string SummarizeTensor(const Tensor& t) {
  std::string s = t.Describe();
  if (t.numel() == 0 || t.raw_data() == nullptr) return s;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  auto add = [&](double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  };
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.dtype()) {
      case DType::kF32:
        add(t.data<float>()[i]);
        break;
      case DType::kF64:
        add(t.data<double>()[i]);
        break;
      case DType::kI64:
        add(static_cast<double>(t.data<int64_t>()[i]));
        break;
      case DType::kI32:
        add(t.data<int32_t>()[i]);
        break;
      case DType::kU8:
        add(t.data<uint8_t>()[i]);
        break;
      case DType::kI8:
        add(t.data<int8_t>()[i]);
        break;
      case DType::kBool:
        add(t.data<bool>()[i]);
        break;
      default:
        return s;
    }
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, " min %.4g max %.4g mean %.4g", lo, hi,
                sum / static_cast<double>(t.numel()));
  return s + buf;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double idx = p * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(idx);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
}

}  // namespace trinity::cli
