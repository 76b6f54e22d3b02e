#include "trinity/device.h"

#include <cpuinfo.h>
#include <unistd.h>

#include <thread>

#include "backends/cpu/kernel.h"
#include "runtime/graph_executor.h"

namespace trinity {

const char* device_kind_name(DeviceKind k) {
  switch (k) {
    case DeviceKind::kCpu: return "cpu";
    case DeviceKind::kGpu: return "gpu";
    case DeviceKind::kNpu: return "npu";
    case DeviceKind::kDsp: return "dsp";
  }
  return "unknown";
}

namespace {

DeviceInfo CpuDevice() {
  DeviceInfo d;
  d.id = "cpu";
  d.kind = DeviceKind::kCpu;
  std::string model = "CPU";
  std::string features;
  if (cpuinfo_initialize()) {
    const cpuinfo_package* p = cpuinfo_get_package(0);
    if (p && p->name[0]) model = p->name;
#if defined(__x86_64__)
    if (cpuinfo_has_x86_avx2()) features += " AVX2";
    if (cpuinfo_has_x86_fma3()) features += " FMA";
    if (cpuinfo_has_x86_f16c()) features += " F16C";
    if (cpuinfo_has_x86_avx512f()) features += " AVX512F";
#endif
  }
  d.name = model + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads" +
           (features.empty() ? "" : "," + features);
  d.api = "XNNPACK + Trinity kernels";
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) d.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  d.emulated = false;
  return d;
}

}  // namespace

std::vector<DeviceInfo> ListDevices() { return {CpuDevice()}; }

Result<std::vector<NodeSupport>> CheckSupport(const Model& model, const std::string& device) {
  if (device != "cpu") return Status::NotFound("device '" + device + "' is not available");
  std::vector<NodeSupport> out;
  const KernelRegistry& reg = KernelRegistry::Cpu();
  auto refused = FindUnsupportedNodes(model.graph(), reg);
  model.graph().ForEachNode([&](const Node& n, const Graph&) {
    NodeSupport s{n.Label(), n.op_type, true, ""};
    for (const auto& r : refused)
      if (r.label == s.node) {
        s.supported = false;
        s.reason = r.reason;
      }
    out.push_back(std::move(s));
  });
  return out;
}

}  // namespace trinity
