#include "resampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace wake_word {
namespace {

std::vector<float> Sine(double freq, int rate, size_t n, double amplitude = 1.0) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * freq * i / rate));
  }
  return x;
}

// Largest difference from the ideal sine at the output rate, away from the edges (where the
// zero samples beyond the input blur the result).
double MaxErrorVsIdeal(const std::vector<float>& y, double freq, int rate, size_t margin) {
  const std::vector<float> ideal = Sine(freq, rate, y.size());
  double err = 0;
  for (size_t i = margin; i + margin < y.size(); ++i) {
    err = std::max(err, std::abs(static_cast<double>(y[i]) - ideal[i]));
  }
  return err;
}

TEST(Resampler, LengthIsCeilingOfScaledLength) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{441}, size_t{22050}, size_t{22051}}) {
    auto y = Resample(std::vector<float>(n, 0.f), 22050, 16000);
    ASSERT_TRUE(y.ok());
    EXPECT_EQ(y->size(), (n * 16000 + 22049) / 22050) << n;
  }
  auto up = Resample(std::vector<float>(100, 0.f), 8000, 16000);
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(up->size(), 200u);
}

TEST(Resampler, DownsamplingKeepsAToneItsFrequencyAndAmplitude) {
  // 1 kHz at 22050 Hz (espeak-ng's rate) -> 16 kHz must be the same 1 kHz tone.
  auto y = Resample(Sine(1000, 22050, 22050), 22050, 16000);
  ASSERT_TRUE(y.ok());
  EXPECT_LT(MaxErrorVsIdeal(*y, 1000, 16000, 100), 2e-3);
  // And a higher tone still inside the passband.
  y = Resample(Sine(6000, 22050, 22050), 22050, 16000);
  ASSERT_TRUE(y.ok());
  EXPECT_LT(MaxErrorVsIdeal(*y, 6000, 16000, 100), 2e-2);
}

TEST(Resampler, UpsamplingKeepsAToneItsFrequency) {
  auto y = Resample(Sine(440, 8000, 8000), 8000, 16000);
  ASSERT_TRUE(y.ok());
  EXPECT_LT(MaxErrorVsIdeal(*y, 440, 16000, 100), 2e-3);
}

TEST(Resampler, ToneAboveTheNewNyquistIsRemovedNotAliased) {
  // 10 kHz cannot exist at 16 kHz; plain interpolation would fold it to 6 kHz.
  auto y = Resample(Sine(10000, 22050, 22050), 22050, 16000);
  ASSERT_TRUE(y.ok());
  double sum = 0;
  for (size_t i = 100; i + 100 < y->size(); ++i) sum += (*y)[i] * (*y)[i];
  const double rms = std::sqrt(sum / static_cast<double>(y->size() - 200));
  EXPECT_LT(rms, 0.01);  // the input's RMS is 0.707
}

TEST(Resampler, SameRateIsIdentityAndBadRatesAreErrors) {
  const std::vector<float> x = {1, 2, 3};
  auto y = Resample(x, 16000, 16000);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(*y, x);
  auto bad = Resample(x, 0, 16000);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("sample rates must be positive"), std::string::npos);
}

TEST(Resampler, ToInt16RoundsAndClamps) {
  EXPECT_EQ(ToInt16({0.4f, 0.6f, -0.6f, 40000.f, -40000.f}),
            (std::vector<int16_t>{0, 1, -1, 32767, -32768}));
}

}  // namespace
}  // namespace wake_word
