// wake_word: wake-word detection and voice activity detection on WAV files, with Trinity.
// Copy this folder as a starting point for an audio app.
//
//   example_wake_word MODELS_DIR CLIP.wav [CLIP.wav ...]
//
// MODELS_DIR holds melspectrogram.onnx, embedding_model.onnx, hey_jarvis_v0.1.onnx,
// alexa_v0.1.onnx and silero_vad_v5.onnx (scripts/fetch_models.sh puts them in
// ~/.cache/trinity/models). Each clip (16-bit PCM mono WAV, any rate) is resampled to 16 kHz,
// padded with 1 s of silence each side as openWakeWord's predict_clip does, and streamed in
// 80 ms frames through openWakeWord and Silero VAD v5. Prints speech segments, wake-word
// detections and per-model latency.
#include <cstdio>
#include <string>

#include "audio_pipeline.h"
#include "clip_loader.h"
#include "report.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODELS_DIR CLIP.wav [CLIP.wav ...]\n", argv[0]);
    return 2;
  }
  wake_word::PipelineOptions options;
  options.models_dir = argv[1];
  // Models load once; every clip then runs from a fresh stream state.
  auto pipeline = wake_word::AudioPipeline::Create(options);
  if (!pipeline.ok()) {
    std::fprintf(stderr, "error: %s\n", pipeline.status().ToString().c_str());
    return 1;
  }
  std::printf("openWakeWord + Silero VAD v5 on Trinity's CPU backend\n");
  constexpr double kPadSeconds = 1.0;
  for (int i = 2; i < argc; ++i) {
    auto clip = wake_word::LoadClip16k(argv[i]);
    if (!clip.ok()) {
      std::fprintf(stderr, "error: %s\n", clip.status().ToString().c_str());
      return 2;
    }
    auto result = (*pipeline)->Run(wake_word::PadWithSilence(clip->samples, kPadSeconds));
    if (!result.ok()) {
      std::fprintf(stderr, "error: %s\n", result.status().ToString().c_str());
      return 1;
    }
    std::printf("%s: %d Hz, %.2f s; stream = %.1f s silence + clip + %.1f s silence\n", argv[i],
                clip->source_rate, static_cast<double>(clip->samples.size()) / 16000, kPadSeconds,
                kPadSeconds);
    wake_word::PrintStreamResult(stdout, *result, options.detection_threshold);
  }
  wake_word::PrintLatency(stdout, (*pipeline)->Latency());
  return 0;
}
