// ort_run: runs an ONNX model with ONNX Runtime's CPU provider, the peer Trinity is compared
// against (DESIGN.md "Peers to compare against"). Its command line, output files and timing
// lines mirror `trinity run`, so scripts can run both on the same inputs and compare:
//
//   ort_run MODEL --input NAME=FILE.npy ... [--output-dir DIR] [--threads N]
//           [--repeat N --warmup W] [--json]
//
// Sessions use intra-op threads = N (0 = ORT's default), inter-op threads = 1, sequential
// execution and graph optimisation level ALL (--graph-opt changes it: comparing ORT with
// itself at another level shows how much of a difference is plain float rounding). Exit codes: 0
// ok, 1 runtime failure, 2 bad input.
#include <onnxruntime_c_api.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "trinity/trinity.h"

namespace {

using trinity::DType;
using trinity::Tensor;

constexpr int kExitOk = 0;
constexpr int kExitRuntimeFailure = 1;
constexpr int kExitBadInput = 2;

struct Args {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE
  std::string output_dir;
  int threads = 0;
  int repeat = 0;
  int warmup = 1;
  bool json = false;
  std::string graph_opt = "all";
};

const OrtApi* g_ort = nullptr;

// Returns true (after printing the message) when `status` is an error.
bool Failed(OrtStatus* status, const char* what) {
  if (status == nullptr) return false;
  // `what` is the failing call's source text: name only the API function ("CreateSession").
  std::string call = what;
  if (call.rfind("g_ort->", 0) == 0) call = call.substr(7);
  call = call.substr(0, call.find('('));
  std::fprintf(stderr, "error: onnxruntime: %s: %s\n", call.c_str(),
               g_ort->GetErrorMessage(status));
  g_ort->ReleaseStatus(status);
  return true;
}

#define ORT_CHECK(expr, code)                 \
  do {                                        \
    if (Failed((expr), #expr)) return (code); \
  } while (0)

// Owns one ORT object; `release` is the OrtApi member that frees it.
template <class T, void (*OrtApi::*release)(T*)>
class OrtPtr {
 public:
  OrtPtr() = default;
  OrtPtr(const OrtPtr&) = delete;
  OrtPtr& operator=(const OrtPtr&) = delete;
  OrtPtr(OrtPtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  ~OrtPtr() { reset(); }
  T** out() { return &p_; }
  T* get() const { return p_; }
  void reset(T* p = nullptr) {
    if (p_ != nullptr) (g_ort->*release)(p_);
    p_ = p;
  }

 private:
  T* p_ = nullptr;
};

using EnvPtr = OrtPtr<OrtEnv, &OrtApi::ReleaseEnv>;
using SessionOptionsPtr = OrtPtr<OrtSessionOptions, &OrtApi::ReleaseSessionOptions>;
using SessionPtr = OrtPtr<OrtSession, &OrtApi::ReleaseSession>;
using MemoryInfoPtr = OrtPtr<OrtMemoryInfo, &OrtApi::ReleaseMemoryInfo>;
using ValuePtr = OrtPtr<OrtValue, &OrtApi::ReleaseValue>;
using TypeInfoPtr = OrtPtr<OrtTypeInfo, &OrtApi::ReleaseTypeInfo>;
using ShapeInfoPtr = OrtPtr<OrtTensorTypeAndShapeInfo, &OrtApi::ReleaseTensorTypeAndShapeInfo>;

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

// Output names and summaries exactly as `trinity run` makes them (shared code, tools/trinity).
using trinity::cli::SanitizeFileName;
using trinity::cli::SummarizeTensor;

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double idx = p * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(idx);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
}

struct IoInfo {
  std::string name;
  ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
  std::vector<int64_t> shape;  // -1 for a symbolic dim
};

// Names, element types and shapes of the session's inputs (`inputs` true) or outputs.
int GetIoInfo(OrtSession* session, bool inputs, std::vector<IoInfo>* out) {
  OrtAllocator* alloc = nullptr;
  ORT_CHECK(g_ort->GetAllocatorWithDefaultOptions(&alloc), kExitRuntimeFailure);
  size_t n = 0;
  ORT_CHECK(
      inputs ? g_ort->SessionGetInputCount(session, &n) : g_ort->SessionGetOutputCount(session, &n),
      kExitRuntimeFailure);
  for (size_t i = 0; i < n; ++i) {
    IoInfo io;
    char* name = nullptr;
    ORT_CHECK(inputs ? g_ort->SessionGetInputName(session, i, alloc, &name)
                     : g_ort->SessionGetOutputName(session, i, alloc, &name),
              kExitRuntimeFailure);
    io.name = name;
    ORT_CHECK(g_ort->AllocatorFree(alloc, name), kExitRuntimeFailure);
    TypeInfoPtr type_info;
    ORT_CHECK(inputs ? g_ort->SessionGetInputTypeInfo(session, i, type_info.out())
                     : g_ort->SessionGetOutputTypeInfo(session, i, type_info.out()),
              kExitRuntimeFailure);
    const OrtTensorTypeAndShapeInfo* tensor_info = nullptr;  // owned by type_info
    ORT_CHECK(g_ort->CastTypeInfoToTensorInfo(type_info.get(), &tensor_info), kExitRuntimeFailure);
    if (tensor_info != nullptr) {
      ORT_CHECK(g_ort->GetTensorElementType(tensor_info, &io.type), kExitRuntimeFailure);
      size_t rank = 0;
      ORT_CHECK(g_ort->GetDimensionsCount(tensor_info, &rank), kExitRuntimeFailure);
      io.shape.resize(rank);
      ORT_CHECK(g_ort->GetDimensions(tensor_info, io.shape.data(), rank), kExitRuntimeFailure);
    }
    out->push_back(std::move(io));
  }
  return kExitOk;
}

std::string DescribeIo(const IoInfo& io) {
  std::string s = trinity::dtype_name(FromOrt(io.type));
  s += "[";
  for (size_t i = 0; i < io.shape.size(); ++i)
    s += (i ? "," : "") + (io.shape[i] < 0 ? "?" : std::to_string(io.shape[i]));
  return s + "]";
}

// Copies an ORT output tensor into a new Trinity host tensor.
int ToTensor(const OrtValue* value, const std::string& name, Tensor* out) {
  ShapeInfoPtr info;
  ORT_CHECK(g_ort->GetTensorTypeAndShape(value, info.out()), kExitRuntimeFailure);
  ONNXTensorElementDataType type;
  ORT_CHECK(g_ort->GetTensorElementType(info.get(), &type), kExitRuntimeFailure);
  size_t rank = 0;
  ORT_CHECK(g_ort->GetDimensionsCount(info.get(), &rank), kExitRuntimeFailure);
  std::vector<int64_t> shape(rank);
  ORT_CHECK(g_ort->GetDimensions(info.get(), shape.data(), rank), kExitRuntimeFailure);
  const DType dtype = FromOrt(type);
  if (dtype == DType::kUndefined) {
    std::fprintf(
        stderr, "error: output '%s' has ONNX element type %d, which .npy output does not support\n",
        name.c_str(), static_cast<int>(type));
    return kExitRuntimeFailure;
  }
  auto t = Tensor::Create(dtype, shape);
  if (!t.ok()) {
    std::fprintf(stderr, "error: output '%s': %s\n", name.c_str(), t.status().ToString().c_str());
    return kExitRuntimeFailure;
  }
  if (t->nbytes() > 0) {
    void* data = nullptr;
    ORT_CHECK(g_ort->GetTensorMutableData(const_cast<OrtValue*>(value), &data),
              kExitRuntimeFailure);
    std::memcpy(t->raw_data(), data, t->nbytes());
  }
  *out = std::move(t).value();
  return kExitOk;
}

int Run(const Args& a) {
  g_ort = OrtGetApiBase()->GetApi(ORT_API_VERSION);
  if (g_ort == nullptr) {
    std::fprintf(stderr, "error: the ONNX Runtime library (%s) does not provide API version %d\n",
                 OrtGetApiBase()->GetVersionString(), ORT_API_VERSION);
    return kExitRuntimeFailure;
  }
  if (!std::filesystem::exists(a.model)) {
    std::fprintf(stderr, "error: model '%s' not found\n", a.model.c_str());
    return kExitBadInput;
  }

  EnvPtr env;
  ORT_CHECK(g_ort->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "ort_run", env.out()), kExitRuntimeFailure);
  SessionOptionsPtr opts;
  ORT_CHECK(g_ort->CreateSessionOptions(opts.out()), kExitRuntimeFailure);
  ORT_CHECK(g_ort->SetIntraOpNumThreads(opts.get(), a.threads), kExitRuntimeFailure);
  ORT_CHECK(g_ort->SetInterOpNumThreads(opts.get(), 1), kExitRuntimeFailure);
  ORT_CHECK(g_ort->SetSessionExecutionMode(opts.get(), ORT_SEQUENTIAL), kExitRuntimeFailure);
  ORT_CHECK(g_ort->SetSessionGraphOptimizationLevel(opts.get(), ORT_ENABLE_ALL),
            kExitRuntimeFailure);
  SessionPtr session;
  ORT_CHECK(g_ort->CreateSession(env.get(), a.model.c_str(), opts.get(), session.out()),
            kExitBadInput);

  std::vector<IoInfo> in_info, out_info;
  if (int rc = GetIoInfo(session.get(), true, &in_info); rc != kExitOk) return rc;
  if (int rc = GetIoInfo(session.get(), false, &out_info); rc != kExitOk) return rc;

  // Read the inputs, in the model's input order.
  std::map<std::string, Tensor> by_name;
  for (const std::string& spec : a.inputs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      std::fprintf(stderr, "error: --input expects NAME=FILE, got '%s'\n", spec.c_str());
      return kExitBadInput;
    }
    const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    const IoInfo* info = nullptr;
    for (const IoInfo& io : in_info)
      if (io.name == name) info = &io;
    if (info == nullptr) {
      std::string names;
      for (const IoInfo& io : in_info)
        names += (names.empty() ? "" : ", ") + io.name + " " + DescribeIo(io);
      std::fprintf(stderr, "error: model has no input '%s' (inputs: %s)\n", name.c_str(),
                   names.c_str());
      return kExitBadInput;
    }
    auto t = trinity::ReadTensorFile(file);
    if (!t.ok()) {
      std::fprintf(stderr, "error: input '%s': %s\n", name.c_str(), t.status().ToString().c_str());
      return kExitBadInput;
    }
    bool shape_ok = t->rank() == info->shape.size();
    for (size_t i = 0; shape_ok && i < info->shape.size(); ++i) {
      shape_ok = info->shape[i] < 0 || info->shape[i] == t->dim(i);
    }
    if (ToOrt(t->dtype()) != info->type || !shape_ok) {
      std::fprintf(stderr, "error: input '%s': expected %s, got %s from '%s'\n", name.c_str(),
                   DescribeIo(*info).c_str(), t->Describe().c_str(), file.c_str());
      return kExitBadInput;
    }
    by_name[name] = std::move(t).value();
  }
  MemoryInfoPtr mem;
  ORT_CHECK(g_ort->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, mem.out()),
            kExitRuntimeFailure);
  std::vector<ValuePtr> in_values;
  std::vector<const char*> in_names;
  for (const IoInfo& io : in_info) {
    auto it = by_name.find(io.name);
    if (it == by_name.end()) {
      std::fprintf(stderr, "error: missing --input %s=FILE (expects %s)\n", io.name.c_str(),
                   DescribeIo(io).c_str());
      return kExitBadInput;
    }
    Tensor& t = it->second;
    in_values.emplace_back();
    ORT_CHECK(
        g_ort->CreateTensorWithDataAsOrtValue(mem.get(), t.raw_data(), t.nbytes(), t.shape().data(),
                                              t.rank(), io.type, in_values.back().out()),
        kExitRuntimeFailure);
    in_names.push_back(io.name.c_str());
  }
  std::vector<const OrtValue*> in_ptrs;
  for (const ValuePtr& v : in_values) in_ptrs.push_back(v.get());
  std::vector<const char*> out_names;
  for (const IoInfo& io : out_info) out_names.push_back(io.name.c_str());

