"""Makes the reference inputs and ONNX Runtime's outputs for every real model.

Usage: make.py --out DIR --ort-run PATH --models-dir DIR
       make.py --list-model-files

Writes, for each model NAME of the table below:
  DIR/NAME/inputs/*.npy    the inputs (real speech or drawn images; see audio.py, images.py)
  DIR/NAME/outputs/*.npy   ONNX Runtime's outputs for them (bench/ort_run, 1 thread)
  DIR/NAME/manifest.tsv    "model<TAB>FILE", then "input|output<TAB>ONNX NAME<TAB>PATH" lines
and DIR/ORT_VERSION, the version the ONNX Runtime library reports. The wake-word pipeline is
chained as openWakeWord runs it: ORT's mel output feeds the embedding model, whose outputs feed
the heads, so every model sees features of real speech. Called by scripts/make_references.sh,
which handles caching; exits non-zero with a message on any failure.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np

import audio
import images

# name, model file: the real models of DESIGN.md. tests/models/reference_set.cc holds the same
# list and fails when a name below is missing from the references.
MODELS = [
    ("silero_vad_v5", "silero_vad_v5.onnx"),
    ("silero_vad_legacy", "silero_vad_legacy.onnx"),
    ("melspectrogram", "melspectrogram.onnx"),
    ("embedding_model", "embedding_model.onnx"),
    ("hey_jarvis", "hey_jarvis_v0.1.onnx"),
    ("alexa", "alexa_v0.1.onnx"),
    ("ppocr_det", "ch_PP-OCRv4_det_infer.onnx"),
    ("ppocr_cls", "ch_ppocr_mobile_v2.0_cls_infer.onnx"),
    ("ppocr_rec", "ch_PP-OCRv4_rec_infer.onnx"),
    ("blazeface", "face_detection_front_128x128_barracuda.onnx"),
    ("mlsd", "mlsd_320x320_tiny.onnx"),
]


def safe_name(name):
    # The file name rule of `trinity run` and ort_run (tools/trinity/cli_common.cc).
    return "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in name)


class OrtRunner:
    def __init__(self, ort_run, models_dir):
        self.ort_run, self.models_dir = ort_run, models_dir
        self.version = None

    def run(self, model_file, inputs, in_dir, out_dir):
        """Saves `inputs` into in_dir, runs ORT on them, returns ([(name, in path)],
        [(name, out path)], {name: array})."""
        os.makedirs(in_dir, exist_ok=True)
        ins, args = [], []
        for name, value in inputs.items():
            path = os.path.join(in_dir, safe_name(name) + ".npy")
            np.save(path, value)
            ins.append((name, path))
            args += ["--input", f"{name}={path}"]
        cmd = [self.ort_run, os.path.join(self.models_dir, model_file), *args,
               "--threads", "1", "--output-dir", out_dir, "--json"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"ort_run failed on {model_file} (exit {proc.returncode}):\n"
                               f"{proc.stderr.strip()}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        version = result["onnxruntime_version"]
        if self.version not in (None, version):
            raise RuntimeError(f"ONNX Runtime version changed from {self.version} to {version}")
        self.version = version
        outs = [(o["name"], o["file"]) for o in result["outputs"]]
        return ins, outs, {name: np.load(path) for name, path in outs}


def write_manifest(model_dir, model_file, ins, outs):
    with open(os.path.join(model_dir, "manifest.tsv"), "w") as f:
        f.write(f"model\t{model_file}\n")
        for kind, pairs in (("input", ins), ("output", outs)):
            for name, path in pairs:
                f.write(f"{kind}\t{name}\t{os.path.relpath(path, model_dir)}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--list-model-files", action="store_true",
                   help="print the model files the references need, one a line, and exit")
    p.add_argument("--out")
    p.add_argument("--ort-run")
    p.add_argument("--models-dir")
    a = p.parse_args()
    if a.list_model_files:
        print("\n".join(f for _, f in MODELS))
        return
    if not (a.out and a.ort_run and a.models_dir):
        p.error("--out, --ort-run and --models-dir are required")

    work = os.path.join(a.out, ".work")  # intermediate files (wav, raw pixels, chained runs)
    os.makedirs(work, exist_ok=True)
    ort = OrtRunner(a.ort_run, a.models_dir)
    files = dict(MODELS)

    speech = audio.speech(work)
    mel_in = audio.mel_inputs(speech)
    _, _, mel_out = ort.run(files["melspectrogram"], mel_in, f"{work}/mel_in", f"{work}/mel_out")
    windows = audio.embedding_windows(audio.mel_features(mel_out["output"]))
    _, _, emb_out = ort.run(files["embedding_model"], {"input_1": windows}, f"{work}/emb16_in",
                            f"{work}/emb16_out")
    heads_in = audio.head_features(emb_out["conv2d_19"])

    makers = {
        "silero_vad_v5": lambda: audio.silero_v5_inputs(speech),
        "silero_vad_legacy": lambda: audio.silero_legacy_inputs(speech),
        "melspectrogram": lambda: mel_in,
        "embedding_model": lambda: audio.embedding_inputs(windows),
        "hey_jarvis": lambda: {"x.1": heads_in},
        "alexa": lambda: {"onnx::Flatten_0": heads_in},
        "ppocr_det": lambda: images.ppocr_det_inputs(work),
        "ppocr_cls": lambda: images.ppocr_cls_inputs(work),
        "ppocr_rec": lambda: images.ppocr_rec_inputs(work),
        "blazeface": lambda: images.blazeface_inputs(work),
        "mlsd": lambda: images.mlsd_inputs(work),
    }
    for name, model_file in MODELS:
        model_dir = os.path.join(a.out, name)
        ins, outs, _ = ort.run(model_file, makers[name](), f"{model_dir}/inputs",
                               f"{model_dir}/outputs")
        write_manifest(model_dir, model_file, ins, outs)
        print(f"make_references: {name}: {len(ins)} input(s), {len(outs)} output(s)")

    with open(os.path.join(a.out, "ORT_VERSION"), "w") as f:
        f.write(ort.version + "\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, subprocess.CalledProcessError, KeyError, ValueError) as e:
        sys.exit(f"make_references: error: {e}")
