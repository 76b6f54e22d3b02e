// Neural-network ops: registration and the helpers shared by ops_nn_*.cc.
#include <xnnpack.h>

#include <algorithm>
#include <cstring>
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

// ---------------------------------------------------------------------------------------------
// XNNPACK operator cache.

void XnnOpDeleter::operator()(xnn_operator* op) const {
  if (op != nullptr) xnn_delete_operator(op);
}

XnnOpCache& XnnOpCache::Get() {
  static XnnOpCache* c = new XnnOpCache();  // never destroyed: avoids exit-order issues
  return *c;
}
std::shared_ptr<CachedXnnOp> XnnOpCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  it->second.last_use = ++tick_;
  return it->second.op;
}
std::shared_ptr<CachedXnnOp> XnnOpCache::Insert(const std::string& key,
                                                std::shared_ptr<CachedXnnOp> op) {
  std::lock_guard<std::mutex> l(mu_);
  auto [it, inserted] = map_.try_emplace(key, Entry{op, ++tick_});
  if (!inserted) return it->second.op;  // another thread created it first
  if (map_.size() > kCapacity) {
    auto oldest = map_.begin();
    for (auto i = map_.begin(); i != map_.end(); ++i) {
      if (i->second.last_use < oldest->second.last_use) oldest = i;
    }
    map_.erase(oldest);  // in-flight users still hold their shared_ptr
  }
  return op;
}

uint64_t HashBytes(const void* data, size_t n) {
  constexpr uint64_t kP = 0x9E3779B97F4A7C15ull;
  uint64_t h[4] = {n, 0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull};
  const auto* p = static_cast<const uint8_t*>(data);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * l, 8);
      h[l] = (h[l] ^ w) * kP;
      h[l] ^= h[l] >> 29;
    }
  }
  for (; i < n; ++i) h[0] = (h[0] ^ p[i]) * kP;
  uint64_t r = 0;
  for (int l = 0; l < 4; ++l) {
    r = (r ^ h[l]) * kP;
    r ^= r >> 32;
  }
  return r;
}

void AppendKey(std::string* key, int64_t v) { key->append(reinterpret_cast<const char*>(&v), 8); }

// Appends the identity of a weight tensor to the key; true when it must be kept alive.
bool AppendWeightIdentity(std::string* key, const Tensor* t, bool is_constant) {
  if (t == nullptr) {
    AppendKey(key, 0);
    return false;
  }
  AppendKey(key, reinterpret_cast<int64_t>(t->raw_data()));
  const bool immutable =
      is_constant || (t->buffer() && t->buffer()->domain() == MemoryDomain::kMappedFile);
  AppendKey(key, immutable ? 0 : static_cast<int64_t>(HashBytes(t->raw_data(), t->nbytes())));
  return immutable;
}

void RegisterNnOps(KernelRegistry& r) {
  RegisterNnConvOps(r);
  RegisterNnGemmOps(r);
  RegisterNnPoolOps(r);
  RegisterNnResizeOps(r);
  RegisterNnDetectOps(r);
}

}  // namespace trinity
