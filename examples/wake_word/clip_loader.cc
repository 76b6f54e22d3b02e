#include "clip_loader.h"

#include "oww_features.h"
#include "resampler.h"
#include "wav_reader.h"

namespace wake_word {

trinity::Result<Clip> LoadClip16k(const std::string& path) {
  auto wav = ReadWav(path);
  if (!wav.ok()) return wav.status();
  Clip clip;
  clip.source_rate = wav->sample_rate;
  if (wav->sample_rate == kSampleRate) {
    clip.samples = std::move(wav->samples);
    return clip;
  }
  const std::vector<float> in(wav->samples.begin(), wav->samples.end());
  auto resampled = Resample(in, wav->sample_rate, kSampleRate);
  if (!resampled.ok()) return resampled.status().WithContext(path);
  clip.samples = ToInt16(*resampled);
  return clip;
}

std::vector<int16_t> PadWithSilence(const std::vector<int16_t>& samples, double seconds) {
  const auto pad = static_cast<size_t>(seconds * kSampleRate);
  std::vector<int16_t> out(pad, 0);
  out.insert(out.end(), samples.begin(), samples.end());
  out.resize(out.size() + pad, 0);
  return out;
}

}  // namespace wake_word
