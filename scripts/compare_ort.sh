#!/usr/bin/env bash
# Compare Trinity's CPU outputs on the real models with ONNX Runtime's (DESIGN.md "Peers to
# compare against"), and optionally their speed.
#
# For each model: deterministic inputs (fixed seed; audio-like floats for audio models, int16-scale
# for the mel model, zeros for recurrent state, 16000 for sr, normalised images for vision models)
# are written as .npy, both `trinity run` and `ort_run` run on them, and every output is compared
# elementwise: |got - want| <= RTOL*|want| + ATOL (default 1e-4 both). Prints per model the max
# abs diff, the max rel diff (over |want| > ATOL), the worst ratio diff/(RTOL*|want|+ATOL) (<= 1
# passes), the number of violations, argmax equality for classifiers, and PASS/FAIL. Exits 1 if
# any model fails. Speed figures (--bench) are data, never a pass/fail criterion.
#
# Usage: scripts/compare_ort.sh [--threads N] [--bench THREADS,...] [--repeat N] [--warmup W]
#                               [--work DIR] [MODEL ...]
#   MODEL       short names (default: all): silero_vad_v5 silero_vad_legacy melspectrogram
#               embedding_model hey_jarvis alexa ppocr_det ppocr_cls ppocr_rec blazeface mlsd
#   --threads   threads for the accuracy runs (default 1)
#   --bench     also time both runtimes at these thread counts (--repeat runs after --warmup
#               warm-ups; default 10 and 2) and print median and min ms of each, and the ratios
#   --work      where inputs and outputs go (default: a temporary dir, removed afterwards)
#
# Environment:
#   BUILD_DIR           build dir holding `trinity` and `ort_run` (default: build)
#   TRINITY_BIN/ORT_RUN override the two binaries
#   TRINITY_MODELS_DIR  models (default: $TRINITY_CACHE_DIR/models or ~/.cache/trinity/models)
#   RTOL/ATOL           tolerances (default 1e-4 / 1e-4)
#   PYTHON              python with numpy (default /usr/bin/python3)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-build}"
[[ "$build_dir" == /* ]] || build_dir="$repo_root/$build_dir"
trinity_bin="${TRINITY_BIN:-$build_dir/trinity}"
ort_run="${ORT_RUN:-$build_dir/ort_run}"
cache_dir="${TRINITY_CACHE_DIR:-$HOME/.cache/trinity}"
models_dir="${TRINITY_MODELS_DIR:-$cache_dir/models}"
python="${PYTHON:-/usr/bin/python3}"
export RTOL="${RTOL:-1e-4}" ATOL="${ATOL:-1e-4}"

die() { echo "compare_ort: error: $*" >&2; exit 2; }

# short name | model file | classifier (argmax over the last axis of each output is compared)
model_table=(
  "silero_vad_v5|silero_vad_v5.onnx|0"
  "silero_vad_legacy|silero_vad_legacy.onnx|0"
  "melspectrogram|melspectrogram.onnx|0"
  "embedding_model|embedding_model.onnx|0"
  "hey_jarvis|hey_jarvis_v0.1.onnx|0"
  "alexa|alexa_v0.1.onnx|0"
  "ppocr_det|ch_PP-OCRv4_det_infer.onnx|0"
  "ppocr_cls|ch_ppocr_mobile_v2.0_cls_infer.onnx|1"
  "ppocr_rec|ch_PP-OCRv4_rec_infer.onnx|1"
  "blazeface|face_detection_front_128x128_barracuda.onnx|0"
  "mlsd|mlsd_320x320_tiny.onnx|0"
)

threads=1
bench_threads=""
repeat=10
warmup=2
work=""
selected=()
while (($# > 0)); do
  case "$1" in
    --threads) threads="${2:?--threads needs a value}"; shift 2 ;;
    --bench) bench_threads="${2:?--bench needs thread counts, e.g. 1,2}"; shift 2 ;;
    --repeat) repeat="${2:?--repeat needs a value}"; shift 2 ;;
    --warmup) warmup="${2:?--warmup needs a value}"; shift 2 ;;
    --work) work="${2:?--work needs a directory}"; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) selected+=("$1"); shift ;;
  esac
done

[[ -x "$trinity_bin" ]] || die "$trinity_bin not found; build the trinity_cli target (BUILD_DIR=$build_dir)"
[[ -x "$ort_run" ]] ||
  die "$ort_run not found; run scripts/fetch_ort.sh, then reconfigure and build the ort_run target"
"$python" -c 'import numpy' 2>/dev/null || die "$python cannot import numpy (apt-get install python3-numpy)"

# The models to run, checked before anything runs.
rows=()
if ((${#selected[@]} == 0)); then
  rows=("${model_table[@]}")
else
  for name in "${selected[@]}"; do
    found=""
    for row in "${model_table[@]}"; do
      [[ "${row%%|*}" == "$name" ]] && found="$row"
    done
    [[ -n "$found" ]] || die "unknown model '$name'; known: $(printf '%s ' "${model_table[@]%%|*}")"
    rows+=("$found")
  done
fi
for row in "${rows[@]}"; do
  IFS='|' read -r _ file _ <<<"$row"
  [[ -f "$models_dir/$file" ]] || die "$models_dir/$file not found; run scripts/fetch_models.sh"
done

if [[ -z "$work" ]]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/trinity-compare-ort.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# make_inputs NAME DIR: writes the model's inputs as DIR/<input>.npy and prints one
# "NAME=FILE" per input.
make_inputs() {
  "$python" - "$1" "$2" <<'PY'
import os, sys
import numpy as np

name, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20240607)


def audio(n, scale):
    # Vowel-like 150 Hz tone with harmonics, a slow envelope and a little noise, at 16 kHz.
    t = np.arange(n) / 16000.0
    s = np.sin(2 * np.pi * 150 * t) + 0.5 * np.sin(2 * np.pi * 300 * t + 0.3) + 0.25 * np.sin(2 * np.pi * 450 * t)
    s *= 0.6 + 0.4 * np.sin(2 * np.pi * 3 * t)
    s = 0.4 * s + 0.02 * rng.standard_normal(n)
    return (s[None, :] * scale).astype(np.float32)


def image(h, w, c):
    # Smooth gradients, a few dark bars (text-like strokes) and mild noise, in [0, 1], HWC.
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    base = 0.55 + 0.25 * np.sin(x / (w / 3.1)) * np.cos(y / (h / 2.3))
    img = np.repeat(base[:, :, None], c, axis=2)
    img += np.linspace(-0.05, 0.05, c)[None, None, :]
    for _ in range(6):
        y0, x0 = rng.integers(0, max(1, h - h // 5)), rng.integers(0, max(1, w - w // 4))
        img[y0:y0 + max(2, h // 12), x0:x0 + max(4, w // 5), :] = 0.1
    img += 0.03 * rng.standard_normal(img.shape)
    return np.clip(img, 0.0, 1.0)


def nchw(img, mean, std):
    return ((img - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)


f32 = np.float32
if name == "silero_vad_v5":
    ins = {"input": audio(576, 1.0), "state": np.zeros((2, 1, 128), f32), "sr": np.array(16000, np.int64)}
elif name == "silero_vad_legacy":
    ins = {"input": audio(512, 1.0), "sr": np.array(16000, np.int64),
           "h": np.zeros((2, 1, 64), f32), "c": np.zeros((2, 1, 64), f32)}
elif name == "melspectrogram":
    ins = {"input": np.round(audio(16000, 32767.0))}  # raw int16 sample values, as float
elif name == "embedding_model":
    # 76 mel frames x 32 bins in the range openWakeWord feeds (spec/10 + 2), smooth over time.
    m = np.cumsum(rng.standard_normal((76, 32)), axis=0) * 0.15 + np.linspace(0.5, 2.5, 32)[None, :]
    ins = {"input_1": m[None, :, :, None].astype(f32)}
elif name in ("hey_jarvis", "alexa"):
    ins = {("x.1" if name == "hey_jarvis" else "onnx::Flatten_0"): (rng.standard_normal((1, 16, 96)) * 0.8).astype(f32)}
elif name == "ppocr_det":
    ins = {"x": nchw(image(320, 320, 3), np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225]))}
elif name == "ppocr_cls":
    ins = {"x": nchw(image(48, 192, 3), 0.5, 0.5)}
elif name == "ppocr_rec":
    ins = {"x": nchw(image(48, 320, 3), 0.5, 0.5)}
elif name == "blazeface":
    ins = {"input:0": (image(128, 128, 3) * 2 - 1)[None].astype(f32)}
elif name == "mlsd":
    img = image(320, 320, 4)
    img[:, :, 3] = 1.0
    ins = {"input_image_with_alpha:0": (img * 2 - 1)[None].astype(f32)}
else:
    sys.exit(f"no inputs defined for {name}")
for k, v in ins.items():
    path = os.path.join(out, "".join(ch if ch.isalnum() or ch in "_.-" else "_" for ch in k) + ".npy")
    np.save(path, v)
    print(f"{k}={path}")
PY
}

# compare NAME CLASSIFIER TRINITY_DIR ORT_DIR: prints one result line; exits 1 on a failure.
compare() {
  "$python" - "$@" <<'PY'
import glob, os, sys
import numpy as np

name, classifier, got_dir, want_dir = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4]
rtol, atol = float(os.environ["RTOL"]), float(os.environ["ATOL"])
want_files = sorted(glob.glob(os.path.join(want_dir, "*.npy")))
max_abs = max_rel = worst = 0.0
bad = total = 0
notes, argmax = [], []
ok = bool(want_files)
for wf in want_files:
    out = os.path.basename(wf)[:-4]
    gf = os.path.join(got_dir, os.path.basename(wf))
    if not os.path.exists(gf):
        notes.append(f"{out}: missing from trinity")
        ok = False
        continue
    want, got = np.load(wf), np.load(gf)
    if want.shape != got.shape or want.dtype != got.dtype:
        notes.append(f"{out}: trinity {got.dtype}{list(got.shape)} vs ort {want.dtype}{list(want.shape)}")
        ok = False
        continue
    w, g = want.astype(np.float64).ravel(), got.astype(np.float64).ravel()
    total += w.size
    if w.size == 0:
        continue
    both_nan = np.isnan(w) & np.isnan(g)
    d = np.where(both_nan, 0.0, np.abs(g - w))
    d = np.where(np.isnan(d), np.inf, d)
    big = np.abs(w) > atol  # relative error means little where |want| is below the absolute floor
    rel = d[big] / np.abs(w[big]) if np.any(big) else np.zeros(1)
    ratio = d / (rtol * np.abs(w) + atol)
    nbad = int(np.count_nonzero(ratio > 1))
    bad += nbad
    max_abs, max_rel, worst = max(max_abs, float(d.max())), max(max_rel, float(rel.max())), max(worst, float(ratio.max()))
    if nbad:
        i = int(np.argmax(ratio))
        idx = np.unravel_index(i, want.shape)
        notes.append(f"{out}: {nbad} bad, worst at {list(map(int, idx))}: trinity {g[i]:.7g} ort {w[i]:.7g}")
    if classifier and want.ndim >= 1 and want.shape[-1] > 1:
        ga, wa = got.reshape(-1, want.shape[-1]).argmax(-1), want.reshape(-1, want.shape[-1]).argmax(-1)
        argmax.append(f"{int(np.count_nonzero(ga == wa))}/{ga.size}")
        if not np.array_equal(ga, wa):
            ok = False
ok = ok and bad == 0
am = ",".join(argmax) if argmax else "-"
print(f"{name:<18} {'PASS' if ok else 'FAIL':<5} {max_abs:>10.3g} {max_rel:>10.3g} {worst:>9.3g} {bad:>8}/{total:<8} {am:>10}"
      + ("  " + "; ".join(notes) if notes else ""))
sys.exit(0 if ok else 1)
PY
}

# timing JSON_LINE: "MEDIAN MIN" (ms) from a run's --json line; "nan nan" when empty.
timing() {
  "$python" -c '
import json, sys
try:
    j = json.loads(sys.argv[1])
    print("%.3f %.3f" % (j["median_ms"], j["min_ms"]))
except Exception:
    print("nan nan")' "$1"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.2f", a / b }'; }

echo "compare_ort: $trinity_bin vs $ort_run (ONNX Runtime $(cat "$cache_dir/ort/VERSION" 2>/dev/null || echo '?'))"
echo "tolerance |got-want| <= $RTOL*|want| + $ATOL; accuracy runs at $threads thread(s); work dir $work"
printf '%-18s %-5s %10s %10s %9s %17s %10s\n' model result max_abs max_rel worst violations argmax
failures=0
for row in "${rows[@]}"; do
  IFS='|' read -r name file classifier <<<"$row"
  model="$models_dir/$file"
  mkdir -p "$work/$name"
  make_inputs "$name" "$work/$name/inputs" >"$work/$name/inputs.txt"
  mapfile -t specs <"$work/$name/inputs.txt"
  args=()
  for s in "${specs[@]}"; do args+=(--input "$s"); done
  rm -rf "$work/$name/trinity" "$work/$name/ort"
  if ! "$trinity_bin" run "$model" "${args[@]}" --threads "$threads" --output-dir "$work/$name/trinity" \
    >"$work/$name/trinity.log" 2>&1; then
    printf '%-18s %-5s trinity run failed: %s\n' "$name" FAIL "$(tail -n 1 "$work/$name/trinity.log")"
    failures=$((failures + 1))
    continue
  fi
  if ! "$ort_run" "$model" "${args[@]}" --threads "$threads" --output-dir "$work/$name/ort" \
    >"$work/$name/ort.log" 2>&1; then
    printf '%-18s %-5s ort_run failed: %s\n' "$name" FAIL "$(tail -n 1 "$work/$name/ort.log")"
    failures=$((failures + 1))
    continue
  fi
  compare "$name" "$classifier" "$work/$name/trinity" "$work/$name/ort" || failures=$((failures + 1))
done

if [[ -n "$bench_threads" ]]; then
  echo
  echo "speed: $repeat runs after $warmup warm-ups (ms); ratio = trinity / ort"
  printf '%-18s %7s %11s %11s %11s %11s %8s %8s\n' model threads trinity_med trinity_min \
    ort_med ort_min med_x min_x
  IFS=',' read -r -a thread_list <<<"$bench_threads"
  for row in "${rows[@]}"; do
    IFS='|' read -r name file _ <<<"$row"
    [[ -s "$work/$name/inputs.txt" ]] || continue
    mapfile -t specs <"$work/$name/inputs.txt"
    args=()
    for s in "${specs[@]}"; do args+=(--input "$s"); done
    for t in "${thread_list[@]}"; do
      opts=(--threads "$t" --repeat "$repeat" --warmup "$warmup" --json)
      tj=$("$trinity_bin" run "$models_dir/$file" "${args[@]}" "${opts[@]}" 2>/dev/null | tail -n 1) || tj=""
      oj=$("$ort_run" "$models_dir/$file" "${args[@]}" "${opts[@]}" 2>/dev/null | tail -n 1) || oj=""
      read -r tmed tmin <<<"$(timing "$tj")"
      read -r omed omin <<<"$(timing "$oj")"
      printf '%-18s %7s %11s %11s %11s %11s %8s %8s\n' "$name" "$t" "$tmed" "$tmin" "$omed" "$omin" \
        "$(ratio "$tmed" "$omed")" "$(ratio "$tmin" "$omin")"
    done
  done
fi

echo
if ((failures > 0)); then
  echo "compare_ort: $failures of ${#rows[@]} model(s) FAILED"
  exit 1
fi
echo "compare_ort: all ${#rows[@]} model(s) match ONNX Runtime"
