#include "import/onnx/onnx_importer.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>
#include <unordered_set>

#include "core/dtype_dispatch.h"

namespace trinity {
namespace {

constexpr int64_t kMaxIrVersion = 10;
constexpr int kMaxOpset = 18;
// Tensors in a model are capped so that a forged header cannot make us allocate terabytes.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 34;  // 16 GiB

DType FromOnnxType(int32_t t) {
  switch (t) {
    case onnx::TensorProto::FLOAT: return DType::kF32;
    case onnx::TensorProto::FLOAT16: return DType::kF16;
    case onnx::TensorProto::BFLOAT16: return DType::kBF16;
    case onnx::TensorProto::DOUBLE: return DType::kF64;
    case onnx::TensorProto::INT8: return DType::kI8;
    case onnx::TensorProto::UINT8: return DType::kU8;
    case onnx::TensorProto::INT16: return DType::kI16;
    case onnx::TensorProto::UINT16: return DType::kU16;
    case onnx::TensorProto::INT32: return DType::kI32;
    case onnx::TensorProto::UINT32: return DType::kU32;
    case onnx::TensorProto::INT64: return DType::kI64;
    case onnx::TensorProto::UINT64: return DType::kU64;
    case onnx::TensorProto::BOOL: return DType::kBool;
    default: return DType::kUndefined;
  }
}

std::string OnnxTypeName(int32_t t) {
  if (onnx::TensorProto::DataType_IsValid(t))
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(t));
  return "data type " + std::to_string(t);
}

class Importer {
 public:
  explicit Importer(const ImportOptions& o) : options_(o) {}

  Result<Graph> Import(onnx::ModelProto& model);

 private:
  Result<Graph> ConvertGraph(const onnx::GraphProto& g, const std::map<std::string, int>& opsets,
                             const std::unordered_set<std::string>& outer_names, int depth);
  Status ConvertNode(const onnx::NodeProto& n, size_t index, const std::map<std::string, int>& opsets,
                     const std::unordered_set<std::string>& visible, int depth, Node* out);
  Result<ValueInfo> ConvertValueInfo(const onnx::ValueInfoProto& v, const char* what);

  const ImportOptions& options_;
};

Result<Tensor> TensorFromProto(const onnx::TensorProto& p, const std::string& base_dir);

template <class Src, class Dst>
void CopyConverted(const Src& src, Dst* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<Dst>(src.Get(static_cast<int>(i)));
}

}  // namespace

Result<Tensor> ImportTensorProto(const onnx::TensorProto& p, const std::string& base_dir);

