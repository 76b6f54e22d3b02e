// Shared pieces of the trinity command-line tool. Every subcommand is built on the public API
// in include/trinity only.
#pragma once

#include <string>

#include "trinity/trinity.h"

namespace trinity::cli {

// Exit codes of the tool (a contract tests and scripts rely on).
constexpr int kExitOk = 0;
constexpr int kExitRuntimeFailure = 1;
constexpr int kExitBadInput = 2;

// Prints "error: <message>" to stderr and returns the exit code the status deserves:
// bad input (missing/corrupt files, unknown names, wrong shapes) -> 2, everything else -> 1.
int ReportError(const Status& status);
// Prints "error: <message>" and returns 1: for failures while running a model, whatever their
// status code (a kernel rejecting a value computed at run time is not the caller's usage error).
int ReportRuntimeError(const Status& status);

// Replaces every character outside [A-Za-z0-9_.-] with '_' (output file names).
std::string SanitizeFileName(const std::string& name);

// Trinity's cache: $TRINITY_CACHE_DIR, else ~/.cache/trinity.
std::string CacheDir();
// Where the fetched real models live: $TRINITY_MODELS_DIR, else CacheDir()/models.
std::string ModelsDir();

// The p-quantile (0..1) of timings, interpolating between neighbours (p = 0.5: the median).
double Percentile(std::vector<double> v, double p);

// One-line summary of a tensor's values: "f32[1,2] min -0.5 max 1.2 mean 0.3".
std::string SummarizeTensor(const Tensor& t);

}  // namespace trinity::cli
