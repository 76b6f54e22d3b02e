// Expected segments are worked out by hand from silero-vad's get_speech_timestamps rules with
// its defaults: threshold 0.5, neg_threshold 0.35, 512-sample chunks, min speech 4000 samples,
// min silence 1600 samples, pad 480 samples.
#include "speech_segmenter.h"

#include <gtest/gtest.h>

#include <vector>

namespace wake_word {

// gtest prints segments through PrintTo, found by argument-dependent lookup.
void PrintTo(const SpeechSegment& s, std::ostream* os) {
  *os << "[" << s.start << "," << s.end << ")";
}

namespace {

// `count` chunks of probability `p`, appended.
void Add(std::vector<float>* probs, int count, float p) { probs->insert(probs->end(), count, p); }

std::vector<SpeechSegment> Segment(const std::vector<float>& probs, int64_t audio_samples,
                                   const SegmenterOptions& options = SegmenterOptions()) {
  SpeechSegmenter s(options);
  for (float p : probs) s.Push(p);
  return s.Finish(audio_samples);
}

TEST(SpeechSegmenter, OneSegmentPaddedBothSides) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);  // chunks 0-9
  Add(&p, 20, 0.9f);  // 10-29: starts at 10 * 512 = 5120
  Add(&p, 10, 0.1f);  // 30-39: ends at 30 * 512 = 15360 (4 chunks of silence later: >= 1600)
  EXPECT_EQ(Segment(p, 40 * 512), (std::vector<SpeechSegment>{{5120 - 480, 15360 + 480}}));
}

TEST(SpeechSegmenter, SegmentsNotLongerThanMinSpeechAreDropped) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);
  Add(&p, 5, 0.9f);  // 2560 samples < 4000
  Add(&p, 10, 0.1f);
  EXPECT_TRUE(Segment(p, 25 * 512).empty());
}

TEST(SpeechSegmenter, ShortPauseDoesNotSplitLongPauseDoes) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);
  Add(&p, 10, 0.9f);
  Add(&p, 4, 0.1f);  // 4 chunks: the 5th would be 2048 >= 1600 samples after the pause began
  Add(&p, 10, 0.9f);
  Add(&p, 10, 0.1f);  // ends at chunk 34
  EXPECT_EQ(Segment(p, 44 * 512), (std::vector<SpeechSegment>{{4640, 34 * 512 + 480}}));

  std::vector<float> q;
  Add(&q, 10, 0.1f);
  Add(&q, 10, 0.9f);  // [5120, 10240)
  Add(&q, 5, 0.1f);   // splits
  Add(&q, 10, 0.9f);  // [12800, 17920)
  Add(&q, 10, 0.1f);
  EXPECT_EQ(Segment(q, 45 * 512),
            (std::vector<SpeechSegment>{{4640, 10720}, {12320, 17920 + 480}}));
}

TEST(SpeechSegmenter, ProbabilityBetweenThresholdsKeepsSpeechGoing) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);
  Add(&p, 5, 0.9f);
  Add(&p, 10, 0.4f);  // below 0.5 but not below 0.35: still speech
  Add(&p, 10, 0.1f);  // ends at chunk 25
  EXPECT_EQ(Segment(p, 35 * 512), (std::vector<SpeechSegment>{{4640, 25 * 512 + 480}}));

  // The same with 0.3 ends at chunk 15: 2560 samples, too short.
  std::vector<float> q;
  Add(&q, 10, 0.1f);
  Add(&q, 5, 0.9f);
  Add(&q, 10, 0.3f);
  Add(&q, 10, 0.1f);
  EXPECT_TRUE(Segment(q, 35 * 512).empty());
}

TEST(SpeechSegmenter, SpeechStillGoingEndsAtTheEndOfTheAudio) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);
  Add(&p, 20, 0.9f);
  // 15000 samples: the last chunk was zero-padded; the padded end is clamped to the audio.
  EXPECT_EQ(Segment(p, 15000), (std::vector<SpeechSegment>{{4640, 15000}}));
}

TEST(SpeechSegmenter, CloseSegmentsShareTheGapInsteadOfOverlapping) {
  SegmenterOptions o;
  o.speech_pad_ms = 100;  // 1600 samples: twice that exceeds the 2560-sample gap
  std::vector<float> q;
  Add(&q, 10, 0.1f);
  Add(&q, 10, 0.9f);
  Add(&q, 5, 0.1f);
  Add(&q, 10, 0.9f);
  Add(&q, 10, 0.1f);
  EXPECT_EQ(Segment(q, 45 * 512, o),
            (std::vector<SpeechSegment>{{5120 - 1600, 11520}, {11520, 17920 + 1600}}));
}

TEST(SpeechSegmenter, FinishStartsAfresh) {
  std::vector<float> p;
  Add(&p, 10, 0.1f);
  Add(&p, 20, 0.9f);
  Add(&p, 10, 0.1f);
  SpeechSegmenter s;
  for (int round = 0; round < 2; ++round) {
    for (float v : p) s.Push(v);
    EXPECT_EQ(s.Finish(40 * 512), (std::vector<SpeechSegment>{{4640, 15840}})) << round;
  }
}

}  // namespace
}  // namespace wake_word