  using Clock = std::chrono::steady_clock;
  std::vector<ValuePtr> outputs(out_info.size());
  auto run_once = [&](double* ms) -> bool {
    std::vector<OrtValue*> raw(out_info.size(), nullptr);
    const auto t0 = Clock::now();
    OrtStatus* st = g_ort->Run(session.get(), nullptr, in_names.data(), in_ptrs.data(),
                               in_ptrs.size(), out_names.data(), out_names.size(), raw.data());
    *ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    for (size_t i = 0; i < raw.size(); ++i) outputs[i].reset(raw[i]);  // frees the previous run's
    return !Failed(st, "Run");
  };
  double first_ms = 0;
  if (!run_once(&first_ms)) return kExitRuntimeFailure;

  std::vector<double> times;
  if (a.repeat > 0) {
    for (int i = 1; i < a.warmup; ++i) {  // the first run above is the first warm-up
      double ms;
      if (!run_once(&ms)) return kExitRuntimeFailure;
    }
    if (a.warmup == 0) times.push_back(first_ms);  // no warm-up asked for: the first run counts
    while (static_cast<int>(times.size()) < a.repeat) {
      double ms;
      if (!run_once(&ms)) return kExitRuntimeFailure;
      times.push_back(ms);
    }
  } else {
    times.push_back(first_ms);
  }

