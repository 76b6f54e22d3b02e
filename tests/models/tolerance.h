// Elementwise comparison of one output with ONNX Runtime's:
//   |got - want| <= rtol * |want| + atol   for every element,
// with the figures a failure report needs (max abs diff, worst ratio, where), and for
// classifiers whether the argmax over the last axis agrees row by row.
#pragma once

#include <cstdint>
#include <string>

#include "trinity/trinity.h"

namespace trinity::refs {

struct OutputComparison {
  std::string error;        // set when the outputs cannot be compared (dtype, shape)
  double max_abs_diff = 0;  // over all elements
  double worst_ratio = 0;   // max |got-want| / (rtol*|want| + atol); <= 1 passes
  int64_t violations = 0;   // elements with ratio > 1 (NaN against a number counts)
  int64_t elements = 0;
  std::string worst;         // "at [0,12,7]: got 0.123 want 0.124" for the worst element
  int64_t argmax_rows = 0;   // rows compared (argmax over the last axis), when asked
  int64_t argmax_equal = 0;  // rows whose argmax agrees

  bool ok() const { return error.empty() && violations == 0 && argmax_equal == argmax_rows; }
};

OutputComparison CompareOutput(const Tensor& got, const Tensor& want, double rtol, double atol,
                               bool argmax_last_axis);

}  // namespace trinity::refs
