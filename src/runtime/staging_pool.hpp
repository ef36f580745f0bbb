// SPDX-License-Identifier: BSD-3-Clause
// Reusable send buffers for the two-sided transport, by power-of-two size class, so a steady stream
// of messages allocates nothing. Invariant: a buffer is out of the pool while its send is under way.
// docs/runtime.md, "Notifications and notified writes".
#pragma once

#include <bit>
#include <cstddef>
#include <memory>
#include <vector>

namespace ghostwire::detail {

class StagingPool {
 public:
  struct Buffer {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size_class = 0;
  };

  Buffer acquire(std::size_t bytes) {
    std::size_t size_class = std::bit_width(std::max<std::size_t>(bytes, 64) - 1);
    if (size_class >= free_.size()) free_.resize(size_class + 1);
    auto& list = free_[size_class];
    if (!list.empty()) {
      Buffer buffer{std::move(list.back()), size_class};
      list.pop_back();
      return buffer;
    }
    return Buffer{std::make_unique<std::byte[]>(std::size_t{1} << size_class), size_class};
  }

  void release(Buffer&& buffer) {
    if (buffer.bytes) free_[buffer.size_class].push_back(std::move(buffer.bytes));
  }

 private:
  std::vector<std::vector<std::unique_ptr<std::byte[]>>> free_;
};

}  // namespace ghostwire::detail
