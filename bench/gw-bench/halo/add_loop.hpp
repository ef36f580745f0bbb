// SPDX-License-Identifier: BSD-3-Clause
// AddLoop: the hand-written add of one returning halo message into the owner's elements (the
// reverse exchange with sum), chosen once per message like CopyLoop: a plain loop per stretch where
// both sides are consecutive. The source is a contiguous message (the MPI implementations'
// scratch) or the neighbour's own array (raw, which reads its ghost cells in place).
#pragma once

#include <cstddef>
#include <vector>

#include "ghostwire/layout.hpp"

namespace gwbench::halo {

class AddLoop {
 public:
  // From a contiguous message (its doubles in message order) into the elements of `to`.
  explicit AddLoop(const ghostwire::Layout& to);
  // From elements `from` of another array (message order) into the elements of `to`.
  AddLoop(const std::vector<std::size_t>& from, const ghostwire::Layout& to);

  void run(const double* source, double* destination) const {
    for (const Stretch& s : stretches_) {
      const double* from = source + s.from;
      double* to = destination + s.to;
      for (std::size_t k = 0; k < s.count; ++k) to[k] += from[k];
    }
  }

 private:
  struct Stretch {
    std::size_t from, to, count;
  };
  void append(std::size_t from, std::size_t to, std::size_t count);
  std::vector<Stretch> stretches_;  // message order
};

}  // namespace gwbench::halo
