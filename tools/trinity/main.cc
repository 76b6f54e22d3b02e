// trinity: the command-line tool. `trinity --help` lists the subcommands.
#include <CLI/CLI.hpp>

#include "cli.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Trinity: heterogeneous on-device inference runtime"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "trinity 0.1.0");
  int exit_code = trinity::cli::kExitOk;
  trinity::cli::AddInfoCommand(app, &exit_code);
  trinity::cli::AddRunCommand(app, &exit_code);
  trinity::cli::AddDevicesCommand(app, &exit_code);
  trinity::cli::AddDemoCommand(app, &exit_code);
  trinity::cli::AddOcrCommand(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    // CLI11 returns 0 for --help/--version; usage errors are ours to map to 2.
    return rc == 0 ? 0 : trinity::cli::kExitBadInput;
  }
  return exit_code;
}
