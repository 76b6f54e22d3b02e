#include <cstdio>

#include "cli.h"
#include "commands.h"

namespace trinity::cli {

void AddDevicesCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("devices", "List the processors Trinity can run on");
  cmd->callback([exit_code] {
    std::printf("%-6s %-5s %-10s %-9s %s\n", "id", "kind", "memory", "emulated", "name / api");
    for (const DeviceInfo& d : ListDevices()) {
      std::printf("%-6s %-5s %7.1f GiB %-9s %s (%s)%s%s\n", d.id.c_str(), device_kind_name(d.kind),
                  static_cast<double>(d.memory_bytes) / (1024.0 * 1024 * 1024),
                  d.emulated ? "yes" : "no", d.name.c_str(), d.api.c_str(),
                  d.note.empty() ? "" : ": ", d.note.c_str());
    }
    *exit_code = kExitOk;
  });
}

}  // namespace trinity::cli
