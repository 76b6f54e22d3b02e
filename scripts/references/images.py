"""Real images for the vision models' reference inputs, drawn with ImageMagick.

Text is rendered with a DejaVu font for PP-OCR (detector, direction classifier, recogniser); lines
and shapes are drawn for M-LSD (a line-segment detector) and a simple face for BlazeFace. Each
image is normalised the way the model's own project does it. Positions that vary come from a
seeded generator, so every run draws the same pixels.
"""

import os
import subprocess

import numpy as np

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SEED = 20240607


def render(work_dir, name, width, height, draw_args):
    """Runs `convert` on a white canvas with `draw_args` and returns the RGB pixels [h, w, 3]."""
    if not os.path.exists(FONT):
        raise RuntimeError(f"font {FONT} not found (apt-get install fonts-dejavu-core)")
    out = os.path.join(work_dir, name + ".rgb")
    subprocess.run(["convert", "-size", f"{width}x{height}", "xc:white", "-font", FONT,
                    *draw_args, "-depth", "8", f"rgb:{out}"], check=True)
    pixels = np.fromfile(out, np.uint8)
    if pixels.size != width * height * 3:
        raise RuntimeError(f"convert wrote {pixels.size} bytes for a {width}x{height} RGB image")
    return pixels.reshape(height, width, 3)


def text(x, y, size, words, colour="black", angle=0):
    return ["-fill", colour, "-pointsize", str(size), "-annotate", f"{angle}x{angle}+{x}+{y}", words]


def paddle_nchw(rgb, mean, std):
    # PaddleOCR reads images as BGR and normalises that order with these means and deviations.
    bgr = rgb[:, :, ::-1].astype(np.float32) / 255.0
    return ((bgr - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)


def ppocr_det_inputs(work_dir):
    # A page with a few lines of text of different sizes and one slanted line; 320x640 (H x W),
    # both multiples of 32 as the DB detector needs.
    img = render(work_dir, "ppocr_det", 640, 320, [
        *text(24, 60, 34, "Trinity on-device inference"),
        *text(24, 120, 24, "ONNX Runtime 1.30 reference outputs"),
        *text(40, 200, 28, "Invoice No. 2026-0117", colour="#203080"),
        *text(330, 290, 22, "Total: 42.50 EUR", angle=-8),
    ])
    return {"x": paddle_nchw(img, np.array([0.485, 0.456, 0.406], np.float32),
                             np.array([0.229, 0.224, 0.225], np.float32))}


def ppocr_cls_inputs(work_dir):
    # One cropped text line, upright: the classifier should say 0 degrees.
    img = render(work_dir, "ppocr_cls", 192, 48, text(6, 34, 26, "Weather 21C"))
    return {"x": paddle_nchw(img, np.float32(0.5), np.float32(0.5))}


def ppocr_rec_inputs(work_dir):
    img = render(work_dir, "ppocr_rec", 320, 48, text(6, 35, 28, "Hello Trinity 2026"))
    return {"x": paddle_nchw(img, np.float32(0.5), np.float32(0.5))}


def mlsd_inputs(work_dir):
    # A room-like scene: a grey wall, a door and window frames, and seeded straight lines.
    rng = np.random.default_rng(SEED)
    draw = ["-fill", "#d8d0c0", "-draw", "rectangle 0,0 319,319",
            "-fill", "none", "-stroke", "#303030", "-strokewidth", "4",
            "-draw", "rectangle 40,90 120,300",
            "-draw", "rectangle 170,60 290,170",
            "-draw", "line 230,60 230,170", "-draw", "line 170,115 290,115",
            "-strokewidth", "3"]
    for _ in range(5):
        x0, y0, x1, y1 = (int(v) for v in rng.integers(10, 310, size=4))
        draw += ["-draw", f"line {x0},{y0} {x1},{y1}"]
    img = render(work_dir, "mlsd", 320, 320, draw)
    # M-LSD's reference code appends an all-ones alpha channel, then scales by 1/127.5 - 1.
    rgba = np.concatenate([img.astype(np.float32), np.ones((320, 320, 1), np.float32)], axis=2)
    return {"input_image_with_alpha:0": (rgba / 127.5 - 1.0)[None].astype(np.float32)}


def blazeface_inputs(work_dir):
    # A frontal cartoon face: skin-toned head, hair, eyes, nose and mouth on a seeded-noise
    # background (so the image is not flat where there is no face).
    img = render(work_dir, "blazeface", 128, 128, [
        "-fill", "#6a8caf", "-draw", "rectangle 0,0 127,127",
        "-fill", "#3b2a1a", "-draw", "ellipse 64,52 40,42 180,360",
        "-fill", "#e0b090", "-draw", "ellipse 64,66 34,44 0,360",
        "-fill", "white", "-draw", "ellipse 50,58 8,5 0,360", "-draw", "ellipse 78,58 8,5 0,360",
        "-fill", "#302010", "-draw", "circle 50,58 53,58", "-draw", "circle 78,58 81,58",
        "-fill", "#c08070", "-draw", "polygon 64,62 58,80 70,80",
        "-fill", "#a03030", "-draw", "ellipse 64,92 13,5 0,360",
    ])
    rng = np.random.default_rng(SEED)
    noisy = np.clip(img.astype(np.float32) + rng.normal(0.0, 4.0, img.shape), 0.0, 255.0)
    # MediaPipe's BlazeFace takes RGB scaled to [-1, 1].
    return {"input:0": (noisy / 127.5 - 1.0)[None].astype(np.float32)}
