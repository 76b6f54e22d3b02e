// Each subcommand registers itself on the CLI11 app; its callback stores the exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace trinity::cli {

void AddInfoCommand(CLI::App& app, int* exit_code);
void AddRunCommand(CLI::App& app, int* exit_code);
void AddDevicesCommand(CLI::App& app, int* exit_code);
void AddDemoCommand(CLI::App& app, int* exit_code);
void AddOcrCommand(CLI::App& app, int* exit_code);

}  // namespace trinity::cli
