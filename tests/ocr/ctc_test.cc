// CTC greedy decoding and the recogniser's character set.
#include "ocr/ctc.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace ocr {
namespace {

// One row per step: probability 0.9 on `best`, the rest shared evenly.
std::vector<float> Steps(const std::vector<int>& best, int classes, float p = 0.9f) {
  std::vector<float> out;
  for (int b : best) {
    for (int c = 0; c < classes; ++c) out.push_back(c == b ? p : (1 - p) / (classes - 1));
  }
  return out;
}

const std::vector<std::string> kCharset = {"", "a", "b", "\xe4\xb8\xad",
                                           " "};  // blank a b 中 space

TEST(OcrCtc, RepeatsCollapseAndBlanksSeparate) {
  // a a _ a b b _ _ 中 space: "aab中 ", repeats merged unless a blank splits them.
  const auto probs = Steps({1, 1, 0, 1, 2, 2, 0, 0, 3, 4}, 5);
  const Decoded d = CtcGreedyDecode(probs.data(), 10, 5, kCharset);
  EXPECT_EQ(d.text, "aab\xe4\xb8\xad ");
  EXPECT_NEAR(d.score, 0.9f, 1e-6);
}

TEST(OcrCtc, ScoreIsTheMeanOfEmittedCharactersOnly) {
  std::vector<float> probs = Steps({1, 0, 2}, 5);
  probs[0 * 5 + 1] = 0.6f;   // 'a' at 0.6
  probs[1 * 5 + 0] = 0.99f;  // a confident blank does not count
  probs[2 * 5 + 2] = 0.8f;   // 'b' at 0.8
  const Decoded d = CtcGreedyDecode(probs.data(), 3, 5, kCharset);
  EXPECT_EQ(d.text, "ab");
  EXPECT_NEAR(d.score, 0.7f, 1e-6);
}

TEST(OcrCtc, AllBlankIsEmptyWithScoreZero) {
  const auto probs = Steps({0, 0, 0}, 5);
  const Decoded d = CtcGreedyDecode(probs.data(), 3, 5, kCharset);
  EXPECT_EQ(d.text, "");
  EXPECT_EQ(d.score, 0.f);
}

TEST(OcrCtc, TiesGoToTheFirstClass) {
  const std::vector<float> probs = {0.1f, 0.4f, 0.4f, 0.05f, 0.05f};
  EXPECT_EQ(CtcGreedyDecode(probs.data(), 1, 5, kCharset).text, "a");
}

TEST(OcrCtc, CharsetIsBlankThenKeysThenSpace) {
  char path[] = "/tmp/trinity_ocr_keys_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream f(path, std::ios::binary);
    f << "a\r\nb\n\xe4\xb8\xad";  // CRLF, LF and no newline at the end
  }
  auto charset = LoadCharset(path);
  std::remove(path);
  ASSERT_TRUE(charset.ok()) << charset.status().ToString();
  EXPECT_EQ(*charset, kCharset);
}

TEST(OcrCtc, MissingOrEmptyKeysFileIsAnError) {
  auto missing = LoadCharset("/nonexistent/keys.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), trinity::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/keys.txt"), std::string::npos);
  auto empty = LoadCharset("/dev/null");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
}

}  // namespace
}  // namespace ocr
