#include "ort_session.h"

#include <onnxruntime_c_api.h>

#include <cstring>
#include <mutex>

namespace trinity::bench {
namespace {

// The API table of the loaded library, or nullptr when it lacks the version we compiled for.
const OrtApi* Api() {
  static const OrtApi* api = OrtGetApiBase()->GetApi(ORT_API_VERSION);
  return api;
}

// Turns an ORT error into a Status (freeing it); `call` names the API function.
Status Check(OrtStatus* st, const char* call, StatusCode code = StatusCode::kRuntimeError) {
  if (st == nullptr) return Status::Ok();
  Status out(code, std::string("onnxruntime: ") + call + ": " + Api()->GetErrorMessage(st));
  Api()->ReleaseStatus(st);
  return out;
}

// Owns one ORT object; `release` is the OrtApi member that frees it.
template <class T, void (*OrtApi::*release)(T*)>
class OrtPtr {
 public:
  OrtPtr() = default;
  OrtPtr(const OrtPtr&) = delete;
  OrtPtr& operator=(const OrtPtr&) = delete;
  OrtPtr(OrtPtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  OrtPtr& operator=(OrtPtr&& o) noexcept {
    reset(o.p_);
    o.p_ = nullptr;
    return *this;
  }
  ~OrtPtr() { reset(); }
  T** out() {
    reset();
    return &p_;
  }
  T* get() const { return p_; }
  void reset(T* p = nullptr) {
    if (p_ != nullptr && p_ != p) (Api()->*release)(p_);
    p_ = p;
  }

 private:
  T* p_ = nullptr;
};

using SessionOptionsPtr = OrtPtr<OrtSessionOptions, &OrtApi::ReleaseSessionOptions>;
using SessionPtr = OrtPtr<OrtSession, &OrtApi::ReleaseSession>;
using MemoryInfoPtr = OrtPtr<OrtMemoryInfo, &OrtApi::ReleaseMemoryInfo>;
using ValuePtr = OrtPtr<OrtValue, &OrtApi::ReleaseValue>;
using TypeInfoPtr = OrtPtr<OrtTypeInfo, &OrtApi::ReleaseTypeInfo>;
using ShapeInfoPtr = OrtPtr<OrtTensorTypeAndShapeInfo, &OrtApi::ReleaseTensorTypeAndShapeInfo>;

// ORT keeps one environment per process (CreateEnv hands back the same one); sessions share it
// and keep it alive, so it is released after the last session.
Result<std::shared_ptr<OrtEnv>> SharedEnv() {
  static std::mutex mu;
  static std::weak_ptr<OrtEnv> weak;
  std::lock_guard<std::mutex> lock(mu);
  if (auto env = weak.lock()) return env;
  OrtEnv* raw = nullptr;
  TRY_STATUS(
      Check(Api()->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "trinity-bench", &raw), "CreateEnv"));
  std::shared_ptr<OrtEnv> env(raw, [](OrtEnv* e) { Api()->ReleaseEnv(e); });
  weak = env;
  return env;
}

ONNXTensorElementDataType ToOrt(DType t) {
  switch (t) {
    case DType::kF32:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
    case DType::kF16:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
    case DType::kBF16:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16;
    case DType::kF64:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE;
    case DType::kI8:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
    case DType::kU8:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
    case DType::kI16:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16;
    case DType::kU16:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16;
    case DType::kI32:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    case DType::kU32:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32;
    case DType::kI64:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    case DType::kU64:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64;
    case DType::kBool:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
    default:
      return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
  }
}

DType FromOrt(ONNXTensorElementDataType t) {
  for (DType d :
       {DType::kF32, DType::kF16, DType::kBF16, DType::kF64, DType::kI8, DType::kU8, DType::kI16,
        DType::kU16, DType::kI32, DType::kU32, DType::kI64, DType::kU64, DType::kBool}) {
    if (ToOrt(d) == t) return d;
  }
  return DType::kUndefined;
}

Result<GraphOptimizationLevel> ParseGraphOpt(const std::string& s) {
  if (s == "disable") return ORT_DISABLE_ALL;
  if (s == "basic") return ORT_ENABLE_BASIC;
  if (s == "extended") return ORT_ENABLE_EXTENDED;
  if (s == "all") return ORT_ENABLE_ALL;
  return Status::InvalidArgument("graph optimisation level '" + s +
                                 "' is not one of disable, basic, extended, all");
}

// Names, element types and shapes of the session's inputs (`inputs` true) or outputs.
Status GetIoInfo(OrtSession* session, bool inputs, std::vector<OrtIoInfo>* out) {
  const OrtApi* api = Api();
  OrtAllocator* alloc = nullptr;
  TRY_STATUS(Check(api->GetAllocatorWithDefaultOptions(&alloc), "GetAllocatorWithDefaultOptions"));
  size_t n = 0;
  TRY_STATUS(Check(
      inputs ? api->SessionGetInputCount(session, &n) : api->SessionGetOutputCount(session, &n),
      "SessionGetCount"));
  for (size_t i = 0; i < n; ++i) {
    OrtIoInfo io;
    char* name = nullptr;
    TRY_STATUS(Check(inputs ? api->SessionGetInputName(session, i, alloc, &name)
                            : api->SessionGetOutputName(session, i, alloc, &name),
                     "SessionGetName"));
    io.name = name;
    TRY_STATUS(Check(api->AllocatorFree(alloc, name), "AllocatorFree"));
    TypeInfoPtr type_info;
    TRY_STATUS(Check(inputs ? api->SessionGetInputTypeInfo(session, i, type_info.out())
                            : api->SessionGetOutputTypeInfo(session, i, type_info.out()),
                     "SessionGetTypeInfo"));
    const OrtTensorTypeAndShapeInfo* tensor_info = nullptr;  // owned by type_info
    TRY_STATUS(Check(api->CastTypeInfoToTensorInfo(type_info.get(), &tensor_info),
                     "CastTypeInfoToTensorInfo"));
    if (tensor_info != nullptr) {
      ONNXTensorElementDataType type;
      TRY_STATUS(Check(api->GetTensorElementType(tensor_info, &type), "GetTensorElementType"));
      io.dtype = FromOrt(type);
      size_t rank = 0;
      TRY_STATUS(Check(api->GetDimensionsCount(tensor_info, &rank), "GetDimensionsCount"));
      io.shape.resize(rank);
      TRY_STATUS(Check(api->GetDimensions(tensor_info, io.shape.data(), rank), "GetDimensions"));
    }
    out->push_back(std::move(io));
  }
  return Status::Ok();
}

}  // namespace

std::string OrtIoInfo::Describe() const {
  std::string s = dtype == DType::kUndefined ? "?" : dtype_name(dtype);
  s += "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + (shape[i] < 0 ? "?" : std::to_string(shape[i]));
  return s + "]";
}

struct OrtModelSession::Handles {
  std::shared_ptr<OrtEnv> env;
  SessionPtr session;
  MemoryInfoPtr cpu_memory;
  std::vector<Tensor> input_tensors;  // the bytes ORT reads; kept alive while bound
  std::vector<ValuePtr> input_values;
  std::vector<const OrtValue*> input_ptrs;
  std::vector<const char*> input_names, output_names;
  std::vector<ValuePtr> outputs;
};

OrtModelSession::OrtModelSession() : h_(std::make_unique<Handles>()) {}
OrtModelSession::~OrtModelSession() = default;

std::string OrtModelSession::Version() { return OrtGetApiBase()->GetVersionString(); }

Result<std::unique_ptr<OrtModelSession>> OrtModelSession::Create(const std::string& model_path,
                                                                 const OrtOptions& options) {
  if (Api() == nullptr) {
    return Status::Unsupported("the ONNX Runtime library (" + Version() +
                               ") does not provide API version " + std::to_string(ORT_API_VERSION));
  }
  TRY_ASSIGN(GraphOptimizationLevel level, ParseGraphOpt(options.graph_opt));
  std::unique_ptr<OrtModelSession> s(new OrtModelSession());
  const OrtApi* api = Api();
  TRY_ASSIGN(s->h_->env, SharedEnv());
  SessionOptionsPtr opts;
  TRY_STATUS(Check(api->CreateSessionOptions(opts.out()), "CreateSessionOptions"));
  TRY_STATUS(Check(api->SetIntraOpNumThreads(opts.get(), options.intra_op_threads),
                   "SetIntraOpNumThreads"));
  TRY_STATUS(Check(api->SetInterOpNumThreads(opts.get(), 1), "SetInterOpNumThreads"));
  TRY_STATUS(
      Check(api->SetSessionExecutionMode(opts.get(), ORT_SEQUENTIAL), "SetSessionExecutionMode"));
  TRY_STATUS(Check(api->SetSessionGraphOptimizationLevel(opts.get(), level),
                   "SetSessionGraphOptimizationLevel"));
  if (!options.allow_spinning) {
    TRY_STATUS(Check(api->AddSessionConfigEntry(opts.get(), "session.intra_op.allow_spinning", "0"),
                     "AddSessionConfigEntry"));
  }
  TRY_STATUS(Check(
      api->CreateSession(s->h_->env.get(), model_path.c_str(), opts.get(), s->h_->session.out()),
      "CreateSession", StatusCode::kInvalidArgument));
  TRY_STATUS(
      Check(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, s->h_->cpu_memory.out()),
            "CreateCpuMemoryInfo"));
  TRY_STATUS(GetIoInfo(s->h_->session.get(), true, &s->inputs_));
  TRY_STATUS(GetIoInfo(s->h_->session.get(), false, &s->outputs_));
  for (const OrtIoInfo& io : s->outputs_) s->h_->output_names.push_back(io.name.c_str());
  s->h_->outputs.resize(s->outputs_.size());
  return s;
}

