#include "wav_reader.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace wake_word {
namespace {

// WAV is little-endian; reading byte by byte keeps this correct on any host.
uint32_t U32(const uint8_t* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

constexpr uint16_t kFormatPcm = 1;
constexpr uint16_t kFormatExtensible = 0xFFFE;

}  // namespace

trinity::Result<WavAudio> ParseWav(const void* data, size_t size, const std::string& what) {
  using trinity::Status;
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size < 12 || std::memcmp(bytes, "RIFF", 4) != 0 || std::memcmp(bytes + 8, "WAVE", 4) != 0) {
    return Status::InvalidArgument(what + ": not a WAV file (no RIFF/WAVE header)");
  }
  bool have_fmt = false;
  uint16_t format = 0, channels = 0, bits = 0;
  uint32_t rate = 0;
  size_t pos = 12;
  // Chunks: 4-byte id, 4-byte size, payload padded to an even length. Unknown chunks (LIST,
  // fact, ...) are skipped; "fmt " must come before "data", as the format requires.
  while (pos + 8 <= size) {
    const uint8_t* id = bytes + pos;
    const uint32_t chunk_size = U32(bytes + pos + 4);
    const size_t body = pos + 8;
    if (std::memcmp(id, "fmt ", 4) == 0) {
      if (chunk_size < 16 || body + 16 > size) {
        return Status::InvalidArgument(what + ": truncated 'fmt ' chunk");
      }
      format = U16(bytes + body);
      channels = U16(bytes + body + 2);
      rate = U32(bytes + body + 4);
      bits = U16(bytes + body + 14);
      // WAVE_FORMAT_EXTENSIBLE carries the real format in its sub-format GUID's first 2 bytes.
      if (format == kFormatExtensible && chunk_size >= 40 && body + 40 <= size) {
        format = U16(bytes + body + 24);
      }
      have_fmt = true;
    } else if (std::memcmp(id, "data", 4) == 0) {
      if (!have_fmt) return Status::InvalidArgument(what + ": 'data' chunk before 'fmt ' chunk");
      if (format != kFormatPcm || bits != 16) {
        return Status::Unsupported(what + ": sample format " + std::to_string(format) + " with " +
                                   std::to_string(bits) +
                                   " bits per sample; only 16-bit PCM (format 1) is supported");
      }
      if (channels != 1) {
        return Status::Unsupported(what + ": " + std::to_string(channels) +
                                   " channels; only mono is supported");
      }
      if (rate == 0 || rate > 384000) {
        return Status::InvalidArgument(what + ": implausible sample rate " + std::to_string(rate));
      }
      if (chunk_size > size - body) {
        return Status::InvalidArgument(what + ": truncated: 'data' chunk declares " +
                                       std::to_string(chunk_size) + " bytes but only " +
                                       std::to_string(size - body) + " follow");
      }
      if (chunk_size % 2 != 0) {
        return Status::InvalidArgument(what + ": 'data' chunk of " + std::to_string(chunk_size) +
                                       " bytes is not a whole number of 16-bit samples");
      }
      WavAudio audio;
      audio.sample_rate = static_cast<int>(rate);
      audio.samples.resize(chunk_size / 2);
      for (size_t i = 0; i < audio.samples.size(); ++i) {
        audio.samples[i] = static_cast<int16_t>(U16(bytes + body + 2 * i));
      }
      return audio;
    }
    pos = body + chunk_size + (chunk_size & 1);
  }
  return Status::InvalidArgument(
      what + (have_fmt ? ": truncated: no 'data' chunk" : ": truncated: no 'fmt ' chunk"));
}

trinity::Result<WavAudio> ReadWav(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return trinity::Status::NotFound("cannot open WAV file '" + path + "'");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                                std::istreambuf_iterator<char>());
  return ParseWav(bytes.data(), bytes.size(), "'" + path + "'");
}

}  // namespace wake_word