namespace {

Result<Tensor> TensorFromProto(const onnx::TensorProto& p, const std::string& base_dir) {
  const std::string what = "tensor '" + p.name() + "'";
  const DType dt = FromOnnxType(p.data_type());
  if (dt == DType::kUndefined) {
    return Status::Unsupported(what + " has unsupported dtype " + OnnxTypeName(p.data_type()));
  }
  if (p.has_segment()) return Status::Unsupported(what + " is segmented");
  std::vector<int64_t> shape(p.dims().begin(), p.dims().end());
  const int64_t n = shape_numel(shape);
  if (n < 0) return Status::CorruptModel(what + " has invalid dims " + shape_to_string(shape));
  const size_t esz = dtype_size(dt);
  if (n > kMaxTensorBytes / static_cast<int64_t>(esz)) {
    return Status::CorruptModel(what + " dims " + shape_to_string(shape) + " are absurdly large");
  }
  const size_t nbytes = static_cast<size_t>(n) * esz;

  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& kv : p.external_data()) {
      if (kv.key() == "location") location = kv.value();
      else if (kv.key() == "offset") offset = std::atoll(kv.value().c_str());
      else if (kv.key() == "length") length = std::atoll(kv.value().c_str());
    }
    if (location.empty() || base_dir.empty()) {
      return Status::CorruptModel(what + " uses external data without a location next to the model");
    }
    std::filesystem::path path = std::filesystem::path(base_dir) / location;
    if (location.find("..") != std::string::npos || std::filesystem::path(location).is_absolute()) {
      return Status::CorruptModel(what + " external data location '" + location + "' escapes the model directory");
    }
    // A symlink inside the model directory may still point outside it; resolve and re-check.
    {
      std::error_code ec1, ec2;
      const auto real = std::filesystem::weakly_canonical(path, ec1);
      const auto real_base = std::filesystem::weakly_canonical(base_dir, ec2);
      if (!ec1 && !ec2) {
        auto [b, p_it] = std::mismatch(real_base.begin(), real_base.end(), real.begin(), real.end());
        if (b != real_base.end() && !b->empty()) {
          return Status::CorruptModel(what + " external data location '" + location +
                                      "' escapes the model directory (resolves to '" + real.string() + "')");
        }
      }
    }
    TRY_ASSIGN(auto file, Buffer::MapFile(path.string()));
    if (length < 0) length = static_cast<int64_t>(nbytes);
    if (offset < 0 || static_cast<size_t>(length) != nbytes ||
        static_cast<size_t>(offset) + nbytes > file->size()) {
      return Status::CorruptModel(what + " external data (offset " + std::to_string(offset) + ", " +
                                  std::to_string(nbytes) + " bytes) does not fit in '" + location + "'");
    }
    // Weights stay in the mapped file: no copy, shared by every session (and later processes).
    return Tensor(dt, shape, Buffer::Slice(file, static_cast<size_t>(offset), nbytes));
  }

  // Check that the bytes are really there before allocating: a few forged header bytes must
  // not make us allocate (and zero) up to kMaxTensorBytes only to find the data missing.
  const std::string described = std::string(dtype_name(dt)) + shape_to_string(shape);
  if (p.has_raw_data()) {
    if (p.raw_data().size() != nbytes) {
      return Status::CorruptModel(what + " has " + std::to_string(p.raw_data().size()) +
                                  " bytes of raw data, expected " + std::to_string(nbytes) +
                                  " for " + described);
    }
    TRY_ASSIGN(Tensor t, Tensor::Create(dt, shape));
    if (nbytes) std::memcpy(t.raw_data(), p.raw_data().data(), nbytes);
    return t;
  }
  int have = 0;
  switch (dt) {
    case DType::kF32: have = p.float_data_size(); break;
    case DType::kF64: have = p.double_data_size(); break;
    case DType::kI64: have = p.int64_data_size(); break;
    case DType::kU32:
    case DType::kU64: have = p.uint64_data_size(); break;
    default: have = p.int32_data_size(); break;  // i32 and every type narrower than 32 bits
  }
  if (have != n) {
    return Status::CorruptModel(what + " has " + std::to_string(have) + " values, expected " +
                                std::to_string(n) + " for " + described);
  }
  TRY_ASSIGN(Tensor t, Tensor::Create(dt, shape));
  switch (dt) {
    case DType::kF32:
      CopyConverted(p.float_data(), t.data<float>(), n);
      break;
    case DType::kF64:
      CopyConverted(p.double_data(), t.data<double>(), n);
      break;
    case DType::kI64:
      CopyConverted(p.int64_data(), t.data<int64_t>(), n);
      break;
    case DType::kU32:
    case DType::kU64:
      if (dt == DType::kU32) CopyConverted(p.uint64_data(), t.data<uint32_t>(), n);
      else CopyConverted(p.uint64_data(), t.data<uint64_t>(), n);
      break;
    default:  // int32_data carries i32 and every type narrower than 32 bits
      visit_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
          for (int64_t i = 0; i < n; ++i)
            t.data<T>()[i] = T::FromBits(static_cast<uint16_t>(p.int32_data(static_cast<int>(i))));
        } else if constexpr (std::is_integral_v<T>) {
          CopyConverted(p.int32_data(), t.data<T>(), n);
        }
      });
  }
  return t;
}

}  // namespace

Result<Tensor> ImportTensorProto(const onnx::TensorProto& p, const std::string& base_dir) {
  return TensorFromProto(p, base_dir);
}

