// Devices: the processors Trinity can run on, and what each supports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trinity/model.h"

namespace trinity {

enum class DeviceKind { kCpu, kGpu, kNpu, kDsp };
const char* device_kind_name(DeviceKind k);

struct DeviceInfo {
  std::string id;           // what --device takes: "cpu"
  DeviceKind kind = DeviceKind::kCpu;
  std::string name;         // "x86-64 CPU (AVX2, FMA, F16C), 2 threads"
  std::string api;          // "XNNPACK + own kernels"
  uint64_t memory_bytes = 0;
  bool emulated = false;    // true when the device is implemented on another processor
  std::string note;         // e.g. "reference NPU emulated on the CPU"
};

// Every device found on this machine, in order of discovery (cpu first).
std::vector<DeviceInfo> ListDevices();

// Whether `device` can run each node of a model.
struct NodeSupport {
  std::string node;     // "Conv 'conv1'"
  std::string op_type;
  bool supported = false;
  std::string reason;   // why not, when unsupported
};
Result<std::vector<NodeSupport>> CheckSupport(const Model& model, const std::string& device);

}  // namespace trinity
