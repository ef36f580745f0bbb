// SPDX-License-Identifier: BSD-3-Clause
#include "add_loop.hpp"

#include <stdexcept>

namespace gwbench::halo {

void AddLoop::append(std::size_t from, std::size_t to, std::size_t count) {
  if (!stretches_.empty()) {
    Stretch& last = stretches_.back();
    if (last.from + last.count == from && last.to + last.count == to) {
      last.count += count;
      return;
    }
  }
  stretches_.push_back({from, to, count});
}

AddLoop::AddLoop(const ghostwire::Layout& to) {
  std::size_t position = 0;
  to.for_each_run([&](std::size_t start, std::size_t count) {
    append(position, start, count);
    position += count;
  });
}

AddLoop::AddLoop(const std::vector<std::size_t>& from, const ghostwire::Layout& to) {
  if (from.size() != to.count()) throw std::logic_error("AddLoop: the two sides differ in element count");
  std::size_t position = 0;
  to.for_each_run([&](std::size_t start, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) append(from[position + k], start + k, 1);
    position += count;
  });
}

}  // namespace gwbench::halo
