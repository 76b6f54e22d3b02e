// Running a built binary as a child process for black-box tests of the CLI and the examples.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace trinity_test {

// What a child process did.
struct ProcResult {
  int exit_code = -1;  // -1 when it did not exit normally (e.g. crashed)
  std::string out, err;
};

// The whole file, or "" when it cannot be read.
std::string ReadFile(const std::string& path);

// Runs `binary args...` without a shell (so arguments may hold spaces), stdout and stderr
// redirected to files in `dir`. `env` overrides or adds environment variables of the child.
ProcResult RunProcess(const std::string& binary, const std::vector<std::string>& args,
                      const std::filesystem::path& dir,
                      const std::map<std::string, std::string>& env = {});

}  // namespace trinity_test
