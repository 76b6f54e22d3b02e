// Printing pipeline results, in the format `trinity demo` and example_wake_word share (tests
// parse it: keep "speech:", "detection:", "max score:" and "latency" lines stable).
#pragma once

#include <cstdio>
#include <vector>

#include "audio_pipeline.h"

namespace wake_word {

// Speech segments, detections and each head's highest score; times from the stream's start.
void PrintStreamResult(std::FILE* out, const StreamResult& r, float threshold);
// One line per model: calls, median and total milliseconds.
void PrintLatency(std::FILE* out, const std::vector<LatencyStats>& stats);

}  // namespace wake_word
