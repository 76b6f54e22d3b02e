// The spoken clips `trinity demo` runs on: made once with espeak-ng, then reused from the cache.
#pragma once

#include <string>

#include "trinity/status.h"

namespace trinity::cli {

struct DemoClip {
  const char* file;  // name in the clips directory
  const char* text;  // what espeak-ng says
};

// espeak-ng voice and speed used for the clips (see docs/architecture.md, "The audio demo").
constexpr const char* kEspeakVoice = "en-us";
constexpr const char* kEspeakSpeed = "150";  // words per minute; espeak-ng's default is 175

// Returns the path of `clip` in `dir`, reusing the file when it holds a readable 16-bit mono WAV
// of at least 0.5 s, else making it with espeak-ng (found on PATH, run without a shell). Sets
// *made to whether it was made now. A missing espeak-ng is a RuntimeError naming the package.
Result<std::string> EnsureClip(const std::string& dir, const DemoClip& clip, bool* made);

}  // namespace trinity::cli
