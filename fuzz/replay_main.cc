// A main() for fuzz targets built without libFuzzer (g++, or clang without TRINITY_FUZZ): runs
// LLVMFuzzerTestOneInput once on every file given, directly or inside the given directories.
// This keeps the targets compiling everywhere and replays the seed corpus (and any crash
// reproducers saved there) as an ordinary test under the sanitizer build.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Hostile inputs may ask for tensors of hundreds of GiB; under ASan let the allocation fail
// (and Trinity report it) as it would without sanitizers, instead of aborting.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

namespace {

int RunFile(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  // Copy into an exactly sized heap block so ASan catches reads one past the end.
  std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(), exact.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int files = 0, errors = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> paths;
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
        if (e.is_regular_file()) paths.push_back(e.path());
      std::sort(paths.begin(), paths.end());  // deterministic order
      for (const auto& p : paths) errors += RunFile(p), ++files;
    } else {
      errors += RunFile(arg), ++files;
    }
  }
  std::printf("replayed %d file(s), %d unreadable\n", files, errors);
  return errors == 0 && files > 0 ? 0 : 1;
}
