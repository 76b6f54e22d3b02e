#!/usr/bin/env bash
# Makes the reference inputs and ONNX Runtime's outputs that tests/models compares Trinity with
# (and that bench/compare_ort times): real speech (espeak-ng, sox) for the audio models, drawn
# text and shapes (ImageMagick) for the vision models, outputs from bench/ort_run at 1 thread.
# The work is done by scripts/references/make.py; this script only caches it.
#
# Installs into $TRINITY_CACHE_DIR/references/<ORT version>/:
#   <model>/manifest.tsv, <model>/inputs/*.npy, <model>/outputs/*.npy   (see make.py)
#   ORT_VERSION   the version the ONNX Runtime library reports
#   KEY           sha256 over what the references depend on: this script, scripts/references/,
#                 the model files and the ORT library. When it matches, nothing is redone.
#
# Safe to run again and concurrently (a lock serialises runs; new references are made in a
# temporary folder and moved into place only when complete). Called by scripts/setup.sh after the
# build; needs bench/ort_run (built when scripts/fetch_ort.sh has run).
#
# Environment:
#   TRINITY_CACHE_DIR   cache root (default: ~/.cache/trinity)
#   TRINITY_MODELS_DIR  models (default: $TRINITY_CACHE_DIR/models)
#   BUILD_DIR           build holding ort_run (default: build); ORT_RUN overrides the binary
#   PYTHON              python with numpy (default: /usr/bin/python3, Debian's)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir="${TRINITY_CACHE_DIR:-$HOME/.cache/trinity}"
models_dir="${TRINITY_MODELS_DIR:-$cache_dir/models}"
build_dir="${BUILD_DIR:-build}"
[[ "$build_dir" == /* ]] || build_dir="$repo_root/$build_dir"
ort_run="${ORT_RUN:-$build_dir/ort_run}"
python="${PYTHON:-/usr/bin/python3}"

die() { echo "make_references: error: $*" >&2; exit 1; }

[[ -s "$cache_dir/ort/VERSION" ]] || die "ONNX Runtime not installed in $cache_dir/ort; run scripts/fetch_ort.sh"
ort_version="$(cat "$cache_dir/ort/VERSION")"
ort_lib="$cache_dir/ort/lib/libonnxruntime.so.1"
[[ -s "$ort_lib" ]] || die "$ort_lib missing; run scripts/fetch_ort.sh"
[[ -x "$ort_run" ]] || die "$ort_run not found; build the ort_run target (scripts/setup.sh does)"
"$python" -c 'import numpy' 2>/dev/null || die "$python cannot import numpy (apt-get install python3-numpy)"
for tool in espeak-ng sox convert; do
  command -v "$tool" >/dev/null || die "$tool not found (scripts/setup.sh installs espeak-ng, sox, imagemagick)"
done

# Model files, from make.py's table.
mapfile -t model_files < <("$python" -B "$repo_root/scripts/references/make.py" --list-model-files)
((${#model_files[@]} > 0)) || die "scripts/references/make.py lists no models"
for f in "${model_files[@]}"; do
  [[ -s "$models_dir/$f" ]] || die "$models_dir/$f not found; run scripts/fetch_models.sh"
done

# What the references depend on. Tool versions (espeak-ng, sox, ImageMagick) are left out on
# purpose: inputs and outputs are stored together, so older references stay self-consistent.
key=$(
  cd "$repo_root"
  {
    sha256sum scripts/make_references.sh scripts/references/*.py
    (cd "$models_dir" && sha256sum "${model_files[@]}")
    sha256sum "$ort_lib" | cut -d' ' -f1
  } | sha256sum | cut -d' ' -f1
)

refs_root="$cache_dir/references"
dest="$refs_root/$ort_version"
up_to_date() { [[ -f "$dest/KEY" && "$(cat "$dest/KEY")" == "$key" ]]; }

if up_to_date; then
  echo "make_references: references for ONNX Runtime $ort_version up to date in $dest"
  exit 0
fi

mkdir -p "$refs_root"
exec 9>"$refs_root/.lock"
flock -w 900 9 || die "another make_references run holds $refs_root/.lock"
if up_to_date; then  # made by the run we waited for
  echo "make_references: references for ONNX Runtime $ort_version up to date in $dest"
  exit 0
fi

tmp="$(mktemp -d "$refs_root/.new-$ort_version.XXXXXX")"
trap 'rm -rf "$tmp" "$dest.old.$$"' EXIT
echo "make_references: making references for ONNX Runtime $ort_version in $dest"
"$python" -B "$repo_root/scripts/references/make.py" --out "$tmp" --ort-run "$ort_run" \
  --models-dir "$models_dir"
reported="$(cat "$tmp/ORT_VERSION")"
[[ "$reported" == "$ort_version" ]] ||
  die "ort_run loaded ONNX Runtime $reported, but $cache_dir/ort holds $ort_version; rebuild ort_run"
printf '%s\n' "$key" >"$tmp/KEY"
# Swap in the complete set; KEY is part of it, so an interrupted run is redone next time.
[[ -e "$dest" ]] && mv "$dest" "$dest.old.$$"
mv "$tmp" "$dest"
echo "make_references: done ($(find "$dest" -name '*.npy' | wc -l) files, $(du -sh "$dest" | cut -f1))"
