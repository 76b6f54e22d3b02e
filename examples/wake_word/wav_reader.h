// Reading WAV files: 16-bit PCM, mono, any sample rate. Anything else (float or 8/24/32-bit
// samples, stereo, compressed formats) is refused with a message saying what the file holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trinity/status.h"

namespace wake_word {

struct WavAudio {
  int sample_rate = 0;
  std::vector<int16_t> samples;
  double seconds() const {
    return sample_rate > 0 ? static_cast<double>(samples.size()) / sample_rate : 0.0;
  }
};

// Parses WAV bytes held in memory; `what` names the source in error messages ("'clip.wav'").
trinity::Result<WavAudio> ParseWav(const void* data, size_t size, const std::string& what);
// Reads and parses a WAV file.
trinity::Result<WavAudio> ReadWav(const std::string& path);

}  // namespace wake_word
