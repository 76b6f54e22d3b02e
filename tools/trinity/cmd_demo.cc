// `trinity demo`: the audio demo, the product's main job. Two spoken clips, made once with
// espeak-ng and cached under CacheDir()/clips, are streamed in 80 ms frames through
// openWakeWord (hey_jarvis and alexa heads) and Silero VAD v5 on Trinity's CPU backend. The
// pipeline is examples/wake_word (the same code as example_wake_word), linked, not copied.
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "audio_pipeline.h"
#include "cli.h"
#include "clip_loader.h"
#include "commands.h"
#include "demo_clips.h"
#include "report.h"

namespace trinity::cli {
namespace {

// The first clip holds a wake word, the second none.
const DemoClip kClips[] = {
    {"hey_jarvis_weather.wav", "hey jarvis, what's the weather like today"},
    {"quick_brown_fox.wav", "the quick brown fox jumps over the lazy dog"},
};

const char* const kModelFiles[] = {"melspectrogram.onnx", "embedding_model.onnx",
                                   "hey_jarvis_v0.1.onnx", "alexa_v0.1.onnx", "silero_vad_v5.onnx"};

// As openWakeWord's predict_clip: silence before the speech lets its start-up frames pass.
constexpr double kPadSeconds = 1.0;

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int RunDemo(int threads) {
  const auto t_start = std::chrono::steady_clock::now();
  const std::string models = ModelsDir();
  const std::string clips = CacheDir() + "/clips";
  for (const char* f : kModelFiles) {
    if (!std::filesystem::exists(models + "/" + f)) {
      std::fprintf(stderr, "error: %s/%s not found; run scripts/fetch_models.sh\n", models.c_str(),
                   f);
      return kExitRuntimeFailure;
    }
  }
  std::printf("Trinity audio demo: openWakeWord (hey_jarvis, alexa) + Silero VAD v5\n");
  std::printf("runs on the CPU backend (%d thread%s per model); models from %s\n", threads,
              threads == 1 ? "" : "s", models.c_str());

  std::string paths[std::size(kClips)];
  for (size_t i = 0; i < std::size(kClips); ++i) {
    bool made = false;
    auto path = EnsureClip(clips, kClips[i], &made);
    if (!path.ok()) return ReportRuntimeError(path.status());
    paths[i] = *path;
    std::printf("clip %zu: %s (%s)\n", i + 1, path->c_str(),
                made ? "made now with espeak-ng" : "reused from the cache");
  }

  wake_word::PipelineOptions options;
  options.models_dir = models;
  options.threads = threads;
  const auto t_setup = std::chrono::steady_clock::now();
  auto pipeline = wake_word::AudioPipeline::Create(options);
  if (!pipeline.ok()) return ReportError(pipeline.status());
  std::printf("models loaded and start-up buffers filled in %.2f s\n", SecondsSince(t_setup));

  for (size_t i = 0; i < std::size(kClips); ++i) {
    auto clip = wake_word::LoadClip16k(paths[i]);
    if (!clip.ok()) return ReportError(clip.status());
    const auto t0 = std::chrono::steady_clock::now();
    auto result = (*pipeline)->Run(wake_word::PadWithSilence(clip->samples, kPadSeconds));
    if (!result.ok()) return ReportRuntimeError(result.status());
    std::printf("\nclip %zu: \"%s\"\n", i + 1, kClips[i].text);
    std::printf(
        "  %d Hz -> 16 kHz, %.2f s; stream = %.1f s silence + clip + %.1f s silence, "
        "%d frames of 80 ms in %.2f s; times from the stream's start\n",
        clip->source_rate, static_cast<double>(clip->samples.size()) / 16000, kPadSeconds,
        kPadSeconds, result->frames, SecondsSince(t0));
    wake_word::PrintStreamResult(stdout, *result, options.detection_threshold);
  }
  std::printf("\n");
  wake_word::PrintLatency(stdout, (*pipeline)->Latency());
  std::printf("total %.2f s\n", SecondsSince(t_start));
  return kExitOk;
}

}  // namespace

void AddDemoCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "demo", "Wake-word detection and speech segments on two spoken clips (needs espeak-ng)");
  static int threads = 1;
  cmd->add_option("--threads,-t", threads, "Threads per model")->check(CLI::Range(1, 1024));
  cmd->callback([exit_code] { *exit_code = RunDemo(threads); });
}

}  // namespace trinity::cli
