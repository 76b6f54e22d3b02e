#include "wake_word_head.h"

namespace wake_word {

trinity::Result<std::unique_ptr<WakeWordHead>> WakeWordHead::Open(const std::string& models_dir,
                                                                  const std::string& file,
                                                                  const std::string& name,
                                                                  int threads) {
  const std::string path = models_dir + "/" + file;
  auto session = TimedSession::Open(path, name, threads);
  if (!session.ok()) return session.status();
  const auto& inputs = (*session)->model().inputs();
  if (inputs.size() != 1 || inputs[0].shape.rank() != 3 || !inputs[0].shape.dims[1].known() ||
      inputs[0].shape.dims[2].value != kEmbeddingSize) {
    return trinity::Status::InvalidArgument(
        "'" + path + "' is not an openWakeWord head: expected one input f32[1, N, 96], got " +
        (inputs.empty() ? std::string("no inputs") : inputs[0].Describe()));
  }
  const int frames = static_cast<int>(inputs[0].shape.dims[1].value);
  return std::unique_ptr<WakeWordHead>(
      new WakeWordHead(std::move(*session), inputs[0].name, frames));
}

trinity::Result<float> WakeWordHead::Predict(const WakeWordFeatures& features) {
  auto x = features.LastEmbeddings(frames_);
  if (!x.ok()) return x.status();
  auto out = session_->Run({{input_, *x}});
  if (!out.ok()) return out.status();
  const trinity::Tensor& score = out->begin()->second;  // f32[1, 1]
  if (score.dtype() != trinity::DType::kF32 || score.numel() < 1) {
    return trinity::Status::InvalidArgument(name() + ": expected an f32 score, got " +
                                            score.Describe());
  }
  // The model still runs during warm-up (as in openWakeWord, so timings compare); only its
  // score is discarded.
  const bool warming_up = predictions_ < kWarmupPredictions;
  ++predictions_;
  return warming_up ? 0.0f : score.data<float>()[0];
}

}  // namespace wake_word