Status OrtModelSession::SetInputs(const std::map<std::string, Tensor>& inputs) {
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const OrtIoInfo& io : inputs_) known = known || io.name == name;
    if (!known) {
      std::string names;
      for (const OrtIoInfo& io : inputs_)
        names += (names.empty() ? "" : ", ") + io.name + " " + io.Describe();
      return Status::InvalidArgument("model has no input '" + name + "' (inputs: " + names + ")");
    }
  }
  Handles& h = *h_;
  h.input_tensors.clear();
  h.input_values.clear();
  h.input_ptrs.clear();
  h.input_names.clear();
  for (const OrtIoInfo& io : inputs_) {
    auto it = inputs.find(io.name);
    if (it == inputs.end()) {
      return Status::InvalidArgument("missing input '" + io.name + "' (expects " + io.Describe() +
                                     ")");
    }
    const Tensor& t = it->second;
    bool shape_ok = t.rank() == io.shape.size();
    for (size_t i = 0; shape_ok && i < io.shape.size(); ++i)
      shape_ok = io.shape[i] < 0 || io.shape[i] == t.dim(i);
    if (t.dtype() != io.dtype || !shape_ok) {
      return Status::InvalidArgument("input '" + io.name + "': expected " + io.Describe() +
                                     ", got " + t.Describe());
    }
    h.input_tensors.push_back(t);
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    Tensor& t = h.input_tensors[i];
    h.input_values.emplace_back();
    TRY_STATUS(Check(Api()->CreateTensorWithDataAsOrtValue(
                         h.cpu_memory.get(), t.raw_data(), t.nbytes(), t.shape().data(), t.rank(),
                         ToOrt(t.dtype()), h.input_values.back().out()),
                     "CreateTensorWithDataAsOrtValue"));
    h.input_ptrs.push_back(h.input_values.back().get());
    h.input_names.push_back(inputs_[i].name.c_str());
  }
  return Status::Ok();
}