namespace {

Result<ValueInfo> Importer::ConvertValueInfo(const onnx::ValueInfoProto& v, const char* what) {
  ValueInfo info;
  info.name = v.name();
  if (!v.has_type()) return info;  // type unknown: allowed for intermediate values
  const auto& type = v.type();
  if (!type.has_tensor_type()) {
    const char* kind = type.has_sequence_type() ? "sequence" : type.has_optional_type() ? "optional"
                       : type.has_map_type() ? "map" : type.has_sparse_tensor_type() ? "sparse tensor" : "non-tensor";
    return Status::Unsupported(std::string(what) + " '" + v.name() + "' has " + kind +
                               " type; only tensors are supported");
  }
  const auto& tt = type.tensor_type();
  info.dtype = FromOnnxType(tt.elem_type());
  if (info.dtype == DType::kUndefined) {
    return Status::Unsupported(std::string(what) + " '" + v.name() + "' has unsupported dtype " +
                               OnnxTypeName(tt.elem_type()));
  }
  if (tt.has_shape()) {
    info.shape.rank_known = true;
    for (const auto& d : tt.shape().dim()) {
      if (d.has_dim_value()) {
        if (d.dim_value() < 0) {
          return Status::CorruptModel(std::string(what) + " '" + v.name() + "' has negative dim " +
                                      std::to_string(d.dim_value()));
        }
        info.shape.dims.push_back(Dim::Known(d.dim_value()));
      } else if (d.has_dim_param()) {
        info.shape.dims.push_back(Dim::Symbolic(d.dim_param()));
      } else {
        info.shape.dims.push_back(Dim::Unknown());
      }
    }
    // Known dims whose product overflows (or exceeds the tensor cap) can never be fed; say so
    // at load time rather than letting callers compute sizes from them.
    std::vector<int64_t> known;
    for (const auto& d : info.shape.dims)
      if (d.known()) known.push_back(d.value);
    const int64_t n = shape_numel(known);
    if (n < 0 || n > kMaxTensorBytes / static_cast<int64_t>(dtype_size(info.dtype))) {
      return Status::CorruptModel(std::string(what) + " '" + v.name() + "' has absurdly large dims " +
                                  info.shape.ToString());
    }
  }
  return info;
}

Status Importer::ConvertNode(const onnx::NodeProto& n, size_t index,
                             const std::map<std::string, int>& opsets,
                             const std::unordered_set<std::string>& visible, int depth, Node* out) {
  out->op_type = n.op_type();
  out->domain = n.domain() == "ai.onnx" ? "" : n.domain();
  out->name = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
  if (out->op_type.empty()) return Status::CorruptModel("node #" + std::to_string(index) + " has no op_type");
  if (!opsets.count(out->domain)) {
    return Status::CorruptModel(out->Label() + " uses domain '" + out->domain +
                                "' that the model does not import");
  }
  out->inputs.assign(n.input().begin(), n.input().end());
  out->outputs.assign(n.output().begin(), n.output().end());
  for (const auto& a : n.attribute()) {
    Attribute attr;
    switch (a.type()) {
      case onnx::AttributeProto::INT: attr.kind = Attribute::Kind::kInt; attr.i = a.i(); break;
      case onnx::AttributeProto::FLOAT: attr.kind = Attribute::Kind::kFloat; attr.f = a.f(); break;
      case onnx::AttributeProto::STRING: attr.kind = Attribute::Kind::kString; attr.s = a.s(); break;
      case onnx::AttributeProto::INTS:
        attr.kind = Attribute::Kind::kInts;
        attr.ints.assign(a.ints().begin(), a.ints().end());
        break;
      case onnx::AttributeProto::FLOATS:
        attr.kind = Attribute::Kind::kFloats;
        attr.floats.assign(a.floats().begin(), a.floats().end());
        break;
      case onnx::AttributeProto::STRINGS:
        attr.kind = Attribute::Kind::kStrings;
        attr.strings.assign(a.strings().begin(), a.strings().end());
        break;
      case onnx::AttributeProto::TENSOR: {
        attr.kind = Attribute::Kind::kTensor;
        auto t = TensorFromProto(a.t(), options_.base_dir);
        if (!t.ok()) return t.status().WithContext(out->Label() + " attribute '" + a.name() + "'");
        attr.t = std::move(t).value();
        break;
      }
      case onnx::AttributeProto::GRAPH: {
        attr.kind = Attribute::Kind::kGraph;
        auto g = ConvertGraph(a.g(), opsets, visible, depth + 1);
        if (!g.ok()) return g.status().WithContext(out->Label() + " subgraph '" + a.name() + "'");
        attr.g = std::make_shared<Graph>(std::move(g).value());
        break;
      }
      case onnx::AttributeProto::UNDEFINED:
        return Status::CorruptModel(out->Label() + " attribute '" + a.name() + "' has no type");
      default:
        // Sparse tensors, type protos and graph lists: no op we run needs them.
        attr.kind = Attribute::Kind::kStrings;
        attr.strings = {"<unsupported attribute type " + std::to_string(a.type()) + ">"};
        if (a.type() == onnx::AttributeProto::SPARSE_TENSOR || a.type() == onnx::AttributeProto::GRAPHS ||
            a.type() == onnx::AttributeProto::TYPE_PROTO || a.type() == onnx::AttributeProto::TYPE_PROTOS ||
            a.type() == onnx::AttributeProto::SPARSE_TENSORS || a.type() == onnx::AttributeProto::TENSORS) {
          return Status::Unsupported(out->Label() + " attribute '" + a.name() + "' has type " +
                                     onnx::AttributeProto::AttributeType_Name(a.type()));
        }
        return Status::CorruptModel(out->Label() + " attribute '" + a.name() + "' has invalid type " +
                                    std::to_string(a.type()));
    }
    out->attrs[a.name()] = std::move(attr);
  }
  return Status::Ok();
}

Result<Graph> Importer::ConvertGraph(const onnx::GraphProto& g, const std::map<std::string, int>& opsets,
                                     const std::unordered_set<std::string>& outer_names, int depth) {
  if (depth > 32) return Status::CorruptModel("subgraphs nested more than 32 deep");
  Graph graph;
  graph.name = g.name();
  graph.opsets = opsets;
  std::unordered_set<std::string> visible = outer_names;

  for (const auto& init : g.initializer()) {
    auto t = TensorFromProto(init, options_.base_dir);
    if (!t.ok()) return t.status().WithContext("initializer '" + init.name() + "'");
    if (init.name().empty()) return Status::CorruptModel("an initializer has no name");
    graph.initializers[init.name()] = std::move(t).value();
    visible.insert(init.name());
  }
  for (const auto& in : g.input()) {
    if (graph.initializers.count(in.name())) continue;  // IR < 4 lists initializers as inputs
    TRY_ASSIGN(ValueInfo v, ConvertValueInfo(in, "graph input"));
    if (v.name.empty()) return Status::CorruptModel("a graph input has no name");
    graph.inputs.push_back(std::move(v));
    visible.insert(in.name());
  }
  for (const auto& out : g.output()) {
    TRY_ASSIGN(ValueInfo v, ConvertValueInfo(out, "graph output"));
    graph.outputs.push_back(std::move(v));
  }
  for (const auto& vi : g.value_info()) {
    auto v = ConvertValueInfo(vi, "value");
    if (v.ok() && v->dtype != DType::kUndefined) graph.value_info[vi.name()] = std::move(v).value();
  }

  // Nodes: every input must be produced somewhere (graph, initializer, outer scope); every
  // output name is produced once.
  std::unordered_set<std::string> produced;
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto& o : g.node(i).output())
      if (!o.empty() && !produced.insert(o).second) {
        return Status::CorruptModel("value '" + o + "' is produced by more than one node");
      }
  for (const auto& p : produced) visible.insert(p);
  graph.nodes.resize(static_cast<size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    Node& node = graph.nodes[static_cast<size_t>(i)];
    TRY_STATUS(ConvertNode(g.node(i), static_cast<size_t>(i), opsets, visible, depth, &node));
    for (const auto& in : node.inputs) {
      if (!in.empty() && !visible.count(in)) {
        return Status::CorruptModel(node.Label() + " reads '" + in + "', which no node, input or initializer defines");
      }
    }
  }
  for (const auto& o : graph.outputs) {
    if (!visible.count(o.name)) return Status::CorruptModel("graph output '" + o.name + "' is never produced");
  }
  TRY_STATUS(graph.TopologicalSort());
  return graph;
}

