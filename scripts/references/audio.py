"""Real speech for the audio models' reference inputs.

espeak-ng speaks the wake word "Hey Jarvis" (22.05 kHz), sox resamples it to the 16 kHz mono
int16 that Silero VAD and openWakeWord expect, after a short silence, and the functions below cut
it into each model's inputs the way those projects' own pipelines do (DESIGN.md "Facts a
pipeline must reproduce"). The wake word ends inside the 16 embeddings the heads look at, so the
hey_jarvis head fires (about 0.85 with ONNX Runtime) and the references cover a real detection,
not only near-zero scores.
"""

import os
import subprocess
import wave

import numpy as np

SAMPLE_RATE = 16000
SENTENCE = "Hey Jarvis"
LEAD_SILENCE_S = 0.6  # before the speech: the wake word then ends late in the heads' window
# openWakeWord's mel model input: 2 s holds the 76 + 15 * 8 = 196 mel frames that 16 embedding
# windows need (one frame per 160 samples after the first 400).
MEL_SAMPLES = 2 * SAMPLE_RATE
EMBED_FRAMES, EMBED_STRIDE, HEAD_WINDOWS = 76, 8, 16


def speech(work_dir):
    """Silence, then the sentence, as int16 samples at 16 kHz (1-D numpy array)."""
    raw = os.path.join(work_dir, "speech_22k.wav")
    wav16 = os.path.join(work_dir, "speech_16k.wav")
    # -v en-us and the default speed: both fixed so the waveform is the same on every run.
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", raw, SENTENCE], check=True)
    # -D: no dither, which sox otherwise adds from an unseeded generator when it writes 16 bits.
    subprocess.run(["sox", "-D", raw, "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e",
                    "signed-integer", wav16, "pad", str(LEAD_SILENCE_S), "0"], check=True)
    with wave.open(wav16, "rb") as w:
        if w.getframerate() != SAMPLE_RATE or w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise RuntimeError(f"sox made {wav16} with an unexpected format")
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    if samples.size < MEL_SAMPLES * 3 // 4 or np.abs(samples).max() < 1000:
        raise RuntimeError(f"espeak-ng produced no usable speech ({samples.size} samples)")
    return samples


def loudest_offset(samples, length):
    """Start of the `length`-sample window with the most energy (a voiced part, not silence)."""
    power = np.convolve(samples.astype(np.float64) ** 2, np.ones(length), mode="valid")
    return int(np.argmax(power))


def silero_v5_inputs(samples):
    # v5 takes 512 new samples with the previous chunk's last 64 prepended: 576 in all.
    start = loudest_offset(samples, 576)
    chunk = samples[start:start + 576].astype(np.float32) / 32768.0
    return {"input": chunk[None, :],
            "state": np.zeros((2, 1, 128), np.float32),
            "sr": np.array(SAMPLE_RATE, np.int64)}


def silero_legacy_inputs(samples):
    start = loudest_offset(samples, 512)
    chunk = samples[start:start + 512].astype(np.float32) / 32768.0
    return {"input": chunk[None, :], "sr": np.array(SAMPLE_RATE, np.int64),
            "h": np.zeros((2, 1, 64), np.float32), "c": np.zeros((2, 1, 64), np.float32)}


def mel_inputs(samples):
    # openWakeWord feeds raw int16 values as float; pad with silence or cut to MEL_SAMPLES.
    clip = np.zeros(MEL_SAMPLES, np.float32)
    n = min(MEL_SAMPLES, samples.size)
    clip[:n] = samples[:n]
    return {"input": clip[None, :]}


def mel_features(mel_output):
    """openWakeWord's scaling of the mel model's output [1, 1, frames, 32]: spec / 10 + 2."""
    frames = np.asarray(mel_output, np.float32).reshape(-1, 32)
    needed = EMBED_FRAMES + (HEAD_WINDOWS - 1) * EMBED_STRIDE
    if frames.shape[0] < needed:
        raise RuntimeError(f"mel model gave {frames.shape[0]} frames, need {needed}")
    return frames / 10.0 + 2.0


def embedding_windows(features):
    """The 16 windows of 76 frames (stride 8) a wake-word head looks at: [16, 76, 32, 1]."""
    wins = [features[i * EMBED_STRIDE:i * EMBED_STRIDE + EMBED_FRAMES] for i in range(HEAD_WINDOWS)]
    return np.stack(wins)[:, :, :, None].astype(np.float32)


def embedding_inputs(windows):
    # One window (batch 1, as openWakeWord streams it): the middle one, well inside the speech.
    return {"input_1": windows[HEAD_WINDOWS // 2][None]}


def head_features(embedding_output):
    """The embedding model's [16, 1, 1, 96] output as a head's [1, 16, 96] input."""
    emb = np.asarray(embedding_output, np.float32).reshape(HEAD_WINDOWS, 96)
    return emb[None]
