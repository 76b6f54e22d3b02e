#include "audio_pipeline.h"

#include <algorithm>

namespace wake_word {

trinity::Result<std::unique_ptr<AudioPipeline>> AudioPipeline::Create(
    const PipelineOptions& options) {
  std::unique_ptr<AudioPipeline> p(new AudioPipeline(options));
  auto features = WakeWordFeatures::Create(options.models_dir, options.threads);
  if (!features.ok()) return features.status();
  p->features_ = std::move(*features);
  p->features_->ClearTimings();
  for (const auto& [file, name] : options.heads) {
    auto head = WakeWordHead::Open(options.models_dir, file, name, options.threads);
    if (!head.ok()) return head.status();
    p->heads_.push_back(std::move(*head));
  }
  auto vad = SileroVad::Open(options.models_dir, options.threads);
  if (!vad.ok()) return vad.status();
  p->vad_ = std::move(*vad);
  return p;
}

trinity::Result<StreamResult> AudioPipeline::Run(const std::vector<int16_t>& samples) {
  features_->Reset();
  for (auto& h : heads_) h->Reset();
  vad_->Reset();
  SpeechSegmenter segmenter(options_.vad);
  StreamResult r;
  r.samples = static_cast<int64_t>(samples.size());
  std::vector<float> probs;
  for (size_t pos = 0; pos + kFrameSamples <= samples.size(); pos += kFrameSamples) {
    const int16_t* frame = samples.data() + pos;
    TRY_STATUS(features_->PushFrame(frame));
    for (auto& h : heads_) {
      TRY_ASSIGN(const float score, h->Predict(*features_));
      r.scores[h->name()].push_back(score);
    }
    TRY_STATUS(vad_->Push(frame, kFrameSamples, &probs));
    ++r.frames;
  }
  const size_t tail = static_cast<size_t>(r.frames) * kFrameSamples;
  TRY_STATUS(vad_->Push(samples.data() + tail, samples.size() - tail, &probs));
  TRY_STATUS(vad_->Flush(&probs));
  for (float p : probs) segmenter.Push(p);
  r.speech = segmenter.Finish(r.samples);

  for (const auto& h : heads_) {
    const std::vector<float>& s = r.scores[h->name()];
    r.max_score[h->name()] = s.empty() ? 0.0f : *std::max_element(s.begin(), s.end());
    // One detection per run of frames above the threshold, at the run's best frame.
    for (size_t i = 0; i < s.size();) {
      if (s[i] <= options_.detection_threshold) {
        ++i;
        continue;
      }
      size_t best = i;
      for (; i < s.size() && s[i] > options_.detection_threshold; ++i) {
        if (s[i] > s[best]) best = i;
      }
      r.detections.push_back(
          {h->name(), static_cast<double>((best + 1) * kFrameSamples) / kSampleRate, s[best]});
    }
  }
  std::sort(r.detections.begin(), r.detections.end(),
            [](const Detection& a, const Detection& b) { return a.seconds < b.seconds; });
  return r;
}

std::vector<LatencyStats> AudioPipeline::Latency() const {
  std::vector<LatencyStats> out = {features_->mel().Stats(), features_->embedding().Stats()};
  for (const auto& h : heads_) out.push_back(h->session().Stats());
  out.push_back(vad_->session().Stats());
  return out;
}

}  // namespace wake_word
