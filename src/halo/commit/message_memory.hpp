// SPDX-License-Identifier: BSD-3-Clause
// Where a plan's messages live, laid out once at commit: the node peers' counters, staging halves
// and notified-write buffers in the plan's Segment (peers read and write them there), and the
// two-sided buffers in private memory the persistent requests point into.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

struct MessageMemory {
  // In this rank's part of the plan segment: a posted word (8 bytes) and an acknowledgement word
  // (4 bytes) per slot and part (a split slot's part k at index k x slots + slot), each array on
  // its own cache lines.
  std::size_t posted = 0, acknowledgements = 0;
  std::vector<std::array<std::size_t, 2>> staging;           // by slot, send side (staged, split or pushable)
  std::vector<std::array<std::size_t, 2>> notified_buffers;  // by slot, receive side
  std::vector<std::size_t> two_sided_send, two_sided_receive;  // by slot: offsets into plan.message_memory
};

// Allocates the plan segment (with `notifications` notification slots, the same on every rank:
// collective), the notified writes' pack buffer and the two-sided buffers, and takes the
// persistent requests from the process's budget if they fit.
MessageMemory lay_out_message_memory(PlanState& p, std::size_t notifications);

}  // namespace ghostwire::detail
