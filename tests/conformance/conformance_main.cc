// Runs the ONNX operator conformance suite (Debian's libonnx-testdata, data/node) on the CPU
// backend and prints "N passed, M failed, K unsupported".
//
// A case is "unsupported" when the importer refuses a type it does not handle or some node is
// refused by the backend's supports() (the reason is printed with --verbose). A case whose ops
// are all claimed and that errors or mismatches is "failed", and any failure fails the run.
// Tolerance, as ONNX's own runner: |got - want| <= atol + rtol * |want|, rtol 1e-3, atol 1e-7.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fnmatch.h>
#include <string>
#include <vector>

#include "core/dtype_dispatch.h"
#include "import/onnx/onnx_importer.h"
#include "runtime/graph_executor.h"

namespace fs = std::filesystem;
using namespace trinity;

namespace {

constexpr double kRtol = 1e-3, kAtol = 1e-7;

enum class Outcome { kPass, kFail, kUnsupported };

struct CaseResult {
  Outcome outcome;
  std::string detail;
};

// ONNX's test data stores bfloat16 tensors as uint16 bit patterns (numpy has no bfloat16).
Tensor AsBf16IfStoredAsU16(const Tensor& t, DType declared) {
  if (declared == DType::kBF16 && t.dtype() == DType::kU16) return Tensor(DType::kBF16, t.shape(), t.buffer(), t.byte_offset());
  return t;
}

std::string CompareTensors(const Tensor& got, const Tensor& want_stored) {
  const Tensor want = AsBf16IfStoredAsU16(want_stored, got.dtype());
  if (got.dtype() != want.dtype()) {
    return std::string("dtype ") + dtype_name(got.dtype()) + ", expected " + dtype_name(want.dtype());
  }
  if (got.shape() != want.shape()) {
    return "shape " + shape_to_string(got.shape()) + ", expected " + shape_to_string(want.shape());
  }
  std::string err;
  visit_dtype(got.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_void_v<T>) {
      const T* g = got.data<T>();
      const T* w = want.data<T>();
      for (int64_t i = 0; i < got.numel(); ++i) {
        bool ok;
        double gv, wv;
        if constexpr (std::is_same_v<T, bool>) {
          gv = g[i];
          wv = w[i];
          ok = g[i] == w[i];
        } else {
          gv = static_cast<double>(to_compute(g[i]));
          wv = static_cast<double>(to_compute(w[i]));
          if constexpr (is_half_v<T> || std::is_floating_point_v<T>) {
            ok = (std::isnan(gv) && std::isnan(wv)) || gv == wv ||
                 std::fabs(gv - wv) <= kAtol + kRtol * std::fabs(wv);
          } else {
            ok = g[i] == w[i];
          }
        }
        if (!ok) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "element %lld: got %.9g, expected %.9g",
                        static_cast<long long>(i), gv, wv);
          err = buf;
          return;
        }
      }
    }
  });
  return err;
}

std::vector<fs::path> SortedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p)) break;
    files.push_back(p);
  }
  return files;
}

