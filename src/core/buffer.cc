#include "trinity/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/host_memory_pool.h"

namespace trinity {

const char* memory_domain_name(MemoryDomain d) {
  switch (d) {
    case MemoryDomain::kHost: return "host";
    case MemoryDomain::kHostShared: return "host-shared";
    case MemoryDomain::kMappedFile: return "mapped-file";
    case MemoryDomain::kDeviceLocal: return "device-local";
    case MemoryDomain::kDeviceHostVisible: return "device-host-visible";
  }
  return "unknown";
}

namespace {

class HostBuffer final : public Buffer {
 public:
  HostBuffer(void* p, size_t n) : p_(p), n_(n) {}
  ~HostBuffer() override { HostMemoryPool::Instance().Free(p_, n_); }
  MemoryDomain domain() const override { return MemoryDomain::kHost; }
  void* data() override { return p_; }
  size_t size() const override { return n_; }

 private:
  void* p_;
  size_t n_;
};

class MappedBuffer final : public Buffer {
 public:
  MappedBuffer(MemoryDomain domain, void* p, size_t n, int fd)
      : domain_(domain), p_(p), n_(n), fd_(fd) {}
  ~MappedBuffer() override {
    if (p_ != nullptr && n_ > 0) munmap(p_, n_);
    if (fd_ >= 0) close(fd_);
  }
  MemoryDomain domain() const override { return domain_; }
  void* data() override { return p_; }
  size_t size() const override { return n_; }
  int shareable_fd() const override { return domain_ == MemoryDomain::kHostShared ? fd_ : -1; }

 private:
  MemoryDomain domain_;
  void* p_;
  size_t n_;
  int fd_;
};

class SliceBuffer final : public Buffer {
 public:
  SliceBuffer(std::shared_ptr<Buffer> parent, size_t off, size_t n)
      : parent_(std::move(parent)), off_(off), n_(n) {}
  MemoryDomain domain() const override { return parent_->domain(); }
  void* data() override {
    auto* base = static_cast<char*>(parent_->data());
    return base ? base + off_ : nullptr;
  }
  size_t size() const override { return n_; }

 private:
  std::shared_ptr<Buffer> parent_;
  size_t off_, n_;
};

}  // namespace

namespace {

// TRINITY_POISON_UNINITIALIZED=1 fills uninitialised allocations with 0xFF bytes (NaN as
// floats, -1 as integers), so a kernel that reads an output it never wrote shows up in tests.
bool PoisonUninitialized() {
  static const bool on = [] {
    const char* v = std::getenv("TRINITY_POISON_UNINITIALIZED");
    return v != nullptr && v[0] == '1';
  }();
  return on;
}

Result<std::shared_ptr<Buffer>> AllocateHostBlock(size_t bytes, bool zero) {
  void* p = HostMemoryPool::Instance().Allocate(bytes);
  if (p == nullptr) {
    return Status::RuntimeError("out of memory allocating " + std::to_string(bytes) + " bytes");
  }
  if (zero) std::memset(p, 0, bytes);
  else if (PoisonUninitialized()) std::memset(p, 0xFF, bytes);
  return std::shared_ptr<Buffer>(std::make_shared<HostBuffer>(p, bytes));
}

}  // namespace

Result<std::shared_ptr<Buffer>> Buffer::AllocateHost(size_t bytes) {
  return AllocateHostBlock(bytes, /*zero=*/true);
}

Result<std::shared_ptr<Buffer>> Buffer::AllocateHostUninitialized(size_t bytes) {
  return AllocateHostBlock(bytes, /*zero=*/false);
}

Result<std::shared_ptr<Buffer>> Buffer::AllocateHostShared(size_t bytes, const std::string& name) {
  int fd = memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0) return Status::RuntimeError(std::string("memfd_create failed: ") + std::strerror(errno));
  const size_t n = bytes == 0 ? 1 : bytes;
  if (ftruncate(fd, static_cast<off_t>(n)) != 0) {
    close(fd);
    return Status::RuntimeError(std::string("ftruncate of shared buffer failed: ") + std::strerror(errno));
  }
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    close(fd);
    return Status::RuntimeError(std::string("mmap of shared buffer failed: ") + std::strerror(errno));
  }
  return std::shared_ptr<Buffer>(std::make_shared<MappedBuffer>(MemoryDomain::kHostShared, p, n, fd));
}

Result<std::shared_ptr<Buffer>> Buffer::MapFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::NotFound("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status::InvalidArgument("'" + path + "' is not a regular file");
  }
  const size_t n = static_cast<size_t>(st.st_size);
  void* p = nullptr;
  if (n > 0) {
    p = mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      close(fd);
      return Status::RuntimeError("mmap of '" + path + "' failed: " + std::strerror(errno));
    }
  }
  close(fd);
  return std::shared_ptr<Buffer>(std::make_shared<MappedBuffer>(MemoryDomain::kMappedFile, p, n, -1));
}

std::shared_ptr<Buffer> Buffer::Slice(std::shared_ptr<Buffer> parent, size_t offset, size_t size) {
  return std::make_shared<SliceBuffer>(std::move(parent), offset, size);
}

}  // namespace trinity
