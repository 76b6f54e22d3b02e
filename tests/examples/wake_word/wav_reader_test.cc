#include "wav_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace wake_word {
namespace {

void Put16(std::vector<uint8_t>* b, uint16_t v) {
  b->push_back(v & 0xff);
  b->push_back(v >> 8);
}
void Put32(std::vector<uint8_t>* b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->push_back((v >> (8 * i)) & 0xff);
}
// Byte by byte: GCC 12 at -O3 warns falsely (stringop-overflow) about vector::insert here.
void PutId(std::vector<uint8_t>* b, const char* id) {
  for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(id[i]));
}

// A WAV file: RIFF header, an optional LIST chunk (which readers must skip), fmt, data.
std::vector<uint8_t> MakeWav(const std::vector<int16_t>& samples, int rate, int channels = 1,
                             int bits = 16, int format = 1, bool list_chunk = false) {
  std::vector<uint8_t> b;
  PutId(&b, "RIFF");
  Put32(&b, 0);  // patched below
  PutId(&b, "WAVE");
  if (list_chunk) {
    PutId(&b, "LIST");
    Put32(&b, 5);  // odd size: padded to 6
    for (int i = 0; i < 6; ++i) b.push_back('x');
  }
  PutId(&b, "fmt ");
  Put32(&b, 16);
  Put16(&b, static_cast<uint16_t>(format));
  Put16(&b, static_cast<uint16_t>(channels));
  Put32(&b, static_cast<uint32_t>(rate));
  Put32(&b, static_cast<uint32_t>(rate * channels * bits / 8));
  Put16(&b, static_cast<uint16_t>(channels * bits / 8));
  Put16(&b, static_cast<uint16_t>(bits));
  PutId(&b, "data");
  Put32(&b, static_cast<uint32_t>(samples.size() * 2));
  for (int16_t s : samples) Put16(&b, static_cast<uint16_t>(s));
  const uint32_t riff = static_cast<uint32_t>(b.size() - 8);
  for (int i = 0; i < 4; ++i) b[4 + i] = (riff >> (8 * i)) & 0xff;
  return b;
}

TEST(WavReader, ParsesPcm16MonoAndSkipsUnknownChunks) {
  const std::vector<int16_t> samples = {0, 1, -1, 32767, -32768, 1234};
  for (bool list : {false, true}) {
    const auto bytes = MakeWav(samples, 22050, 1, 16, 1, list);
    auto wav = ParseWav(bytes.data(), bytes.size(), "'t.wav'");
    ASSERT_TRUE(wav.ok()) << wav.status().ToString();
    EXPECT_EQ(wav->sample_rate, 22050);
    EXPECT_EQ(wav->samples, samples);
    EXPECT_DOUBLE_EQ(wav->seconds(), 6.0 / 22050);
  }
}

TEST(WavReader, ReadsFileFromDisk) {
  const auto bytes = MakeWav({5, -5, 7}, 16000);
  const std::string path =
      (std::filesystem::temp_directory_path() / "trinity_wav_reader_test.wav").string();
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  auto wav = ReadWav(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(wav.ok()) << wav.status().ToString();
  EXPECT_EQ(wav->samples, (std::vector<int16_t>{5, -5, 7}));
  EXPECT_EQ(wav->sample_rate, 16000);
}

TEST(WavReader, MissingFileIsNotFoundNamingThePath) {
  auto wav = ReadWav("/nonexistent/dir/clip.wav");
  ASSERT_FALSE(wav.ok());
  EXPECT_EQ(wav.status().code(), trinity::StatusCode::kNotFound);
  EXPECT_NE(wav.status().message().find("/nonexistent/dir/clip.wav"), std::string::npos);
}

TEST(WavReader, TruncatedDataIsAnError) {
  auto bytes = MakeWav(std::vector<int16_t>(100, 3), 16000);
  bytes.resize(bytes.size() - 10);
  auto wav = ParseWav(bytes.data(), bytes.size(), "'cut.wav'");
  ASSERT_FALSE(wav.ok());
  EXPECT_NE(wav.status().message().find("truncated"), std::string::npos) << wav.status().message();
  EXPECT_NE(wav.status().message().find("'cut.wav'"), std::string::npos);
}

TEST(WavReader, TruncatedHeaderIsAnError) {
  const auto bytes = MakeWav(std::vector<int16_t>(10, 3), 16000);
  // Cut inside the fmt chunk, and right after the RIFF header.
  for (size_t keep : {size_t{30}, size_t{12}, size_t{6}}) {
    auto wav = ParseWav(bytes.data(), keep, "'h.wav'");
    ASSERT_FALSE(wav.ok()) << keep;
    EXPECT_EQ(wav.status().code(), trinity::StatusCode::kInvalidArgument) << keep;
  }
}

TEST(WavReader, NotRiffIsAnError) {
  const std::string text = "this is not a wav file at all";
  auto wav = ParseWav(text.data(), text.size(), "'x.txt'");
  ASSERT_FALSE(wav.ok());
  EXPECT_NE(wav.status().message().find("not a WAV file"), std::string::npos);
}

TEST(WavReader, StereoAndOtherSampleFormatsAreRefusedClearly) {
  auto stereo = MakeWav({1, 2, 3, 4}, 16000, 2);
  auto wav = ParseWav(stereo.data(), stereo.size(), "'s.wav'");
  ASSERT_FALSE(wav.ok());
  EXPECT_NE(wav.status().message().find("2 channels"), std::string::npos) << wav.status().message();

  auto float32 = MakeWav({1, 2, 3, 4}, 16000, 1, 32, 3);
  wav = ParseWav(float32.data(), float32.size(), "'f.wav'");
  ASSERT_FALSE(wav.ok());
  EXPECT_NE(wav.status().message().find("only 16-bit PCM"), std::string::npos)
      << wav.status().message();
}

TEST(WavReader, OddDataSizeIsAnError) {
  auto bytes = MakeWav({1, 2}, 16000);
  // Declare 3 data bytes (and keep 4 in the file).
  bytes[bytes.size() - 8] = 3;
  auto wav = ParseWav(bytes.data(), bytes.size(), "'o.wav'");
  ASSERT_FALSE(wav.ok());
  EXPECT_NE(wav.status().message().find("16-bit samples"), std::string::npos);
}

}  // namespace
}  // namespace wake_word
