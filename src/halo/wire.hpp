// Byte-level serialisation of the descriptors ranks exchange at commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/layout.hpp"

namespace ghostwire::detail {

class WireWriter {
 public:
  void u64(std::uint64_t value) { append(&value, sizeof value); }
  void i64(std::int64_t value) { append(&value, sizeof value); }
  void layout(const Layout& layout);
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  void append(const void* data, std::size_t size) {
    const auto* start = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), start, start + size);
  }
  std::vector<std::byte> bytes_;
};

class WireReader {
 public:
  explicit WireReader(const std::vector<std::byte>& bytes) : bytes_(bytes) {}
  std::uint64_t u64() { return take<std::uint64_t>(); }
  std::int64_t i64() { return take<std::int64_t>(); }
  Layout layout();

 private:
  template <class T>
  T take() {
    if (position_ + sizeof(T) > bytes_.size())
      raise(Errc::internal, "commit descriptor ended early (" + std::to_string(bytes_.size()) + " bytes)");
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }
  const std::vector<std::byte>& bytes_;
  std::size_t position_ = 0;
};

}  // namespace ghostwire::detail