CaseResult RunCase(const fs::path& dir, ThreadPool* pool) {
  auto graph = ImportOnnxFile((dir / "model.onnx").string());
  if (!graph.ok()) {
    const bool unsupported = graph.status().code() == StatusCode::kUnsupported;
    return {unsupported ? Outcome::kUnsupported : Outcome::kFail, graph.status().ToString()};
  }
  auto refused = FindUnsupportedNodes(*graph, KernelRegistry::Cpu());
  if (!refused.empty()) return {Outcome::kUnsupported, refused[0].label + ": " + refused[0].reason};
  auto exec = GraphExecutor::Create(*graph, KernelRegistry::Cpu(), pool);
  if (!exec.ok()) return {Outcome::kFail, exec.status().ToString()};

  int sets = 0;
  for (int s = 0;; ++s) {
    fs::path set_dir = dir / ("test_data_set_" + std::to_string(s));
    if (!fs::is_directory(set_dir)) break;
    ++sets;
    std::vector<Tensor> inputs;
    for (const auto& f : SortedFiles(set_dir, "input_")) {
      auto t = LoadTensorProtoFile(f.string());
      if (!t.ok()) {
        const bool unsupported = t.status().code() == StatusCode::kUnsupported;
        return {unsupported ? Outcome::kUnsupported : Outcome::kFail, t.status().ToString()};
      }
      inputs.push_back(AsBf16IfStoredAsU16(*t, (*graph).inputs[inputs.size() < (*graph).inputs.size() ? inputs.size() : 0].dtype));
    }
    // Optional trailing inputs may be omitted from the data set.
    if (inputs.size() > (*graph).inputs.size()) return {Outcome::kFail, "more input files than graph inputs"};
    while (inputs.size() < (*graph).inputs.size()) {
      return {Outcome::kUnsupported, "data set omits graph input '" + (*graph).inputs[inputs.size()].name + "'"};
    }
    auto outs = (*exec)->Run(inputs);
    if (!outs.ok()) return {Outcome::kFail, outs.status().ToString()};
    auto want_files = SortedFiles(set_dir, "output_");
    if (want_files.size() != outs->size()) {
      return {Outcome::kFail, std::to_string(outs->size()) + " outputs, expected " + std::to_string(want_files.size())};
    }
    for (size_t i = 0; i < want_files.size(); ++i) {
      auto want = LoadTensorProtoFile(want_files[i].string());
      if (!want.ok()) return {Outcome::kUnsupported, want.status().ToString()};
      std::string err = CompareTensors((*outs)[i], *want);
      if (!err.empty()) return {Outcome::kFail, "output '" + (*graph).outputs[i].name + "': " + err};
    }
  }
  if (sets == 0) return {Outcome::kUnsupported, "no test_data_set_0"};
  return {Outcome::kPass, ""};
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/usr/share/libonnx-testdata/data/node", filter = "*";
  bool verbose = false;
  long min_passed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--filter" && i + 1 < argc) filter = argv[++i];
    else if (a == "--min-passed" && i + 1 < argc) min_passed = std::atol(argv[++i]);
    else if (a == "--verbose" || a == "-v") verbose = true;
    else {
      std::fprintf(stderr, "usage: %s [--dir DIR] [--filter GLOB] [--min-passed N] [--verbose]\n", argv[0]);
      return 2;
    }
  }
  if (!fs::is_directory(dir)) {
    std::fprintf(stderr, "conformance data not found at %s (apt-get install libonnx-testdata)\n", dir.c_str());
    return 1;
  }
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && fnmatch(filter.c_str(), name.c_str(), 0) == 0) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  ThreadPool pool(1);
  int passed = 0, failed = 0, unsupported = 0;
  std::vector<std::string> failures;
  for (const auto& c : cases) {
    CaseResult r = RunCase(c, &pool);
    const std::string name = c.filename().string();
    switch (r.outcome) {
      case Outcome::kPass: ++passed; if (verbose) std::printf("PASS %s\n", name.c_str()); break;
      case Outcome::kFail:
        ++failed;
        failures.push_back(name + ": " + r.detail);
        std::printf("FAIL %s: %s\n", name.c_str(), r.detail.c_str());
        break;
      case Outcome::kUnsupported:
        ++unsupported;
        if (verbose) std::printf("UNSUPPORTED %s: %s\n", name.c_str(), r.detail.c_str());
        break;
    }
    std::fflush(stdout);
  }
  std::printf("ONNX conformance (%zu cases): %d passed, %d failed, %d unsupported\n", cases.size(), passed,
              failed, unsupported);
  if (failed > 0) return 1;
  if (passed < min_passed) {
    std::printf("expected at least %ld passing cases\n", min_passed);
    return 1;
  }
  return 0;
}