// Attributes that must be positive wherever they appear (Conv, ConvTranspose, pools, ...).
Status CheckAttributesForInference(const onnx::GraphProto& g, int depth) {
  if (depth > 32) return Status::CorruptModel("subgraphs nested more than 32 deep");
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    for (const auto& a : n.attribute()) {
      if (a.name() == "strides" || a.name() == "dilations") {
        for (int64_t v : a.ints()) {
          if (v < 1) {
            const std::string label = n.op_type() + " '" + (n.name().empty() ? "#" + std::to_string(i) : n.name()) + "'";
            return Status::CorruptModel(label + " attribute '" + a.name() + "' has value " + std::to_string(v) +
                                        "; it must be positive");
          }
        }
      }
      if (a.has_g()) TRY_STATUS(CheckAttributesForInference(a.g(), depth + 1));
      for (const auto& sg : a.graphs()) TRY_STATUS(CheckAttributesForInference(sg, depth + 1));
    }
  }
  return Status::Ok();
}

// Whether every node (subgraphs included) matches its ONNX schema: input and output counts,
// required and known attributes and their types. libonnx's shape-inference functions assume
// this and read through null or out-of-range data otherwise (found by fuzz/fuzz_onnx_loader:
// Scan without num_scan_inputs, Conv with misspelt attributes), so such models skip inference;
// the kernels then report what is wrong when the session is created or run.
// Declared rank of a graph input or initializer (-1 when unknown).
int DeclaredRank(const onnx::GraphProto& g, const std::string& name) {
  for (const auto& t : g.initializer())
    if (t.name() == name) return t.dims_size();
  for (const auto& v : g.input())
    if (v.name() == name && v.type().has_tensor_type() && v.type().tensor_type().has_shape())
      return v.type().tensor_type().shape().dim_size();
  return -1;
}