Status OrtModelSession::Run() {
  Handles& h = *h_;
  if (h.input_ptrs.size() != inputs_.size()) {
    return Status::InvalidArgument("OrtModelSession::Run before SetInputs");
  }
  std::vector<OrtValue*> raw(outputs_.size(), nullptr);
  OrtStatus* st =
      Api()->Run(h.session.get(), nullptr, h.input_names.data(), h.input_ptrs.data(),
                 h.input_ptrs.size(), h.output_names.data(), h.output_names.size(), raw.data());
  for (size_t i = 0; i < raw.size(); ++i) h.outputs[i].reset(raw[i]);  // frees the previous run's
  return Check(st, "Run");
}

Result<Tensor> OrtModelSession::Output(size_t i) const {
  if (i >= outputs_.size() || h_->outputs[i].get() == nullptr) {
    return Status::InvalidArgument("no output " + std::to_string(i) + " from a run");
  }
  const std::string& name = outputs_[i].name;
  OrtValue* value = h_->outputs[i].get();
  const OrtApi* api = Api();
  ShapeInfoPtr info;
  TRY_STATUS(Check(api->GetTensorTypeAndShape(value, info.out()), "GetTensorTypeAndShape"));
  ONNXTensorElementDataType type;
  TRY_STATUS(Check(api->GetTensorElementType(info.get(), &type), "GetTensorElementType"));
  size_t rank = 0;
  TRY_STATUS(Check(api->GetDimensionsCount(info.get(), &rank), "GetDimensionsCount"));
  std::vector<int64_t> shape(rank);
  TRY_STATUS(Check(api->GetDimensions(info.get(), shape.data(), rank), "GetDimensions"));
  const DType dtype = FromOrt(type);
  if (dtype == DType::kUndefined) {
    return Status::Unsupported("output '" + name + "' has ONNX element type " +
                               std::to_string(static_cast<int>(type)) +
                               ", which Trinity has no dtype for");
  }
  TRY_ASSIGN(Tensor t, Tensor::Create(dtype, shape));
  if (t.nbytes() > 0) {
    void* data = nullptr;
    TRY_STATUS(Check(api->GetTensorMutableData(value, &data), "GetTensorMutableData"));
    std::memcpy(t.raw_data(), data, t.nbytes());
  }
  return t;
}

}  // namespace trinity::bench
