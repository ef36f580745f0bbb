// SPDX-License-Identifier: BSD-3-Clause
// CopyLoop: the hand-written copy of one halo message between two arrays of doubles, chosen once
// per message so the loop itself is as plain as a person would write it: memcpy per contiguous
// row, a typed element loop for strided rows and columns, a gather or scatter loop over an index
// list. The MPI implementations pack and unpack with it (one side is then a contiguous buffer);
// the raw floor copies straight from the neighbour's array into its own ghost cells with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ghostwire/layout.hpp"

namespace gwbench::halo {

class CopyLoop {
 public:
  CopyLoop() = default;
  // Copies the elements of `from` (in message order) onto the elements of `to`; both must hold
  // the same number of elements.
  CopyLoop(const ghostwire::Layout& from, const ghostwire::Layout& to);
  static CopyLoop pack(const ghostwire::Layout& from) { return {from, ghostwire::Layout::contiguous(0, from.count())}; }
  static CopyLoop unpack(const ghostwire::Layout& to) { return {ghostwire::Layout::contiguous(0, to.count()), to}; }

  void run(const double* source, double* destination) const;
  std::size_t count() const noexcept { return count_; }

 private:
  enum class Kind { none, boxes, gather, scatter, pairs };
  struct Box {
    std::size_t start = 0;
    std::ptrdiff_t stride[3] = {1, 0, 0};
  };
  void run_boxes(const double* source, double* destination) const;

  Kind kind_ = Kind::none;
  std::size_t count_ = 0;
  std::size_t extent_[3] = {1, 1, 1};  // boxes: the common shape
  Box from_, to_;                       // boxes; for gather/scatter only the contiguous side's start
  std::vector<std::size_t> from_index_, to_index_;  // gather: from; scatter: to; pairs: both
};

}  // namespace gwbench::halo