  if (!a.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.output_dir, ec);
    if (ec) {
      std::fprintf(stderr, "error: cannot create output dir '%s': %s\n", a.output_dir.c_str(),
                   ec.message().c_str());
      return kExitBadInput;
    }
  }
  nlohmann::json j_outputs = nlohmann::json::array();
  for (size_t i = 0; i < out_info.size(); ++i) {
    const std::string& name = out_info[i].name;
    Tensor t;
    if (int rc = ToTensor(outputs[i].get(), name, &t); rc != kExitOk) return rc;
    std::string file;
    if (!a.output_dir.empty()) {
      file = (std::filesystem::path(a.output_dir) / (SanitizeFileName(name) + ".npy")).string();
      if (trinity::Status st = trinity::WriteNpy(file, t); !st.ok()) {
        std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
        return kExitRuntimeFailure;
      }
    }
    if (!a.json) {
      std::printf("%s: %s%s%s\n", name.c_str(), SummarizeTensor(t).c_str(),
                  file.empty() ? "" : " -> ", file.c_str());
    }
    j_outputs.push_back({{"name", name},
                         {"dtype", trinity::dtype_name(t.dtype())},
                         {"shape", t.shape()},
                         {"file", file}});
  }

  const double mn = *std::min_element(times.begin(), times.end());
  const double med = Percentile(times, 0.5), p90 = Percentile(times, 0.9);
  if (a.repeat > 0 && !a.json) {
    std::printf(
        "latency over %d runs after %d warm-up: min %.3f ms, median %.3f ms, p90 %.3f ms (%s, %d "
        "threads)\n",
        a.repeat, a.warmup, mn, med, p90, "onnxruntime-cpu", a.threads);
  }
  if (a.json) {
    nlohmann::json j = {{"model", a.model},
                        {"device", "onnxruntime-cpu"},
                        {"onnxruntime_version", OrtGetApiBase()->GetVersionString()},
                        {"threads", a.threads},
                        {"runs", static_cast<int>(times.size())},
                        {"warmup", a.repeat > 0 ? a.warmup : 0},
                        {"min_ms", mn},
                        {"median_ms", med},
                        {"p90_ms", p90},
                        {"outputs", j_outputs}};
    std::printf("%s\n", j.dump().c_str());
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run an ONNX model with ONNX Runtime (CPU), like `trinity run`"};
  Args a;
  app.add_option("model", a.model, "ONNX model file")->required();
  app.add_option("--input,-i", a.inputs, "NAME=FILE, one per model input (.npy or .pb)");
  app.add_option("--output-dir,-o", a.output_dir, "Write one .npy per output into this directory");
  app.add_option("--threads,-t", a.threads, "Intra-op threads (0 = ONNX Runtime's default)")
      ->check(CLI::Range(0, 1024));
  app.add_option("--repeat,-r", a.repeat, "Time this many runs and print min/median/p90")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--warmup,-w", a.warmup, "Warm-up runs before timing")
      ->check(CLI::Range(0, 100000));
  app.add_flag("--json", a.json, "Print one JSON object as the last line");
  app.add_option("--graph-opt", a.graph_opt, "Graph optimisation level (default all)")
      ->check(CLI::IsMember({"disable", "basic", "extended", "all"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitBadInput;
  }
  return Run(a);
}
