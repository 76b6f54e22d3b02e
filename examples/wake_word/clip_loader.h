// Audio files to the pipeline's input: a WAV file read and resampled to 16 kHz int16.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trinity/status.h"

namespace wake_word {

struct Clip {
  int source_rate = 0;           // the file's sample rate
  std::vector<int16_t> samples;  // 16 kHz
};

// Reads a 16-bit PCM mono WAV file of any rate and resamples it to 16 kHz (resampler.h).
trinity::Result<Clip> LoadClip16k(const std::string& path);

// `seconds` of silence, the samples, and `seconds` of silence again: openWakeWord's predict_clip
// pads clips so (1 s each side, by default), which lets the start-up frames pass before speech.
std::vector<int16_t> PadWithSilence(const std::vector<int16_t>& samples, double seconds);

}  // namespace wake_word
