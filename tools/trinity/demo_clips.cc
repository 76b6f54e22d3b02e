#include "demo_clips.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "clip_loader.h"

extern char** environ;

namespace trinity::cli {
namespace {

// A clip this short cannot be the sentence: a previous run was cut off or the file is junk.
constexpr size_t kMinClipSamples = 8000;

bool UsableClip(const std::string& path) {
  auto clip = wake_word::LoadClip16k(path);
  return clip.ok() && clip->samples.size() >= kMinClipSamples;
}

// Runs espeak-ng to write `text` as a WAV file at `out`.
Status RunEspeak(const std::string& text, const std::string& out) {
  std::vector<std::string> args = {"espeak-ng",  "-v", kEspeakVoice, "-s",
                                   kEspeakSpeed, "-w", out,          text};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  // posix_spawnp searches PATH; glibc reports a failed exec (e.g. ENOENT) as its return value.
  const int rc = posix_spawnp(&pid, "espeak-ng", nullptr, nullptr, argv.data(), environ);
  if (rc == ENOENT) {
    return Status::RuntimeError(
        "espeak-ng not found on PATH; the demo makes its speech clips with it: install the "
        "'espeak-ng' package (apt-get install espeak-ng)");
  }
  if (rc != 0) return Status::RuntimeError("cannot start espeak-ng: " + std::string(strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return Status::RuntimeError("waiting for espeak-ng: " + std::string(strerror(errno)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::RuntimeError("espeak-ng failed (" +
                                (WIFEXITED(status)
                                     ? "exit code " + std::to_string(WEXITSTATUS(status))
                                     : std::string("killed by a signal")) +
                                ") making '" + out + "'");
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> EnsureClip(const std::string& dir, const DemoClip& clip, bool* made) {
  namespace fs = std::filesystem;
  const std::string path = dir + "/" + clip.file;
  *made = false;
  if (UsableClip(path)) return path;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Status::RuntimeError("cannot create clips directory '" + dir + "': " + ec.message());
  // Written under a temporary name and renamed, so an interrupted run never leaves a partial
  // clip that a later run would reuse.
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  const Status st = RunEspeak(clip.text, tmp);
  if (!st.ok()) {
    fs::remove(tmp, ec);
    return st;
  }
  if (!UsableClip(tmp)) {
    fs::remove(tmp, ec);
    return Status::RuntimeError("espeak-ng wrote no usable 16-bit mono WAV for '" + path + "'");
  }
  fs::rename(tmp, path, ec);
  if (ec) return Status::RuntimeError("cannot move clip into '" + path + "': " + ec.message());
  *made = true;
  return path;
}

}  // namespace trinity::cli
