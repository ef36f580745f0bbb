// SPDX-License-Identifier: BSD-3-Clause
#include "message_buffers.hpp"

#include <climits>
#include <stdexcept>

namespace gwbench::halo {
namespace {

bool contiguous(const ghostwire::Layout& layout, std::size_t& start) {
  int runs = 0;
  layout.for_each_run([&](std::size_t first, std::size_t) {
    if (runs++ == 0) start = first;
  });
  return runs == 1;
}

int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT_MAX)) throw std::runtime_error("a halo message exceeds INT_MAX doubles");
  return static_cast<int>(count);
}

}  // namespace

MessageBuffers::MessageBuffers(const HaloCase& c, double* field, double* receive_area) : field_(field) {
  std::size_t storage = 0, start = 0;
  for (const Message& m : c.sends)
    if (!contiguous(m.layout, start)) storage += m.layout.count();
  if (!receive_area)
    for (const Receive& m : c.receives)
      if (!contiguous(m.layout, start)) storage += m.layout.count();
  storage_.assign(storage, 0.0);

  double* next = storage_.data();
  for (const Message& m : c.sends) {
    PackedMessage p{m.neighbour, m.tag, checked_count(m.layout.count()), nullptr, false, {}};
    if (contiguous(m.layout, start)) {
      p.data = field + start;
      p.in_place = true;
    } else {
      p.data = next;
      next += m.layout.count();
      p.copy = CopyLoop::pack(m.layout);
    }
    sends.push_back(std::move(p));
  }
  double* area = receive_area;
  for (const Receive& m : c.receives) {
    PackedMessage p{m.neighbour, m.tag, checked_count(m.layout.count()), nullptr, false, {}};
    if (area) {
      p.data = area;
      area += m.layout.count();
      p.copy = CopyLoop::unpack(m.layout);
    } else if (contiguous(m.layout, start)) {
      p.data = field + start;
      p.in_place = true;
    } else {
      p.data = next;
      next += m.layout.count();
      p.copy = CopyLoop::unpack(m.layout);
    }
    receives.push_back(std::move(p));
  }
}

}  // namespace gwbench::halo