// libonnx's convPoolShapeInference indexes the data input's dims by the kernel's spatial rank
// without checking that they agree (out-of-bounds read). Catches the case where both ranks are
// declared; a mismatch reached through intermediate values is still libonnx's to handle.
bool ConvRanksAgree(const onnx::GraphProto& g, const onnx::NodeProto& n) {
  static const std::set<std::string> kConvPool = {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv",
                                                  "MaxPool", "AveragePool", "LpPool"};
  if (!kConvPool.count(n.op_type()) || n.input_size() < 1) return true;
  const int data_rank = DeclaredRank(g, n.input(0));
  int kernel_rank = -1;
  for (const auto& a : n.attribute())
    if (a.name() == "kernel_shape") kernel_rank = a.ints_size();
  if (kernel_rank < 0) {
    const int w = n.op_type() == "QLinearConv" ? 3 : 1;
    if (n.input_size() > w) {
      const int r = DeclaredRank(g, n.input(w));
      if (r >= 0) kernel_rank = r - 2;
    }
  }
  if (data_rank >= 0 && data_rank < 2) return false;
  return data_rank < 0 || kernel_rank < 0 || kernel_rank == data_rank - 2;
}

bool NodesMatchSchemas(const onnx::GraphProto& g, const std::map<std::string, int>& opsets) {
  for (const auto& n : g.node()) {
    if (!ConvRanksAgree(g, n)) return false;
    const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
    auto it = opsets.find(domain);
    if (it != opsets.end()) {
      const auto* schema = onnx::OpSchemaRegistry::Schema(n.op_type(), it->second, domain);
      if (schema != nullptr) {
        try {
          schema->Verify(n);
        } catch (const std::exception&) {
          return false;
        }
      }
    }
    for (const auto& a : n.attribute()) {
      if (a.has_g() && !NodesMatchSchemas(a.g(), opsets)) return false;
      for (const auto& sg : a.graphs())
        if (!NodesMatchSchemas(sg, opsets)) return false;
    }
  }
  return true;
}

