// Buffers: bytes that live in one memory domain, shared by reference count.
//
// A memory domain says where bytes live and so who can touch them without a copy. Backends
// declare which domains they read and write directly; the partitioner (later) inserts counted
// copies only between domains that cannot see each other.
//
// Threading: a Buffer's bytes are not synchronised; the executor orders writers and readers.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "trinity/status.h"

namespace trinity {

enum class MemoryDomain : uint8_t {
  kHost,               // ordinary process memory
  kHostShared,         // memfd-backed memory that another process can map
  kMappedFile,         // read-only bytes mapped from a file (weights)
  kDeviceLocal,        // GPU memory the CPU cannot address
  kDeviceHostVisible,  // GPU memory the CPU can map (shared on unified-memory devices)
};

const char* memory_domain_name(MemoryDomain d);

class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual MemoryDomain domain() const = 0;
  // Host address of the bytes, or nullptr when the domain is not host-addressable.
  virtual void* data() = 0;
  virtual size_t size() const = 0;
  // File descriptor another process can mmap (kHostShared), else -1.
  virtual int shareable_fd() const { return -1; }

  // 64-byte aligned host memory, zero-filled. Fails (does not throw) on allocation failure.
  static Result<std::shared_ptr<Buffer>> AllocateHost(size_t bytes);
  // Like AllocateHost without the zero fill, for producers that write every byte. Freed host
  // blocks are cached and reused, so the contents are whatever was there before.
  static Result<std::shared_ptr<Buffer>> AllocateHostUninitialized(size_t bytes);
  // memfd-backed host memory that can be mapped by another process via shareable_fd().
  static Result<std::shared_ptr<Buffer>> AllocateHostShared(size_t bytes, const std::string& name);
  // Maps a whole file read-only. The mapping lives as long as the buffer.
  static Result<std::shared_ptr<Buffer>> MapFile(const std::string& path);
  // A view of `size` bytes at `offset` of `parent`, keeping the parent alive.
  static std::shared_ptr<Buffer> Slice(std::shared_ptr<Buffer> parent, size_t offset, size_t size);
};

}  // namespace trinity
