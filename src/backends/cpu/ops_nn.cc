// Neural-network ops: registration and the helpers shared by ops_nn_*.cc.
#include <xnnpack.h>

#include <algorithm>
#include <mutex>

#include "backends/cpu/ops_nn_common.h"

namespace trinity {

bool XnnReady() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] { ok = xnn_initialize(nullptr) == xnn_status_success; });
  return ok;
}

std::string CheckAutoPad(const Node& n) {
  const std::string ap = n.attr_string("auto_pad", "NOTSET");
  if (ap != "NOTSET" && ap != "SAME_UPPER" && ap != "SAME_LOWER" && ap != "VALID") {
    return n.op_type + ": auto_pad '" + ap +
           "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID";
  }
  return {};
}

namespace {

Status ReadPerDim(const KernelContext& ctx, const char* name, size_t rank, int64_t def,
                  std::vector<int64_t>* out) {
  *out = ctx.node().attr_ints(name, std::vector<int64_t>(rank, def));
  if (out->empty()) out->assign(rank, def);
  if (out->size() != rank) {
    return ctx.Error(std::string(name) + " has " + std::to_string(out->size()) +
                     " values, expected " + std::to_string(rank));
  }
  return Status::Ok();
}

}  // namespace

Result<WindowGeometry> ComputeWindow(const KernelContext& ctx, const std::vector<int64_t>& in,
                                     const std::vector<int64_t>& kernel, bool ceil_mode) {
  const size_t r = in.size();
  WindowGeometry g;
  g.in = in;
  g.kernel = ctx.node().attr_ints("kernel_shape", kernel);
  if (g.kernel.empty()) g.kernel = kernel;
  if (g.kernel.size() != r) {
    return ctx.Error("kernel_shape has " + std::to_string(g.kernel.size()) +
                     " dims but the input has " + std::to_string(r) + " spatial dims");
  }
  TRY_STATUS(ReadPerDim(ctx, "strides", r, 1, &g.strides));
  TRY_STATUS(ReadPerDim(ctx, "dilations", r, 1, &g.dilations));
  std::vector<int64_t> pads = ctx.node().attr_ints("pads", std::vector<int64_t>(2 * r, 0));
  if (pads.empty()) pads.assign(2 * r, 0);
  if (pads.size() != 2 * r) {
    return ctx.Error("pads has " + std::to_string(pads.size()) + " values, expected " +
                     std::to_string(2 * r));
  }
  const std::string ap = ctx.node().attr_string("auto_pad", "NOTSET");
  if (std::string why = CheckAutoPad(ctx.node()); !why.empty()) return ctx.Error(why);
  g.pads_begin.resize(r);
  g.pads_end.resize(r);
  g.out.resize(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t k = g.kernel[i], s = g.strides[i], d = g.dilations[i];
    if (k <= 0 || s <= 0 || d <= 0) {
      return ctx.Error("kernel_shape, strides and dilations must be positive (dim " +
                       std::to_string(i) + ": kernel " + std::to_string(k) + ", stride " +
                       std::to_string(s) + ", dilation " + std::to_string(d) + ")");
    }
    if (k > (int64_t{1} << 30) || d > (int64_t{1} << 30) || s > (int64_t{1} << 30)) {
      return ctx.Error("kernel_shape/strides/dilations value too large");
    }
    const int64_t ext = (k - 1) * d + 1;
    if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
      g.out[i] = (in[i] + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (g.out[i] - 1) * s + ext - in[i]);
      const int64_t small = total / 2;
      g.pads_begin[i] = ap == "SAME_UPPER" ? small : total - small;
      g.pads_end[i] = total - g.pads_begin[i];
      continue;
    }
    if (ap == "VALID") {
      g.pads_begin[i] = g.pads_end[i] = 0;
    } else {
      g.pads_begin[i] = pads[i];
      g.pads_end[i] = pads[i + r];
      if (pads[i] < 0 || pads[i + r] < 0 || pads[i] > (int64_t{1} << 30) ||
          pads[i + r] > (int64_t{1} << 30)) {
        return ctx.Error("pads value out of range: " + shape_to_string(pads));
      }
    }
    const int64_t span = in[i] + g.pads_begin[i] + g.pads_end[i] - ext;
    if (span < 0) {
      return ctx.Error("window of extent " + std::to_string(ext) + " is larger than padded input " +
                       std::to_string(in[i] + g.pads_begin[i] + g.pads_end[i]) + " in dim " +
                       std::to_string(i));
    }
    g.out[i] = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    // A window that would start entirely in the end padding is dropped (PyTorch/ORT rule).
    if (ceil_mode && (g.out[i] - 1) * s >= in[i] + g.pads_begin[i]) --g.out[i];
  }
  return g;
}

void RegisterNnOps(KernelRegistry& r) {
  RegisterNnConvOps(r);
  RegisterNnGemmOps(r);
  RegisterNnPoolOps(r);
  RegisterNnResizeOps(r);
  RegisterNnDetectOps(r);
}

}  // namespace trinity
