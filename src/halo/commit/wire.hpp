// SPDX-License-Identifier: BSD-3-Clause
// Byte-level reading and writing of the descriptors ranks exchange at commit. The reader never
// reads past its bytes and never believes a count that the remaining bytes could not hold: a short
// or corrupt descriptor becomes an error naming the rank it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "ghostwire/layout.hpp"

namespace ghostwire::detail {

class WireWriter {
 public:
  void u64(std::uint64_t value) { append(&value, sizeof value); }
  void i64(std::int64_t value) { append(&value, sizeof value); }
  void flag(bool value) { u64(value ? 1 : 0); }
  void layout(const Layout& layout);
  // `data` as it is, then padding to a multiple of 8 bytes (its length is written by the caller).
  void raw(const std::vector<std::byte>& data) {
    append(data.data(), data.size());
    const std::size_t padding = (8 - data.size() % 8) % 8;
    bytes_.resize(bytes_.size() + padding, std::byte{0});
  }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  // resize + memcpy: gcc 12 warns falsely (-Wstringop-overflow) on vector::insert of a byte range.
  // Nothing to append may come with a null pointer (an empty section's data()): memcpy must not see it.
  void append(const void* data, std::size_t size) {
    if (size == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + size);
    std::memcpy(bytes_.data() + at, data, size);
  }
  std::vector<std::byte> bytes_;
};

class WireReader {
 public:
  // `from` names the sender in errors ("rank 3").
  WireReader(std::span<const std::byte> bytes, std::string from) : bytes_(bytes), from_(std::move(from)) {}
  std::uint64_t u64() { return take<std::uint64_t>(); }
  std::int64_t i64() { return take<std::int64_t>(); }
  bool flag();
  // A count of items each at least `item_bytes` long on the wire.
  std::size_t count(std::size_t item_bytes, const char* what);
  Layout layout();
  // `size` bytes written by WireWriter::raw, and their padding.
  std::vector<std::byte> raw(std::size_t size) {
    const std::size_t padded = size + (8 - size % 8) % 8;
    if (size > remaining() || padded > remaining())
      corrupt("it ends early (" + std::to_string(size) + " bytes announced, " + std::to_string(remaining()) + " left)");
    std::vector<std::byte> data(bytes_.begin() + static_cast<std::ptrdiff_t>(position_),
                                bytes_.begin() + static_cast<std::ptrdiff_t>(position_ + size));
    for (std::size_t k = position_ + size; k < position_ + padded; ++k)
      if (bytes_[k] != std::byte{0}) corrupt("padding after " + std::to_string(size) + " bytes is not zero");
    position_ += padded;
    return data;
  }
  std::size_t remaining() const { return bytes_.size() - position_; }
  [[noreturn]] void corrupt(const std::string& what) const;

 private:
  template <class T>
  T take() {
    if (remaining() < sizeof(T))
      corrupt("it ends early (" + std::to_string(bytes_.size()) + " bytes, more expected at byte " +
              std::to_string(position_) + ")");
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }
  std::span<const std::byte> bytes_;
  std::string from_;
  std::size_t position_ = 0;
};

}  // namespace ghostwire::detail
