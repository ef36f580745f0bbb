// SPDX-License-Identifier: BSD-3-Clause
// The reverse exchange as the MPI implementations see it: each forward receive (ghost cells) goes
// back to its owner from where it was received (packed, or in place when it is one run), and each
// forward send comes back into a scratch area, one message after another in (neighbour, tag)
// order, and is added into the owned elements it was sent from, in that order: the order
// ghostwire's Plan::reverse_exchange combines in, so sums are the same run to run.
#pragma once

#include <vector>

#include "add_loop.hpp"
#include "halo_case.hpp"
#include "message_buffers.hpp"

namespace gwbench::halo {

// The case with sends and receives swapped (the layouts only): what the reverse exchange moves.
HaloCase transposed(const HaloCase& c);

// The doubles that come back to this rank: all of its forward sends.
std::size_t returning_elements(const HaloCase& c);

class ReverseBuffers {
 public:
  // `area` (optional): where the returning messages land, one after another (mpi-put's window); it
  // must hold returning_elements(c) doubles. Without it the buffers keep their own scratch.
  ReverseBuffers(const HaloCase& c, double* field, double* area = nullptr);
  ReverseBuffers(const ReverseBuffers&) = delete;
  ReverseBuffers& operator=(const ReverseBuffers&) = delete;

  // What MPI sends from (the ghost cells, packed or in place) and receives into (scratch), both
  // sorted by (neighbour, tag) as the forward messages are.
  const std::vector<PackedMessage>& sends() const { return buffers_.sends; }
  const std::vector<PackedMessage>& receives() const { return buffers_.receives; }
  void pack(const PackedMessage& m) const { buffers_.pack(m); }
  void pack() const { buffers_.pack(); }
  // Every received message added into the owned elements, in (neighbour, tag) order.
  void add() const {
    for (std::size_t k = 0; k < adds_.size(); ++k) adds_[k].run(buffers_.receives[k].data, field_);
  }

 private:
  double* field_;
  std::vector<double> scratch_;
  MessageBuffers buffers_;
  std::vector<AddLoop> adds_;
};

}  // namespace gwbench::halo
