// End-to-end test of `trinity demo`: espeak-ng makes the two clips into a fresh cache, the
// real models run, and the output must show "hey jarvis" detected (> 0.5) in clip 1, no wake
// word in clip 2, and speech in both. Skips only when the models or espeak-ng are absent (CI
// has both, so there it runs).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace {

namespace fs = std::filesystem;

// Where `trinity` looks for models (tools/trinity/cli_common.cc, ModelsDir).
std::string ModelsDir() {
  if (const char* d = std::getenv("TRINITY_MODELS_DIR"); d && *d) return d;
  if (const char* d = std::getenv("TRINITY_CACHE_DIR"); d && *d) return std::string(d) + "/models";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/trinity/models";
}

bool OnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// The text of clip `n`'s section: from its "clip n: \"" header to the next blank line.
std::string Section(const std::string& out, int n) {
  const std::string header = "\nclip " + std::to_string(n) + ": \"";
  const size_t begin = out.find(header);
  if (begin == std::string::npos) return "";
  const size_t end = out.find("\n\n", begin + 1);
  return out.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// "max score: alexa 0.001 hey_jarvis 0.973" -> {alexa: 0.001, hey_jarvis: 0.973}.
std::map<std::string, double> MaxScores(const std::string& section) {
  std::map<std::string, double> scores;
  const size_t at = section.find("max score:");
  if (at == std::string::npos) return scores;
  std::stringstream ss(section.substr(at + 10, section.find('\n', at) - at - 10));
  std::string name;
  double v = 0;
  while (ss >> name >> v) scores[name] = v;
  return scores;
}

// Scores of every "detection: NAME at T s score S" line for `model`.
std::vector<double> Detections(const std::string& section, const std::string& model) {
  std::vector<double> scores;
  const std::regex re("detection: " + model + " at [0-9.]+ s score ([0-9.]+)");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), re);
       it != std::sregex_iterator(); ++it) {
    scores.push_back(std::stod((*it)[1]));
  }
  return scores;
}

// Lines that carry results (not timings), to compare two runs.
std::string ResultLines(const std::string& section) {
  std::stringstream in(section), out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("speech:") != std::string::npos || line.find("detection:") != std::string::npos ||
        line.find("max score:") != std::string::npos) {
      out << line << "\n";
    }
  }
  return out.str();
}

class DemoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* f : {"melspectrogram.onnx", "embedding_model.onnx", "hey_jarvis_v0.1.onnx",
                          "alexa_v0.1.onnx", "silero_vad_v5.onnx"}) {
      if (!fs::exists(ModelsDir() + "/" + f)) {
        GTEST_SKIP() << ModelsDir() << "/" << f << " absent: run scripts/fetch_models.sh";
      }
    }
    std::string tmpl = (fs::temp_directory_path() / "trinity_demo_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  // `trinity demo` with a fresh cache for clips and the real models.
  trinity_test::ProcResult Demo(std::map<std::string, std::string> env = {}) {
    env.emplace("TRINITY_CACHE_DIR", (dir_ / "cache").string());
    env.emplace("TRINITY_MODELS_DIR", ModelsDir());
    return trinity_test::RunProcess(TRINITY_CLI_PATH, {"demo"}, dir_, env);
  }
  fs::path dir_;
};

TEST_F(DemoTest, DetectsHeyJarvisOnlyInTheFirstClipAndSpeechInBoth) {
  if (!OnPath("espeak-ng")) GTEST_SKIP() << "espeak-ng not on PATH (Debian package espeak-ng)";
  const trinity_test::ProcResult r = Demo();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("CPU backend"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("made now with espeak-ng"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "cache" / "clips" / "hey_jarvis_weather.wav"));

  const std::string clip1 = Section(r.out, 1), clip2 = Section(r.out, 2);
  ASSERT_FALSE(clip1.empty()) << r.out;
  ASSERT_FALSE(clip2.empty()) << r.out;
  const std::vector<double> jarvis = Detections(clip1, "hey_jarvis");
  ASSERT_FALSE(jarvis.empty()) << clip1;
  for (double s : jarvis) EXPECT_GT(s, 0.5) << clip1;
  EXPECT_TRUE(Detections(clip1, "alexa").empty()) << clip1;
  EXPECT_NE(clip2.find("detection: none"), std::string::npos) << clip2;
  const auto max2 = MaxScores(clip2);
  ASSERT_EQ(max2.size(), 2u) << clip2;
  EXPECT_LE(max2.at("hey_jarvis"), 0.5) << clip2;
  EXPECT_LE(max2.at("alexa"), 0.5) << clip2;
  EXPECT_GT(MaxScores(clip1).at("hey_jarvis"), 0.5) << clip1;
  // At least one "start-end s" segment per clip.
  const std::regex segment("speech: [0-9.]+-[0-9.]+ s");
  EXPECT_TRUE(std::regex_search(clip1, segment)) << clip1;
  EXPECT_TRUE(std::regex_search(clip2, segment)) << clip2;
  for (const char* model : {"melspectrogram", "embedding", "hey_jarvis", "alexa", "silero_vad"}) {
    EXPECT_NE(r.out.find(std::string("  ") + model), std::string::npos) << "latency of " << model;
  }

  // A second run reuses the cached clips and, being deterministic, gives the same results.
  const trinity_test::ProcResult again = Demo();
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("reused from the cache"), std::string::npos) << again.out;
  EXPECT_EQ(ResultLines(Section(again.out, 1)), ResultLines(clip1));
  EXPECT_EQ(ResultLines(Section(again.out, 2)), ResultLines(clip2));
}

TEST_F(DemoTest, MissingEspeakExitsOneNamingThePackage) {
  fs::create_directories(dir_ / "empty_bin");
  const trinity_test::ProcResult r = Demo({{"PATH", (dir_ / "empty_bin").string()}});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("espeak-ng not found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("package"), std::string::npos) << r.err;
}

}  // namespace