Result<Graph> Importer::Import(onnx::ModelProto& model) {
  if (!model.has_graph()) return Status::CorruptModel("model has no graph");
  if (model.ir_version() < 3 || model.ir_version() > kMaxIrVersion) {
    return Status::Unsupported("IR version " + std::to_string(model.ir_version()) +
                               " is not supported (supported: 3 to " + std::to_string(kMaxIrVersion) + ")");
  }
  std::map<std::string, int> opsets;
  for (const auto& o : model.opset_import()) {
    const std::string d = o.domain() == "ai.onnx" ? "" : o.domain();
    if (d.empty() && (o.version() < 1 || o.version() > kMaxOpset)) {
      return Status::Unsupported("ai.onnx opset " + std::to_string(o.version()) +
                                 " is not supported (supported: up to " + std::to_string(kMaxOpset) + ")");
    }
    if (o.version() > std::numeric_limits<int>::max() || o.version() < 0) {
      return Status::CorruptModel("opset version " + std::to_string(o.version()) + " is invalid");
    }
    opsets[d] = static_cast<int>(o.version());
  }
  if (!opsets.count("")) opsets[""] = 1;  // ONNX: a model without an ai.onnx import is opset 1

  // libonnx's shape inference divides by strides (SIGFPE on 0) and trusts other attributes,
  // so reject values no op accepts before it sees them.
  TRY_STATUS(CheckAttributesForInference(model.graph(), 0));
  if (options_.infer_shapes && NodesMatchSchemas(model.graph(), opsets)) {
    // Types of intermediate values help backends decide support before running. Shape
    // inference knows opsets up to 17 here; a failure only means fewer known types.
    try {
      onnx::shape_inference::InferShapes(model);
    } catch (const std::exception&) {
    }
  }
  return ConvertGraph(model.graph(), opsets, {}, 0);
}

}  // namespace

Result<Graph> ImportOnnxModel(const void* data, size_t size, const ImportOptions& options) {
  if (size == 0) return Status::CorruptModel("model is empty (0 bytes)");
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return Status::Unsupported("model larger than 2 GiB must keep its weights as external data");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(data, static_cast<int>(size))) {
    return Status::CorruptModel("not a valid ONNX protobuf (" + std::to_string(size) +
                                " bytes): truncated or corrupt file, or messages (subgraphs) nested "
                                "more than protobuf's recursion limit of 100");
  }
  Importer importer(options);
  try {
    return importer.Import(model);
  } catch (const std::bad_alloc&) {
    return Status::CorruptModel("model needs more memory than is available to load");
  } catch (const std::exception& e) {
    return Status::CorruptModel(std::string("model is invalid: ") + e.what());
  }
}

Result<Graph> ImportOnnxFile(const std::string& path) {
  TRY_ASSIGN(auto file, Buffer::MapFile(path));
  ImportOptions options;
  options.base_dir = std::filesystem::path(path).parent_path().string();
  if (options.base_dir.empty()) options.base_dir = ".";
  auto g = ImportOnnxModel(file->data(), file->size(), options);
  if (!g.ok()) return g.status().WithContext("'" + path + "'");
  return g;
}

}  // namespace trinity

namespace trinity {

Result<Tensor> ParseTensorProto(const void* data, size_t size, const std::string& what,
                                std::string* name) {
  onnx::TensorProto p;
  if (size > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !p.ParseFromArray(data, static_cast<int>(size))) {
    return Status::InvalidArgument(what + " is not a valid ONNX TensorProto");
  }
  if (name) *name = p.name();
  auto t = ImportTensorProto(p, "");
  if (!t.ok()) return t.status().WithContext(what);
  return t;
}

Result<Tensor> LoadTensorProtoFile(const std::string& path, std::string* name) {
  TRY_ASSIGN(auto file, Buffer::MapFile(path));
  return ParseTensorProto(file->data(), file->size(), "'" + path + "'", name);
}

}  // namespace trinity
