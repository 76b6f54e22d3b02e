// Sample-rate conversion by windowed-sinc interpolation (band-limited, anti-aliased).
#pragma once

#include <cstdint>
#include <vector>

#include "trinity/status.h"

namespace wake_word {

// Converts `in` from `in_rate` to `out_rate` Hz. Each output sample n sits at input position
// n * in_rate / out_rate (computed exactly in integers) and is a sum of the input samples within
// kResampleZeroCrossings zero crossings of a low-pass sinc, weighted by a Blackman window. The
// cutoff is 0.95 x the Nyquist frequency of the lower rate, so downsampling (22050 -> 16000)
// removes what would otherwise alias. Output length: ceil(in.size() * out_rate / in_rate).
// Samples beyond either end of the input count as zero.
trinity::Result<std::vector<float>> Resample(const std::vector<float>& in, int in_rate,
                                             int out_rate);

// Float samples to int16 with rounding and clamping to [-32768, 32767].
std::vector<int16_t> ToInt16(const std::vector<float>& in);

constexpr int kResampleZeroCrossings = 16;

}  // namespace wake_word
