#include "resampler.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace wake_word {

trinity::Result<std::vector<float>> Resample(const std::vector<float>& in, int in_rate,
                                             int out_rate) {
  if (in_rate <= 0 || out_rate <= 0) {
    return trinity::Status::InvalidArgument("resample: sample rates must be positive, got " +
                                            std::to_string(in_rate) + " -> " +
                                            std::to_string(out_rate));
  }
  if (in_rate == out_rate) return in;
  const double pi = std::numbers::pi;
  // Cutoff in cycles per input sample; below 0.5 when downsampling, with a 5% guard band so
  // the window's transition band stays under the output's Nyquist frequency.
  const double cutoff = 0.5 * std::min(1.0, static_cast<double>(out_rate) / in_rate) * 0.95;
  // The kernel spans kResampleZeroCrossings zero crossings of the sinc each side; when
  // downsampling the sinc is wider in input samples (its zero crossings are 0.5/cutoff apart).
  const double half_width = kResampleZeroCrossings * 0.5 / cutoff;
  const int64_t n_in = static_cast<int64_t>(in.size());
  const int64_t n_out = (n_in * out_rate + in_rate - 1) / in_rate;  // ceil
  std::vector<float> out(static_cast<size_t>(std::max<int64_t>(n_out, 0)));
  for (int64_t n = 0; n < n_out; ++n) {
    // Exact position: integer part and fraction of n * in_rate / out_rate.
    const int64_t num = n * in_rate;
    const int64_t base = num / out_rate;
    const double frac = static_cast<double>(num % out_rate) / out_rate;
    const double t = static_cast<double>(base) + frac;
    const int64_t k0 = static_cast<int64_t>(std::ceil(t - half_width));
    const int64_t k1 = static_cast<int64_t>(std::floor(t + half_width));
    double acc = 0, weight = 0;
    for (int64_t k = k0; k <= k1; ++k) {
      const double d = t - static_cast<double>(k);
      const double x = 2 * cutoff * d;
      const double sinc = x == 0 ? 1.0 : std::sin(pi * x) / (pi * x);
      // Blackman window over [-half_width, half_width].
      const double w =
          0.42 + 0.5 * std::cos(pi * d / half_width) + 0.08 * std::cos(2 * pi * d / half_width);
      const double h = sinc * w;
      weight += h;
      if (k >= 0 && k < n_in) acc += h * in[static_cast<size_t>(k)];
    }
    // Dividing by the taps' sum gives every output phase exactly unit gain at DC.
    out[static_cast<size_t>(n)] = static_cast<float>(acc / weight);
  }
  return out;
}

std::vector<int16_t> ToInt16(const std::vector<float>& in) {
  std::vector<int16_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<int16_t>(std::clamp(std::lround(in[i]), -32768L, 32767L));
  }
  return out;
}

}  // namespace wake_word
