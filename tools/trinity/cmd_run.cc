#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"

namespace trinity::cli {
namespace {

struct RunArgs {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE
  std::string output_dir;
  std::string device = "cpu";
  int threads = 0;
  int repeat = 0;
  int warmup = 1;
  bool json = false;
};

int RunModel(const RunArgs& a) {
  auto model = Model::Load(a.model);
  if (!model.ok()) return ReportError(model.status());

  std::map<std::string, Tensor> inputs;
  for (const std::string& spec : a.inputs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      return ReportError(Status::InvalidArgument("--input expects NAME=FILE, got '" + spec + "'"));
    }
    const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    const TensorInfo* info = nullptr;
    for (const auto& v : (*model)->inputs())
      if (v.name == name) info = &v;
    if (info == nullptr) {
      std::string names;
      for (const auto& v : (*model)->inputs())
        names += (names.empty() ? "" : ", ") + v.name + " " + v.Describe();
      return ReportError(
          Status::InvalidArgument("model has no input '" + name + "' (inputs: " + names + ")"));
    }
    // Bad input files are the caller's to fix (exit 2), so check dtype and shape here, before
    // running: any failure of Session::Run is then a runtime failure (exit 1).
    const std::string what = "input '" + name + "' (expects " + info->Describe() + ")";
    auto t = ReadTensorFile(file);
    if (!t.ok()) {
      ReportError(t.status().WithContext(what));
      return kExitBadInput;  // unreadable, missing or malformed: the caller's file
    }
    if ((info->dtype != DType::kUndefined && t->dtype() != info->dtype) ||
        !info->shape.Matches(t->shape())) {
      return ReportError(Status::InvalidArgument("input '" + name + "': expected " +
                                                 info->Describe() + ", got " + t->Describe() +
                                                 " from '" + file + "'"));
    }
    inputs[name] = std::move(t).value();
  }
  for (const auto& v : (*model)->inputs()) {
    if (!inputs.count(v.name)) {
      return ReportError(Status::InvalidArgument("missing --input " + v.name + "=FILE (expects " +
                                                 v.Describe() + ")"));
    }
  }

  SessionOptions options;
  options.device = a.device;
  options.num_threads = a.threads;
  auto session = Session::Create(*model, options);
  if (!session.ok()) return ReportError(session.status());

  using Clock = std::chrono::steady_clock;
  auto run_once = [&](double* ms) -> Result<std::map<std::string, Tensor>> {
    const auto t0 = Clock::now();
    auto r = (*session)->Run(inputs);
    *ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
  };
  double first_ms = 0;
  auto outputs = run_once(&first_ms);
  if (!outputs.ok()) return ReportRuntimeError(outputs.status());

  std::vector<double> times;
  if (a.repeat > 0) {
    for (int i = 1; i < a.warmup; ++i) {  // the first run above is the first warm-up
      double ms;
      if (auto r = run_once(&ms); !r.ok()) return ReportRuntimeError(r.status());
    }
    if (a.warmup == 0) times.push_back(first_ms);  // no warm-up asked for: the first run counts
    while (static_cast<int>(times.size()) < a.repeat) {
      double ms;
      if (auto r = run_once(&ms); !r.ok()) return ReportRuntimeError(r.status());
      times.push_back(ms);
    }
  } else {
    times.push_back(first_ms);
  }

  if (!a.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.output_dir, ec);
    if (ec)
      return ReportError(Status::InvalidArgument("cannot create output dir '" + a.output_dir +
                                                 "': " + ec.message()));
  }
  nlohmann::json j_outputs = nlohmann::json::array();
  for (const auto& v : (*model)->outputs()) {
    const Tensor& t = outputs->at(v.name);
    std::string file;
    if (!a.output_dir.empty()) {
      file = (std::filesystem::path(a.output_dir) / (SanitizeFileName(v.name) + ".npy")).string();
      Status st = WriteNpy(file, t);
      if (!st.ok()) return ReportError(st);
    }
    if (!a.json)
      std::printf("%s: %s%s%s\n", v.name.c_str(), SummarizeTensor(t).c_str(),
                  file.empty() ? "" : " -> ", file.c_str());
    j_outputs.push_back(
        {{"name", v.name}, {"dtype", dtype_name(t.dtype())}, {"shape", t.shape()}, {"file", file}});
  }

  const double mn = *std::min_element(times.begin(), times.end());
  const double med = Percentile(times, 0.5), p90 = Percentile(times, 0.9);
  if (a.repeat > 0 && !a.json) {
    std::printf(
        "latency over %d runs after %d warm-up: min %.3f ms, median %.3f ms, p90 %.3f ms (%s, %d "
        "threads)\n",
        a.repeat, a.warmup, mn, med, p90, a.device.c_str(), a.threads);
  }
  if (a.json) {
    nlohmann::json j = {{"model", a.model},
                        {"device", a.device},
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

void AddRunCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("run", "Run a model on input tensors (.npy or ONNX .pb files)");
  static RunArgs a;
  cmd->add_option("model", a.model, "ONNX model file")->required();
  cmd->add_option("--input,-i", a.inputs, "NAME=FILE, one per model input (.npy or .pb)");
  cmd->add_option("--output-dir,-o", a.output_dir, "Write one .npy per output into this directory");
  cmd->add_option("--device,-d", a.device, "Device id (see `trinity devices`)");
  cmd->add_option("--threads,-t", a.threads, "Threads (0 = one per core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--repeat,-r", a.repeat, "Time this many runs and print min/median/p90")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--warmup,-w", a.warmup, "Warm-up runs before timing")
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--json", a.json, "Print one JSON object as the last line");
  cmd->callback([exit_code] { *exit_code = RunModel(a); });
}

}  // namespace trinity::cli
