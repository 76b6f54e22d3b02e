// NumPy .npy reader and writer. The header is a Python dict literal; we parse exactly the three
// keys numpy writes and reject anything else with a message naming the problem.
#include "trinity/npy.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include "import/onnx/onnx_importer.h"

namespace trinity {
namespace {

struct DescrMap {
  const char* descr;
  DType dtype;
};
constexpr DescrMap kDescrs[] = {
    {"<f4", DType::kF32}, {"<f8", DType::kF64}, {"<f2", DType::kF16}, {"|i1", DType::kI8},
    {"|u1", DType::kU8},  {"<i2", DType::kI16}, {"<u2", DType::kU16}, {"<i4", DType::kI32},
    {"<u4", DType::kU32}, {"<i8", DType::kI64}, {"<u8", DType::kU64}, {"|b1", DType::kBool},
};

// Finds the value text after 'key': in the header dict.
bool FindValue(const std::string& h, const std::string& key, std::string* value) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) return false;
  size_t colon = h.find(':', k);
  if (colon == std::string::npos) return false;
  size_t p = colon + 1;
  while (p < h.size() && h[p] == ' ') ++p;
  if (p >= h.size()) return false;
  size_t end;
  if (h[p] == '\'') {
    end = h.find('\'', p + 1);
    if (end == std::string::npos) return false;
    *value = h.substr(p + 1, end - p - 1);
  } else if (h[p] == '(') {
    end = h.find(')', p);
    if (end == std::string::npos) return false;
    *value = h.substr(p + 1, end - p - 1);
  } else {
    end = h.find_first_of(",}", p);
    if (end == std::string::npos) return false;
    *value = h.substr(p, end - p);
  }
  return true;
}

}  // namespace

Result<Tensor> ReadNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::NotFound("cannot open '" + path + "'");
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return ParseNpy(bytes.data(), bytes.size(), "'" + path + "'");
}

Result<Tensor> ParseNpy(const void* data, size_t size, const std::string& what) {
  const std::string_view bytes(static_cast<const char*>(data), size);
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    return Status::InvalidArgument(what + " is not a .npy file (bad magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Status::InvalidArgument(what + " is truncated");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    return Status::InvalidArgument(what + " has unsupported .npy version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) return Status::InvalidArgument(what + " is truncated (header)");
  const std::string header(bytes.substr(header_start, header_len));
  std::string descr, fortran, shape_text;
  if (!FindValue(header, "descr", &descr) || !FindValue(header, "fortran_order", &fortran) ||
      !FindValue(header, "shape", &shape_text)) {
    return Status::InvalidArgument(what + " has a malformed .npy header: " + header);
  }
  DType dtype = DType::kUndefined;
  for (const auto& d : kDescrs)
    if (descr == d.descr) dtype = d.dtype;
  if (descr == "|u1" || descr == "<u1") dtype = DType::kU8;
  if (descr == "<i1") dtype = DType::kI8;
  if (dtype == DType::kUndefined) {
    return Status::InvalidArgument(what + " has unsupported dtype '" + descr +
                                   "' (little-endian numeric or bool only)");
  }
  if (fortran.find("True") != std::string::npos) {
    return Status::InvalidArgument(what + " is in Fortran order; save it C-contiguous");
  }
  std::vector<int64_t> shape;
  std::stringstream ss(shape_text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(" ");
    if (b == std::string::npos) continue;
    char* end = nullptr;
    long long v = std::strtoll(item.c_str() + b, &end, 10);
    if (end == item.c_str() + b || v < 0) {
      return Status::InvalidArgument(what + " has an invalid shape (" + shape_text + ")");
    }
    shape.push_back(v);
  }
  const int64_t n = shape_numel(shape);
  if (n < 0) return Status::InvalidArgument(what + " has an absurd shape (" + shape_text + ")");
  const size_t data_start = header_start + header_len;
  const size_t avail = bytes.size() - data_start;
  if (static_cast<uint64_t>(n) > avail / dtype_size(dtype) + 1 ||
      static_cast<size_t>(n) * dtype_size(dtype) != avail) {
    return Status::InvalidArgument(what + " holds " + std::to_string(avail) + " data bytes, expected " +
                                   std::to_string(static_cast<uint64_t>(n) * dtype_size(dtype)) + " for " +
                                   dtype_name(dtype) + shape_to_string(shape));
  }
  TRY_ASSIGN(Tensor t, Tensor::Create(dtype, shape));
  if (avail) std::memcpy(t.raw_data(), bytes.data() + data_start, avail);
  return t;
}

Status WriteNpy(const std::string& path, const Tensor& tensor) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs)
    if (d.dtype == tensor.dtype()) descr = d.descr;
  if (descr == nullptr) {
    return Status::Unsupported(std::string("cannot write dtype ") + dtype_name(tensor.dtype()) + " to .npy");
  }
  std::string shape;
  for (int64_t d : tensor.shape()) shape += std::to_string(d) + ", ";
  if (tensor.rank() > 1) shape.resize(shape.size() - 1);  // "(2, 3)" but "(5,)"
  if (tensor.rank() > 1) shape.back() = ' ', shape.pop_back();
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Pad so the data starts at a multiple of 64 bytes; the header ends with '\n'.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) return Status::NotFound("cannot write '" + path + "'");
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(len_bytes, 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  if (tensor.nbytes()) f.write(static_cast<const char*>(tensor.raw_data()), static_cast<std::streamsize>(tensor.nbytes()));
  if (!f) return Status::RuntimeError("failed writing '" + path + "'");
  return Status::Ok();
}

Result<Tensor> ReadTensorFile(const std::string& path) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0) return LoadTensorProtoFile(path);
  return ReadNpy(path);
}

}  // namespace trinity
