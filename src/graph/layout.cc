// The NHWC layout pass (see passes.h). ONNX models are NCHW; XNNPACK computes convolutions in
// NHWC. Converting around every Conv costs two full transposes per Conv, more than many of the
// convolutions themselves on small models. This pass walks the graph once, in topological
// order, and decides per node whether it runs in NHWC:
//   - an f32 2-D Conv or ConvTranspose with constant weights always does (it is where NHWC
//     chains start);
//   - a layout-agnostic op (activations, elementwise arithmetic, pooling, Concat, Pad, Resize)
//     does when one of its data inputs already exists in NHWC and the others can follow
//     (constants are stored permuted, other rank-4 values get a Transpose);
//   - everything else runs as before, on NCHW values, and a Transpose back to NCHW is inserted
//     (once per value) before the first such reader.
// An existing Transpose that converts NHWC to NCHW (tf2onnx models start with one) donates its
// input as the NHWC version of its output, so the model's own transposes cancel.
#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "graph/passes.h"

namespace trinity {
namespace {

// NHWC dim i holds NCHW dim kToNhwc[i]; NCHW axis a lives at NHWC axis kNhwcAxisOf[a].
constexpr int64_t kToNhwc[4] = {0, 2, 3, 1};
constexpr int64_t kToNchw[4] = {0, 3, 1, 2};
constexpr int64_t kNhwcAxisOf[4] = {0, 3, 1, 2};

const std::set<std::string>& UnaryOps() {
  static const std::set<std::string> ops = {
      "Relu", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",      "Elu",
      "Selu", "Softplus",  "Abs",     "Neg",         "Exp",       "Sqrt",      "Clip",
      "Erf",  "Identity",  "Mish",    "Celu",        "Softsign",  "Reciprocal"};
  return ops;
}

const std::set<std::string>& BroadcastOps() {
  static const std::set<std::string> ops = {"Add", "Sub", "Mul",  "Div",   "Max",
                                            "Min", "Sum", "Mean", "PRelu", "Pow"};
  return ops;
}

bool IsPool(const Node& n) {
  if (n.op_type == "GlobalAveragePool" || n.op_type == "GlobalMaxPool") return true;
  if (n.op_type != "MaxPool" && n.op_type != "AveragePool") return false;
  if (n.outputs.size() > 1 && !n.outputs[1].empty()) return false;  // MaxPool Indices
  return n.attr_ints("kernel_shape").size() == 2;
}

// A rank-4 tensor (of any dtype) with its dims permuted by perm (new dim i = old dim perm[i]).
Tensor Permute4(const Tensor& t, const int64_t* perm) {
  const auto& d = t.shape();
  std::vector<int64_t> out_shape = {d[perm[0]], d[perm[1]], d[perm[2]], d[perm[3]]};
  Tensor out = Tensor::Empty(t.dtype(), out_shape);
  const size_t es = dtype_size(t.dtype());
  int64_t in_stride[4];
  in_stride[3] = 1;
  for (int i = 2; i >= 0; --i) in_stride[i] = in_stride[i + 1] * d[i + 1];
  const char* src = static_cast<const char*>(t.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  size_t o = 0;
  for (int64_t a = 0; a < out_shape[0]; ++a)
    for (int64_t b = 0; b < out_shape[1]; ++b)
      for (int64_t c = 0; c < out_shape[2]; ++c)
        for (int64_t e = 0; e < out_shape[3]; ++e, ++o) {
          const int64_t off = a * in_stride[perm[0]] + b * in_stride[perm[1]] +
                              c * in_stride[perm[2]] + e * in_stride[perm[3]];
          std::memcpy(dst + o * es, src + static_cast<size_t>(off) * es, es);
        }
  return out;
}

class NhwcRewriter {
 public:
  explicit NhwcRewriter(Graph& g) : g_(g) {}

  int Run() {
    for (const auto& in : g_.inputs) nchw_.insert(in.name);
    for (const auto& [name, _] : g_.initializers) nchw_.insert(name);
    std::vector<Node> old = std::move(g_.nodes);
    g_.nodes.clear();
    for (Node& n : old) Visit(std::move(n));
    for (const auto& out : g_.outputs) NeedNchw(out.name);
    return rewritten_;
  }

 private:
  int Rank(const std::string& v) const {
    auto info = g_.FindValue(v);
    if (!info || !info->shape.rank_known) return -1;
    return static_cast<int>(info->shape.rank());
  }
  const Tensor* Constant(const std::string& v) const {
    auto it = g_.initializers.find(v);
    if (it == g_.initializers.end()) return nullptr;
    for (const auto& in : g_.inputs)
      if (in.name == v) return nullptr;  // a graph input overrides it
    return &it->second;
  }
  bool HasNhwc(const std::string& v) const { return nhwc_.count(v) != 0; }

  // The NCHW name of v, inserting a Transpose from its NHWC version if needed.
  void NeedNchw(const std::string& v) {
    if (v.empty() || nchw_.count(v) || !HasNhwc(v)) return;
    Node t;
    t.name = v + "@to_nchw";
    t.op_type = "Transpose";
    t.inputs = {nhwc_[v]};
    t.outputs = {v};
    Attribute perm;
    perm.kind = Attribute::Kind::kInts;
    perm.ints.assign(kToNchw, kToNchw + 4);
    t.attrs["perm"] = perm;
    g_.nodes.push_back(std::move(t));
    nchw_.insert(v);
  }

  // The NHWC name of rank-4 value v, inserting a Transpose (or permuting a constant).
  std::string NeedNhwc(const std::string& v) {
    if (HasNhwc(v)) return nhwc_[v];
    const std::string name = v + "@nhwc";
    if (const Tensor* c = Constant(v)) {
      g_.initializers[name] = Permute4(*c, kToNhwc);
    } else {
      Node t;
      t.name = v + "@to_nhwc";
      t.op_type = "Transpose";
      t.inputs = {v};
      t.outputs = {name};
      Attribute perm;
      perm.kind = Attribute::Kind::kInts;
      perm.ints.assign(kToNhwc, kToNhwc + 4);
      t.attrs["perm"] = perm;
      g_.nodes.push_back(std::move(t));
      DeclarePermuted(v, name);
    }
    nhwc_[v] = name;
    return name;
  }

  // A constant of rank <= 4 as the NHWC operand of a broadcasting op: left-padded to rank 4
  // (numpy broadcasting aligns trailing dims), then permuted. Scalars stay as they are.
  std::string BroadcastConstant(const std::string& v, const Tensor& c) {
    if (c.rank() == 0) return v;
    const std::string name = v + "@nhwc_b";
    if (!g_.initializers.count(name)) {
      std::vector<int64_t> shape(4 - c.rank(), 1);
      shape.insert(shape.end(), c.shape().begin(), c.shape().end());
      g_.initializers[name] = Permute4(c.Reshaped(shape), kToNhwc);
    }
    return name;
  }

  void DeclarePermuted(const std::string& nchw, const std::string& nhwc) {
    auto info = g_.FindValue(nchw);
    if (!info || !info->shape.rank_known || info->shape.rank() != 4) return;
    ValueInfo v = *info;
    v.name = nhwc;
    for (int i = 0; i < 4; ++i) v.shape.dims[i] = info->shape.dims[kToNhwc[i]];
    g_.value_info[nhwc] = v;
  }

  // Emits n rewritten to NHWC: its outputs become "<out>@nhwc".
  void EmitNhwc(Node n) {
    n.attrs[kLayoutAttr].kind = Attribute::Kind::kString;
    n.attrs[kLayoutAttr].s = kLayoutNhwc;
    for (auto& out : n.outputs) {
      if (out.empty()) continue;
      const std::string name = out + "@nhwc";
      DeclarePermuted(out, name);
      nhwc_[out] = name;
      out = name;
    }
    g_.nodes.push_back(std::move(n));
    ++rewritten_;
  }

  void EmitNchw(Node n) {
    for (const auto& in : n.inputs) NeedNchw(in);
    for (const auto& [_, a] : n.attrs)
      if (a.g)
        for (const auto& f : a.g->FreeValues()) NeedNchw(f);
    // Transpose(perm = NHWC -> NCHW) of u: u is the NHWC version of the output.
    if (n.op_type == "Transpose" && n.inputs.size() == 1 && n.outputs.size() == 1 &&
        n.attr_ints("perm") == std::vector<int64_t>(kToNchw, kToNchw + 4) &&
        Rank(n.inputs[0]) == 4 && !Constant(n.inputs[0])) {
      nhwc_[n.outputs[0]] = n.inputs[0];
    }
    for (const auto& out : n.outputs)
      if (!out.empty()) nchw_.insert(out);
    g_.nodes.push_back(std::move(n));
  }

  bool ConvEligible(const Node& n) const {
    if ((n.op_type != "Conv" && n.op_type != "ConvTranspose") || !n.domain.empty() ||
        n.inputs.size() < 2 || n.outputs.size() != 1) {
      return false;
    }
    const Tensor* w = Constant(n.inputs[1]);
    if (w == nullptr || w->rank() != 4 || w->dtype() != DType::kF32) return false;
    if (n.inputs.size() > 2 && !n.inputs[2].empty() && !Constant(n.inputs[2])) return false;
    return true;
  }

  // Whether a non-constant data input of a broadcasting op can be had in NHWC.
  bool Followable(const std::string& v) const {
    if (HasNhwc(v)) return true;
    if (const Tensor* c = Constant(v)) return c->rank() <= 4;
    return Rank(v) == 4;
  }

  void Visit(Node n) {
    const std::string& op = n.op_type;
    const bool first_nhwc = !n.inputs.empty() && HasNhwc(n.inputs[0]);
    if (ConvEligible(n)) {
      n.inputs[0] = NeedNhwc(n.inputs[0]);
      return EmitNhwc(std::move(n));
    }
    const bool chain = op == kElementwiseChainOp && n.domain == kTrinityDomain;
    if ((UnaryOps().count(op) || chain || IsPool(n)) && first_nhwc) {
      n.inputs[0] = nhwc_[n.inputs[0]];
      return EmitNhwc(std::move(n));
    }
    if (BroadcastOps().count(op)) {
      bool any = false, all = !n.inputs.empty();
      for (const auto& in : n.inputs) {
        any |= HasNhwc(in);
        all &= !in.empty() && Followable(in);
      }
      if (any && all) {
        for (auto& in : n.inputs) {
          if (HasNhwc(in))
            in = nhwc_[in];
          else if (const Tensor* c = Constant(in))
            in = BroadcastConstant(in, *c);
          else
            in = NeedNhwc(in);
        }
        return EmitNhwc(std::move(n));
      }
    }
    // Transpose(perm = NCHW -> NHWC) of a value that exists in NHWC (tf2onnx models end with
    // one): the NHWC version is the answer, no data moves.
    if (op == "Transpose" && first_nhwc && n.outputs.size() == 1 &&
        n.attr_ints("perm") == std::vector<int64_t>(kToNhwc, kToNhwc + 4)) {
      n.op_type = "Identity";
      n.attrs.clear();
      n.inputs[0] = nhwc_[n.inputs[0]];
      nchw_.insert(n.outputs[0]);
      g_.nodes.push_back(std::move(n));
      return;
    }
    if (op == "Concat" && RewriteConcat(n)) return EmitNhwc(std::move(n));
    if (op == "Pad" && first_nhwc && RewritePad(n)) return EmitNhwc(std::move(n));
    if (op == "Resize" && first_nhwc && RewriteResize(n)) return EmitNhwc(std::move(n));
    EmitNchw(std::move(n));
  }

  bool RewriteConcat(Node& n) {
    bool any = false;
    for (const auto& in : n.inputs) {
      if (in.empty() || !Followable(in) || (Constant(in) && Constant(in)->rank() != 4))
        return false;
      any |= HasNhwc(in);
    }
    int64_t axis = n.attr_int("axis", 1);
    if (axis < 0) axis += 4;
    if (!any || axis < 0 || axis > 3) return false;
    for (auto& in : n.inputs) in = NeedNhwc(in);
    n.attrs["axis"].kind = Attribute::Kind::kInt;
    n.attrs["axis"].i = kNhwcAxisOf[axis];
    return true;
  }

  // pads = [b0..b3, e0..e3] in NCHW order, as an attribute (opset < 11) or a constant input.
  static std::vector<int64_t> PermutePads(const std::vector<int64_t>& p) {
    std::vector<int64_t> out(8);
    for (int i = 0; i < 4; ++i) {
      out[i] = p[kToNhwc[i]];
      out[4 + i] = p[4 + kToNhwc[i]];
    }
    return out;
  }

  bool RewritePad(Node& n) {
    if (g_.opset(n.domain) < 11) {
      auto pads = n.attr_ints("pads");
      if (pads.size() != 8) return false;
      n.attrs["pads"].ints = PermutePads(pads);
    } else {
      if (n.inputs.size() < 2 || n.inputs.size() > 3) return false;  // no `axes` input
      const Tensor* p = Constant(n.inputs[1]);
      if (p == nullptr || p->dtype() != DType::kI64 || p->numel() != 8) return false;
      std::vector<int64_t> pads(p->data<int64_t>(), p->data<int64_t>() + 8);
      const std::string name = n.name + "@pads_nhwc";
      g_.initializers[name] = Tensor::FromVector(DType::kI64, {8}, PermutePads(pads));
      n.inputs[1] = name;
    }
    n.inputs[0] = nhwc_[n.inputs[0]];
    return true;
  }

  // Resize (opset 11+): roi, scales and sizes are per-axis constants; permute them.
  bool RewriteResize(Node& n) {
    if (g_.opset(n.domain) < 11 || n.has_attr("axes")) return false;
    std::vector<std::string> renamed(n.inputs.begin(), n.inputs.end());
    for (size_t i = 1; i < n.inputs.size(); ++i) {
      if (n.inputs[i].empty()) continue;
      const Tensor* c = Constant(n.inputs[i]);
      if (c == nullptr || c->rank() != 1) return false;
      if (c->numel() == 0) continue;       // an empty roi or scales means "not given"
      const int64_t per = i == 1 ? 2 : 1;  // roi holds starts then ends
      if (c->numel() != 4 * per) return false;
      const size_t es = dtype_size(c->dtype());
      Tensor t = Tensor::Empty(c->dtype(), c->shape());
      for (int64_t h = 0; h < per; ++h)
        for (int k = 0; k < 4; ++k)
          std::memcpy(static_cast<char*>(t.raw_data()) + (h * 4 + k) * es,
                      static_cast<const char*>(c->raw_data()) + (h * 4 + kToNhwc[k]) * es, es);
      const std::string name = n.name + "@in" + std::to_string(i) + "_nhwc";
      g_.initializers[name] = std::move(t);
      renamed[i] = name;
    }
    n.inputs = renamed;
    n.inputs[0] = nhwc_[n.inputs[0]];
    return true;
  }

  Graph& g_;
  std::unordered_map<std::string, std::string> nhwc_;  // value -> its NHWC version's name
  std::unordered_set<std::string> nchw_;               // values that exist in NCHW now
  int rewritten_ = 0;
};

}  // namespace

int ConvertToNhwc(Graph& graph) {
  bool any_conv = false;
  for (const Node& n : graph.nodes) any_conv |= n.op_type == "Conv" || n.op_type == "ConvTranspose";
  if (!any_conv) return 0;
  return NhwcRewriter(graph).Run();
}

}  // namespace trinity
