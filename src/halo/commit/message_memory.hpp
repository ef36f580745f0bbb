// SPDX-License-Identifier: BSD-3-Clause
// Where a plan's messages live, laid out once at commit: the node peers' counters and each slot
// direction's shared memory (what its candidate paths ask for, SlotMemory::segment_bytes) in the
// plan's Segment, the notifications paths ask for, and each slot direction's private memory.
#pragma once

#include <cstddef>
#include <vector>

#include "halo/commit/slot_choice.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

struct MessageMemory {
  // In this rank's part of the plan segment: a posted word (8 bytes) and an acknowledgement word
  // (4 bytes) per slot and part (a split slot's part k at index k x slots + slot), each array on
  // its own cache lines.
  std::size_t posted = 0, acknowledgements = 0;
  // Each path type's first notification id (by registry index); its ids for slot s follow at
  // base + notifications_per_slot x s. The same on every rank.
  std::vector<std::size_t> notification_base;
};

// Allocates the plan segment (collective) and the private memory, and sets every side's offsets.
MessageMemory lay_out_message_memory(PlanState& p, SlotChoices& choices, std::size_t largest_slot_count);

}  // namespace ghostwire::detail
