// ocr: read the text in an image with PP-OCRv4 on Trinity. Copy it as a starting point.
//
//   example_ocr IMAGE.png MODELS_DIR [THREADS]
//
// MODELS_DIR holds ch_PP-OCRv4_det_infer.onnx, ch_ppocr_mobile_v2.0_cls_infer.onnx,
// ch_PP-OCRv4_rec_infer.onnx and ppocr_keys_v1.txt (scripts/fetch_models.sh puts them in
// ~/.cache/trinity/models). Prints one line per text line: the text, its confidence and its
// box's corners (top-left, top-right, bottom-right, bottom-left).
#include <cstdio>
#include <cstdlib>

#include "ocr/pipeline.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s IMAGE.png MODELS_DIR [THREADS]\n", argv[0]);
    return 2;
  }
  // Every step returns a trinity::Status or Result<T> instead of throwing; the message names
  // the file and what is wrong with it.
  auto image = ocr::LoadImage(argv[1]);
  if (!image.ok()) {
    std::fprintf(stderr, "error: %s\n", image.status().ToString().c_str());
    return 2;
  }
  ocr::OcrOptions options;  // PaddleOCR's defaults
  options.num_threads = argc > 3 ? std::atoi(argv[3]) : 1;
  // Create loads the three models once; a pipeline can then read any number of images.
  auto pipeline = ocr::OcrPipeline::Create(argv[2], options);
  if (!pipeline.ok()) {
    std::fprintf(stderr, "error: %s\n", pipeline.status().ToString().c_str());
    return 1;
  }
  auto lines = (*pipeline)->Run(*image);
  if (!lines.ok()) {
    std::fprintf(stderr, "error: %s\n", lines.status().ToString().c_str());
    return 1;
  }
  for (const ocr::TextLine& line : *lines) {
    std::printf("%s  (%.3f)", line.text.c_str(), line.confidence);
    for (const ocr::PointF& p : line.box) std::printf(" %g,%g", p.x, p.y);
    std::printf("\n");
  }
  return 0;
}
