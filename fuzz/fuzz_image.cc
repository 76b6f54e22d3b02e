// Fuzz target: image file bytes -> the OCR pipeline's PNG and PNM decoders (examples/ocr).
// Must return an image whose pixel buffer matches its size, or an error; never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "ocr/image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (auto decode : {ocr::DecodePng, ocr::DecodePnm}) {
    auto img = decode(data, size, "'fuzz'");
    if (img.ok() && img->bgr.size() != static_cast<size_t>(img->width) * img->height * 3) {
      std::abort();
    }
  }
  return 0;
}
