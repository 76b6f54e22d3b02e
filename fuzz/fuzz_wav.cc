// Fuzz target: WAV bytes -> wake_word::ParseWav (examples/wake_word, what `trinity demo` and the
// example read). Must return samples that fit in the file, or an error; never crash or read out
// of bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "wav_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto wav = wake_word::ParseWav(data, size, "'fuzz.wav'");
  if (wav.ok() && wav->samples.size() * 2 > size) std::abort();
  return 0;
}
