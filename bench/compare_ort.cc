// compare_ort: Trinity and ONNX Runtime (CPU) timed side by side on the real models, in one
// process, on the reference inputs (scripts/make_references.sh: real speech, drawn images):
//
//   compare_ort [--threads 1,2] [--repeat 20] [--warmup 3] [--models a,b] [--json|--markdown]
//               [--references DIR] [--models-dir DIR]
//
// For each thread count and model, a Trinity session (num_threads = N) and an ORT session
// (bench/ort_session.h: intra-op N, inter-op 1, sequential, all graph optimisations) are made,
// warmed up, then run ALTERNATELY, one Trinity run then one ORT run, swapping which goes first
// every iteration, so that a noisy neighbour or a clock change hits both alike. Prints the median
// of each, the ratio Trinity / ORT and the geometric mean of the ratios per thread count.
// Whether the outputs agree is the model tests' job (tests/models), not this tool's.
//
// Exit codes: 0 ok, 1 a run failed, 2 bad arguments or missing references.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "compare_table.h"
#include "ort_session.h"
#include "reference_set.h"
#include "trinity/trinity.h"

namespace {

using trinity::Result;
using trinity::Status;
using trinity::Tensor;
using trinity::bench::CompareReport;
using trinity::bench::ModelTiming;
using trinity::bench::OrtModelSession;

constexpr int kExitOk = 0;
constexpr int kExitRunFailure = 1;
constexpr int kExitBadArgs = 2;

struct Args {
  std::vector<int> threads = {1, 2};
  int repeat = 20;
  int warmup = 3;
  std::vector<std::string> models;  // empty: all
  bool json = false;
  bool markdown = false;
  bool ort_spin = true;
  std::string references_dir;  // empty: trinity::refs::ReferencesDir()
  std::string models_dir;      // empty: trinity::refs::ModelsDir()
};

// Times one run of `f` in milliseconds.
template <class F>
Status Timed(F&& f, std::vector<double>* times) {
  const auto t0 = std::chrono::steady_clock::now();
  Status st = f();
  times->push_back(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return st;
}

// Measures one model at one thread count.
Result<ModelTiming> Measure(const std::shared_ptr<const trinity::Model>& model,
                            const std::map<std::string, Tensor>& inputs, const std::string& name,
                            int threads, const Args& a) {
  trinity::SessionOptions options;
  options.num_threads = threads;
  TRY_ASSIGN(auto trinity_session, trinity::Session::Create(model, options));
  trinity::bench::OrtOptions ort_options;
  ort_options.intra_op_threads = threads;
  ort_options.allow_spinning = a.ort_spin;
  TRY_ASSIGN(auto ort_session, OrtModelSession::Create(model->path(), ort_options));
  TRY_STATUS(ort_session->SetInputs(inputs));

  auto run_trinity = [&]() -> Status {
    auto out = trinity_session->Run(inputs);
    return out.ok() ? Status::Ok() : out.status().WithContext("Trinity");
  };
  auto run_ort = [&]() -> Status { return ort_session->Run(); };

  std::vector<double> t_times, o_times;
  for (int i = 0; i < a.warmup; ++i) {
    TRY_STATUS(run_trinity());
    TRY_STATUS(run_ort());
  }
  for (int i = 0; i < a.repeat; ++i) {
    if (i % 2 == 0) {
      TRY_STATUS(Timed(run_trinity, &t_times));
      TRY_STATUS(Timed(run_ort, &o_times));
    } else {
      TRY_STATUS(Timed(run_ort, &o_times));
      TRY_STATUS(Timed(run_trinity, &t_times));
    }
  }
  ModelTiming m;
  m.model = name;
  m.threads = threads;
  m.trinity_median_ms = trinity::cli::Percentile(t_times, 0.5);
  m.ort_median_ms = trinity::cli::Percentile(o_times, 0.5);
  m.trinity_min_ms = *std::min_element(t_times.begin(), t_times.end());
  m.ort_min_ms = *std::min_element(o_times.begin(), o_times.end());
  return m;
}

int Run(const Args& a) {
  namespace refs = trinity::refs;
  std::string refs_dir = a.references_dir;
  if (refs_dir.empty()) {
    auto d = refs::ReferencesDir();
    if (!d.ok()) {
      std::fprintf(stderr, "error: %s\n", d.status().message().c_str());
      return kExitBadArgs;
    }
    refs_dir = *d;
  }
  const std::string models_dir = a.models_dir.empty() ? refs::ModelsDir() : a.models_dir;

  std::vector<const refs::RealModel*> selected;
  if (a.models.empty()) {
    for (const refs::RealModel& m : refs::RealModels()) selected.push_back(&m);
  }
  for (const std::string& name : a.models) {
    const refs::RealModel* m = refs::FindRealModel(name);
    if (m == nullptr) {
      std::string known;
      for (const refs::RealModel& r : refs::RealModels()) known += " " + r.name;
      std::fprintf(stderr, "error: unknown model '%s'; known:%s\n", name.c_str(), known.c_str());
      return kExitBadArgs;
    }
    selected.push_back(m);
  }

  CompareReport report;
  auto ort_version = refs::ReadOrtVersion(refs_dir);
  if (!ort_version.ok()) {
    std::fprintf(stderr, "error: %s\n", ort_version.status().message().c_str());
    return kExitBadArgs;
  }
  // The references name the version that made them; the timings are of the library loaded now.
  report.ort_version = OrtModelSession::Version();
  if (*ort_version != report.ort_version) {
    std::fprintf(stderr, "warning: references were made with ONNX Runtime %s, timing %s\n",
                 ort_version->c_str(), report.ort_version.c_str());
  }
  report.references_dir = refs_dir;
  report.repeat = a.repeat;
  report.warmup = a.warmup;
  report.threads = a.threads;

  // Load every model and its inputs before timing anything, so a missing file fails fast.
  struct Loaded {
    std::string name;
    std::shared_ptr<const trinity::Model> model;
    std::map<std::string, Tensor> inputs;
  };
  std::vector<Loaded> loaded;
  for (const refs::RealModel* m : selected) {
    auto rc = refs::LoadReference(refs_dir, models_dir, *m);
    if (!rc.ok()) {
      std::fprintf(stderr, "error: %s\n", rc.status().message().c_str());
      return kExitBadArgs;
    }
    auto model = trinity::Model::Load(rc->model_path);
    if (!model.ok()) {
      std::fprintf(stderr, "error: %s: %s\n", m->name.c_str(), model.status().ToString().c_str());
      return kExitRunFailure;
    }
    loaded.push_back({m->name, *model, std::move(rc->inputs)});
    report.models.push_back(m->name);
  }

  for (int threads : a.threads) {
    for (const Loaded& l : loaded) {
      std::fprintf(stderr, "compare_ort: %s at %d thread(s)...\n", l.name.c_str(), threads);
      auto timing = Measure(l.model, l.inputs, l.name, threads, a);
      if (!timing.ok()) {
        std::fprintf(stderr, "error: %s at %d thread(s): %s\n", l.name.c_str(), threads,
                     timing.status().ToString().c_str());
        return kExitRunFailure;
      }
      report.timings.push_back(*timing);
    }
  }

  const std::string out = a.json       ? trinity::bench::FormatJson(report)
                          : a.markdown ? trinity::bench::FormatMarkdown(report)
                                       : trinity::bench::FormatText(report);
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Time Trinity and ONNX Runtime side by side on the real models"};
  Args a;
  app.add_option("--threads,-t", a.threads, "Thread counts, e.g. 1,2 (both runtimes)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024));
  app.add_option("--repeat,-r", a.repeat, "Timed runs of each runtime (the median is reported)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--warmup,-w", a.warmup, "Untimed warm-up runs of each runtime first")
      ->check(CLI::Range(0, 100000));
  app.add_option("--models,-m", a.models, "Models by short name, e.g. mlsd,ppocr_rec (default all)")
      ->delimiter(',');
  auto* json = app.add_flag("--json", a.json, "Print the results as JSON");
  app.add_flag("--markdown", a.markdown, "Print a Markdown table (for docs/performance.md)")
      ->excludes(json);
  app.add_option("--ort-spin", a.ort_spin,
                 "ONNX Runtime's intra-op workers spin between runs (its default; 0 turns it off)");
  app.add_option("--references", a.references_dir,
                 "Reference set (default: ~/.cache/trinity/references/<ORT version>)");
  app.add_option("--models-dir", a.models_dir, "Models (default: ~/.cache/trinity/models)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitBadArgs;
  }
  return Run(a);
}
