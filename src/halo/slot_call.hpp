// SPDX-License-Identifier: BSD-3-Clause
// The claim every slot call of a plan takes for its length (Plan's calls and the slot ends'):
// halo/slot_use.hpp's claim, and the World's thread level where the slot calls MPI
// (runtime/threads.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "halo/path_dispatch.hpp"
#include "halo/plan_state.hpp"
#include "halo/slot_use.hpp"
#include "runtime/threads.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

// One call on one direction of a (channel, neighbour), or of one partition of it: the slot claimed
// for this thread, and MPI entered if the slot travels between nodes.
class SlotCall {
 public:
  SlotCall(PlanState& p, bool sending, std::int32_t first, Scope scope, const char* call)
      : claim_(p, sending, first, scope, call) {
    const bool between = sending ? between_nodes(p.sends[static_cast<std::size_t>(first)])
                                 : between_nodes(p.receives[static_cast<std::size_t>(first)]);
    if (between && !mpi_.enter(*p.w)) {
      const std::size_t channel = sending ? p.sends[static_cast<std::size_t>(first)].channel
                                          : p.receives[static_cast<std::size_t>(first)].channel;
      const int rank = sending ? p.sends[static_cast<std::size_t>(first)].rank
                               : p.receives[static_cast<std::size_t>(first)].rank;
      mpi_.refuse(std::string(call) + ": " + p.slot_name(channel, rank) + " of plan " + std::to_string(p.id) +
                  " travels between nodes");
    }
  }

 private:
  SlotClaim claim_;
  MpiEntry mpi_;
};

}  // namespace ghostwire::detail
