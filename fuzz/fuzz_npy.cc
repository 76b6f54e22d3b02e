// Fuzz target: .npy bytes -> ParseNpy. Must return a tensor whose byte size matches the data,
// or an error; never crash or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "trinity/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto t = trinity::ParseNpy(data, size, "'fuzz.npy'");
  if (t.ok() && t->nbytes() > size) std::abort();  // the data cannot be larger than the file
  return 0;
}
