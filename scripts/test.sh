#!/usr/bin/env bash
# Builds Trinity (scripts/setup.sh) and runs its tests. Under CI (CI=true) warnings are errors
# and an ASan+UBSan build runs the whole suite again (unit, conformance, robustness, fuzz seed
# replays, CLI, real models vs ONNX Runtime) as well; set
# TRINITY_SANITIZE_TESTS=1 to run that sanitizer pass locally too.
#
# Environment:
#   CI                      "true" in CI: TRINITY_WERROR=ON and the sanitizer pass
#   TRINITY_SANITIZE_TESTS  1 to run the sanitizer pass outside CI
#   BUILD_DIR               main build directory (default: build)
#   ASAN_BUILD_DIR          sanitizer build directory (default: build-asan)
#   TRINITY_JOBS            ninja -j value (default: ninja's own choice)
# Exits non-zero if the build or any test fails.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

build_dir="${BUILD_DIR:-build}"
asan_dir="${ASAN_BUILD_DIR:-build-asan}"
ci="${CI:-false}"
sanitize=0
[[ "$ci" == true || "${TRINITY_SANITIZE_TESTS:-0}" == 1 ]] && sanitize=1

start=$SECONDS
elapsed() { printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }
say() { printf '[test %s] %s\n' "$(elapsed)" "$*"; }

if [[ "$ci" == true ]]; then
  export TRINITY_WERROR=ON
fi
export BUILD_DIR="$build_dir"

say "setup and build ($build_dir, TRINITY_WERROR=${TRINITY_WERROR:-OFF})"
scripts/setup.sh

# The model tests compare with these (made by setup); name the ONNX Runtime that made them.
cache_dir="${TRINITY_CACHE_DIR:-$HOME/.cache/trinity}"
refs_dir="$cache_dir/references/$(cat "$cache_dir/ort/VERSION" 2>/dev/null || echo missing)"
say "model references: $refs_dir (ONNX Runtime $(cat "$refs_dir/ORT_VERSION" 2>/dev/null || echo 'missing: run scripts/setup.sh'))"
say "unit and model tests (ctest --test-dir $build_dir)"
ctest --test-dir "$build_dir" --output-on-failure -j2
# ctest shows a passing test's output only on failure; print the conformance line itself.
say "$("$build_dir/tests/conformance/trinity_conformance" | tail -n 1)"
say "tests passed"

if ((sanitize)); then
  log_dir="$asan_dir/logs"
  mkdir -p "$log_dir"
  run_logged() {
    local name="$1" log="$log_dir/$1.log"
    shift
    if ! "$@" >"$log" 2>&1; then
      echo "[test $(elapsed)] FAILED: $name ($*); output in $log:" >&2
      # Show from ninja's first FAILED: block if there is one, else the end of the log.
    if grep -q '^FAILED: ' "$log"; then
      awk '/^FAILED: /{p=1} p' "$log" | head -n 120 >&2
    else
      tail -n 60 "$log" >&2
    fi
      exit 1
    fi
  }
  say "ASan+UBSan build ($asan_dir, Debug)"
  run_logged cmake-configure cmake -S . -B "$asan_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=Debug -DTRINITY_SANITIZE=ON -DTRINITY_BUILD_TESTS=ON \
    "-DTRINITY_WERROR=${TRINITY_WERROR:-OFF}"
  run_logged ninja ninja -C "$asan_dir" ${TRINITY_JOBS:+"-j$TRINITY_JOBS"}

  # Any sanitizer report fails the test that triggered it. Allocation failures return null, as
  # in production, so tests of absurd sizes see Trinity's error instead of an ASan abort.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1:allocator_may_return_null=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  # New tensors are filled with 0xFF (NaN / -1), so a kernel that reads an output element it
  # never wrote fails its test instead of passing on leftover zeros.
  export TRINITY_POISON_UNINITIALIZED=1
  say "sanitizer tests (ctest --test-dir $asan_dir: the whole suite under ASan+UBSan, poisoned allocations)"
  ctest --test-dir "$asan_dir" --output-on-failure -j2
  say "sanitizer tests passed"
fi
say "all done"
