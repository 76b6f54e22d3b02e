#include "ctc.h"

#include <fstream>

namespace ocr {

trinity::Result<std::vector<std::string>> LoadCharset(const std::string& keys_path) {
  std::ifstream f(keys_path, std::ios::binary);
  if (!f) return trinity::Status::NotFound("keys file '" + keys_path + "': cannot open");
  std::vector<std::string> charset = {""};  // the blank
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    charset.push_back(line);
  }
  if (charset.size() == 1) {
    return trinity::Status::InvalidArgument("keys file '" + keys_path + "' is empty");
  }
  charset.push_back(" ");
  return charset;
}

Decoded CtcGreedyDecode(const float* probs, int steps, int classes,
                        const std::vector<std::string>& charset) {
  Decoded out;
  double sum = 0;
  int emitted = 0;
  int previous = -1;
  for (int t = 0; t < steps; ++t) {
    const float* p = probs + static_cast<size_t>(t) * classes;
    int best = 0;
    for (int c = 1; c < classes; ++c) {
      if (p[c] > p[best]) best = c;  // the first maximum, as np.argmax
    }
    if (best != 0 && best != previous) {
      out.text += charset[best];
      sum += p[best];
      ++emitted;
    }
    previous = best;
  }
  out.score = emitted > 0 ? static_cast<float>(sum / emitted) : 0.f;
  return out;
}

}  // namespace ocr
