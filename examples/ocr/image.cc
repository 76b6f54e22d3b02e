// LoadImage: reads a file and hands its bytes to the decoder its signature names.
#include "image.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace ocr {
namespace {

// A hint for files we do not decode, so the error says what the file is.
std::string DescribeSignature(const std::vector<uint8_t>& b) {
  auto starts = [&](const char* magic) {
    const size_t n = std::strlen(magic);
    return b.size() >= n && std::memcmp(b.data(), magic, n) == 0;
  };
  if (b.size() >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff) return "a JPEG image";
  if (starts("GIF8")) return "a GIF image";
  if (starts("BM")) return "a BMP image";
  if (starts("RIFF")) return "a RIFF (WebP?) file";
  if (starts("II*") || starts("MM")) return "a TIFF image";
  if (starts("P1") || starts("P2") || starts("P3") || starts("P4")) {
    return "an ASCII or 1-bit PNM image (only binary P5/P6 are read)";
  }
  char hex[64] = "";
  for (size_t i = 0; i < b.size() && i < 4; ++i) {
    std::snprintf(hex + std::strlen(hex), sizeof hex - std::strlen(hex), "%s%02x", i ? " " : "",
                  b[i]);
  }
  return std::string("unknown (first bytes ") + hex + ")";
}

}  // namespace

trinity::Result<Image> LoadImage(const std::string& path) {
  const std::string what = "image '" + path + "'";
  // stdio, not iostreams: reading a directory or a failing device must be an error to report,
  // and libstdc++'s istreambuf_iterator throws on it instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return trinity::Status::InvalidArgument(what + ": is a directory, not an image file");
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    return trinity::Status::NotFound(what + ": cannot open file: " + std::strerror(errno));
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + n);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) return trinity::Status::InvalidArgument(what + ": read error");
  if (bytes.empty()) return trinity::Status::InvalidArgument(what + ": file is empty");
  static const uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), kPngSignature, 8) == 0) {
    return DecodePng(bytes.data(), bytes.size(), what);
  }
  if (bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6')) {
    return DecodePnm(bytes.data(), bytes.size(), what);
  }
  return trinity::Status::InvalidArgument(what +
                                          ": unsupported format: " + DescribeSignature(bytes) +
                                          "; expected PNG, PPM (P6) or PGM (P5)");
}

}  // namespace ocr
