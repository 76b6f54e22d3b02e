#include "silero_vad.h"

namespace wake_word {

trinity::Result<std::unique_ptr<SileroVad>> SileroVad::Open(const std::string& models_dir,
                                                            int threads) {
  auto session = TimedSession::Open(models_dir + "/silero_vad_v5.onnx", "silero_vad", threads);
  if (!session.ok()) return session.status();
  return std::unique_ptr<SileroVad>(new SileroVad(std::move(*session)));
}

void SileroVad::Reset() {
  context_.assign(kVadContext, 0.0f);
  pending_.clear();
  state_ = trinity::Tensor::FromVector(trinity::DType::kF32, {2, 1, 128},
                                       std::vector<float>(2 * 128, 0.0f));
}

trinity::Status SileroVad::Push(const int16_t* samples, size_t n, std::vector<float>* probs) {
  for (size_t i = 0; i < n; ++i) {
    // Silero expects float audio in [-1, 1), as torchaudio loads 16-bit PCM.
    pending_.push_back(static_cast<float>(samples[i]) / 32768.0f);
    if (pending_.size() == kVadChunk) TRY_STATUS(RunChunk(probs));
  }
  return trinity::Status::Ok();
}

trinity::Status SileroVad::Flush(std::vector<float>* probs) {
  if (pending_.empty()) return trinity::Status::Ok();
  pending_.resize(kVadChunk, 0.0f);
  return RunChunk(probs);
}

trinity::Status SileroVad::RunChunk(std::vector<float>* probs) {
  std::vector<float> x = context_;
  x.insert(x.end(), pending_.begin(), pending_.end());
  context_.assign(pending_.end() - kVadContext, pending_.end());
  pending_.clear();
  auto out = session_->Run({
      {"input", trinity::Tensor::FromVector(trinity::DType::kF32, {1, kVadChunk + kVadContext}, x)},
      {"state", state_},
      {"sr", trinity::Tensor::FromVector(trinity::DType::kI64, {}, std::vector<int64_t>{16000})},
  });
  if (!out.ok()) return out.status();
  auto prob = out->find("output");
  auto state = out->find("stateN");
  if (prob == out->end() || state == out->end() || prob->second.numel() != 1 ||
      prob->second.dtype() != trinity::DType::kF32) {
    return trinity::Status::InvalidArgument(
        "silero_vad_v5.onnx: expected outputs 'output' f32[1,1] and 'stateN'");
  }
  // Copy: the output tensor's buffer belongs to this run.
  state_ = state->second.Clone();
  probs->push_back(prob->second.data<float>()[0]);
  return trinity::Status::Ok();
}

}  // namespace wake_word
