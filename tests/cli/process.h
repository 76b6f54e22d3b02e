// Running a built binary as a child process and capturing what it did: the helper every
// black-box test of the command-line tools uses.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cli_test {

// What a child process did.
struct ProcResult {
  int exit_code = -1;  // -1 when it did not exit normally (e.g. crashed)
  std::string out, err;
};

std::string ReadFile(const std::string& path);

// Runs `binary args...` without a shell (so arguments may hold spaces), stdout and stderr
// redirected to files in `dir`.
ProcResult RunProcess(const std::string& binary, const std::vector<std::string>& args,
                      const std::filesystem::path& dir);

}  // namespace cli_test
