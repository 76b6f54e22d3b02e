#include "tolerance.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace trinity::refs {
namespace {

// Index of the largest element of row `r` (length n); the first one on ties, as numpy's argmax.
int64_t ArgMax(const float* row, int64_t n) {
  int64_t best = 0;
  for (int64_t i = 1; i < n; ++i)
    if (row[i] > row[best]) best = i;
  return best;
}

std::string IndexString(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] > 0 ? flat % shape[d] : 0;
    flat = shape[d] > 0 ? flat / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

}  // namespace

OutputComparison CompareOutput(const Tensor& got, const Tensor& want, double rtol, double atol,
                               bool argmax_last_axis) {
  OutputComparison c;
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    c.error = "Trinity gave " + got.Describe() + ", ONNX Runtime " + want.Describe();
    return c;
  }
  c.elements = want.numel();
  if (want.dtype() != DType::kF32) {
    // Integer and bool outputs must match exactly.
    if (want.nbytes() > 0 && std::memcmp(got.raw_data(), want.raw_data(), want.nbytes()) != 0) {
      c.error = std::string(dtype_name(want.dtype())) + " output differs";
    }
    return c;
  }
  const float* g = got.data<float>();
  const float* w = want.data<float>();
  int64_t worst_at = -1;
  for (int64_t i = 0; i < c.elements; ++i) {
    const double gi = g[i], wi = w[i];
    double diff;
    if (std::isnan(gi) || std::isnan(wi)) {
      diff = (std::isnan(gi) && std::isnan(wi)) ? 0.0 : std::numeric_limits<double>::infinity();
    } else if (gi == wi) {
      diff = 0.0;  // also equal infinities, whose difference would be NaN
    } else {
      diff = std::fabs(gi - wi);
    }
    // Equal values (both NaN included) have ratio 0; a NaN want against a number, infinity.
    const double ratio = diff == 0.0      ? 0.0
                         : std::isnan(wi) ? std::numeric_limits<double>::infinity()
                                          : diff / (rtol * std::fabs(wi) + atol);
    if (diff > c.max_abs_diff) c.max_abs_diff = diff;
    if (ratio > 1.0) ++c.violations;
    if (worst_at < 0 || ratio > c.worst_ratio) {
      c.worst_ratio = ratio;
      worst_at = i;
    }
  }
  if (worst_at >= 0) {
    c.worst = "at " + IndexString(worst_at, want.shape()) + ": got " + std::to_string(g[worst_at]) +
              " want " + std::to_string(w[worst_at]);
  }
  if (argmax_last_axis && want.rank() > 0 && want.shape().back() > 0) {
    const int64_t n = want.shape().back();
    c.argmax_rows = c.elements / n;
    for (int64_t r = 0; r < c.argmax_rows; ++r) {
      if (ArgMax(g + r * n, n) == ArgMax(w + r * n, n)) ++c.argmax_equal;
    }
  }
  return c;
}

}  // namespace trinity::refs
