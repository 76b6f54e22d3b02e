#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"

namespace trinity::cli {
namespace {

int RunInfo(const std::string& path, bool json) {
  auto model = Model::Load(path);
  if (!model.ok()) return ReportError(model.status());
  const Model& m = **model;
  const auto devices = ListDevices();
  // Per op type and device: how many nodes are refused, and the first reason.
  std::map<std::string, std::map<std::string, std::pair<int, std::string>>> refused;
  for (const DeviceInfo& d : devices) {
    auto support = CheckSupport(m, d.id);
    if (!support.ok()) return ReportError(support.status());
    for (const NodeSupport& s : *support) {
      auto& entry = refused[s.op_type][d.id];
      if (!s.supported && entry.first++ == 0) entry.second = s.reason;
    }
  }
  const auto histogram = m.OpHistogram();
  if (json) {
    nlohmann::json j;
    j["model"] = path;
    j["opset"] = m.opset();
    j["parameters"] = m.ParameterCount();
    for (const auto& v : m.inputs())
      j["inputs"].push_back(
          {{"name", v.name}, {"dtype", dtype_name(v.dtype)}, {"shape", v.shape.ToString()}});
    for (const auto& v : m.outputs())
      j["outputs"].push_back(
          {{"name", v.name}, {"dtype", dtype_name(v.dtype)}, {"shape", v.shape.ToString()}});
    for (const auto& [op, count] : histogram) {
      nlohmann::json o = {{"op", op}, {"count", count}};
      for (const DeviceInfo& d : devices) {
        const auto& r = refused[op][d.id];
        o["support"][d.id] = r.first == 0 ? nlohmann::json("yes") : nlohmann::json(r.second);
      }
      j["ops"].push_back(o);
    }
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("model: %s\nopset: %d\nparameters: %lld\n", path.c_str(), m.opset(),
              static_cast<long long>(m.ParameterCount()));
  std::printf("inputs:\n");
  for (const auto& v : m.inputs()) std::printf("  %s: %s\n", v.name.c_str(), v.Describe().c_str());
  std::printf("outputs:\n");
  for (const auto& v : m.outputs()) std::printf("  %s: %s\n", v.name.c_str(), v.Describe().c_str());
  std::printf("ops (%zu types):\n  %-28s %6s", histogram.size(), "op", "count");
  for (const DeviceInfo& d : devices) std::printf("  %-5s", d.id.c_str());
  std::printf("\n");
  std::vector<std::string> reasons;
  for (const auto& [op, count] : histogram) {
    std::printf("  %-28s %6d", op.c_str(), count);
    for (const DeviceInfo& d : devices) {
      const auto& r = refused[op][d.id];
      std::printf("  %-5s", r.first == 0 ? "yes" : r.first == count ? "no" : "some");
      if (r.first) reasons.push_back(d.id + " " + op + ": " + r.second);
    }
    std::printf("\n");
  }
  for (const auto& r : reasons) std::printf("  refused: %s\n", r.c_str());
  return kExitOk;
}

}  // namespace

void AddInfoCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("info", "Show a model's inputs, outputs, ops and device support");
  static std::string path;
  static bool json = false;
  cmd->add_option("model", path, "ONNX model file")->required();
  cmd->add_flag("--json", json, "Print JSON");
  cmd->callback([exit_code] { *exit_code = RunInfo(path, json); });
}

}  // namespace trinity::cli
