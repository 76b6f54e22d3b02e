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
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "ort_session.h"
#include "trinity/trinity.h"

namespace {

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

// Output names and summaries exactly as `trinity run` makes them (shared code, tools/trinity).
using trinity::bench::OrtModelSession;
using trinity::cli::Percentile;
using trinity::cli::SanitizeFileName;
using trinity::cli::SummarizeTensor;

// Bad requests (a model ORT refuses, inputs that do not fit) are the caller's to fix: exit 2.
int ExitCodeFor(const trinity::Status& st) {
  const auto c = st.code();
  const bool bad_input = c == trinity::StatusCode::kInvalidArgument ||
                         c == trinity::StatusCode::kNotFound ||
                         c == trinity::StatusCode::kCorruptModel;
  return bad_input ? kExitBadInput : kExitRuntimeFailure;
}

int Report(const trinity::Status& st) {
  std::fprintf(stderr, "error: %s\n", st.message().c_str());
  return ExitCodeFor(st);
}

int Run(const Args& a) {
  if (!std::filesystem::exists(a.model)) {
    std::fprintf(stderr, "error: model '%s' not found\n", a.model.c_str());
    return kExitBadInput;
  }
  trinity::bench::OrtOptions options;
  options.intra_op_threads = a.threads;
  options.graph_opt = a.graph_opt;
  auto session = OrtModelSession::Create(a.model, options);
  if (!session.ok()) return Report(session.status());
  OrtModelSession& ort = **session;

  std::map<std::string, Tensor> inputs;
  for (const std::string& spec : a.inputs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      std::fprintf(stderr, "error: --input expects NAME=FILE, got '%s'\n", spec.c_str());
      return kExitBadInput;
    }
    const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    auto t = trinity::ReadTensorFile(file);
    if (!t.ok()) {
      std::fprintf(stderr, "error: input '%s': %s\n", name.c_str(), t.status().ToString().c_str());
      return kExitBadInput;
    }
    inputs[name] = std::move(t).value();
  }
  // Names, dtypes and shapes are checked against the model here, before any run.
  if (trinity::Status st = ort.SetInputs(inputs); !st.ok()) {
    std::fprintf(stderr, "error: %s\n", st.message().c_str());
    return kExitBadInput;
  }

  using Clock = std::chrono::steady_clock;
  auto run_once = [&](double* ms) -> trinity::Status {
    const auto t0 = Clock::now();
    trinity::Status st = ort.Run();
    *ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return st;
  };
  double first_ms = 0;
  if (trinity::Status st = run_once(&first_ms); !st.ok()) return Report(st);

  std::vector<double> times;
  if (a.repeat > 0) {
    for (int i = 1; i < a.warmup; ++i) {  // the first run above is the first warm-up
      double ms;
      if (trinity::Status st = run_once(&ms); !st.ok()) return Report(st);
    }
    if (a.warmup == 0) times.push_back(first_ms);  // no warm-up asked for: the first run counts
    while (static_cast<int>(times.size()) < a.repeat) {
      double ms;
      if (trinity::Status st = run_once(&ms); !st.ok()) return Report(st);
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
  for (size_t i = 0; i < ort.outputs().size(); ++i) {
    const std::string& name = ort.outputs()[i].name;
    auto out = ort.Output(i);
    if (!out.ok()) return Report(out.status());
    const Tensor& t = *out;
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
                        {"onnxruntime_version", OrtModelSession::Version()},
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
