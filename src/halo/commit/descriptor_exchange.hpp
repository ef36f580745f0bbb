// SPDX-License-Identifier: BSD-3-Clause
// Commit's middle phases: every rank sends each neighbour one descriptor of both directions of
// every channel (descriptor.hpp), and both ranks of a slot check that their sides agree, so a
// mismatch is reported on both of them.
#pragma once

#include <string>
#include <vector>

#include "halo/commit/descriptor.hpp"
#include "halo/commit/message_memory.hpp"
#include "halo/commit/slot_choice.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

// What this rank tells neighbour index `n`.
NeighbourDescriptor describe_slots_for(const PlanState& p, const MessageMemory& memory, const SlotChoices& choices,
                                       std::size_t n);
// Swaps descriptors with every neighbour and decodes theirs; a descriptor that cannot be decoded
// ends the commit on every rank (collective).
std::vector<NeighbourDescriptor> exchange_descriptors(PlanState& p, const MessageMemory& memory,
                                                      const SlotChoices& choices, const std::string& context);
// Every disagreement between this rank's slots and its neighbours' descriptors, in words (a slot
// direction no path serves on both sides among them).
std::vector<std::string> check_agreement(const PlanState& p, const SlotChoices& choices,
                                         const std::vector<NeighbourDescriptor>& peers);

}  // namespace ghostwire::detail
