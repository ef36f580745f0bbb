// SPDX-License-Identifier: BSD-3-Clause
// Partitions combined into one message between nodes (docs/plans.md, "Partitions"): the message of a
// (channel, neighbour) cut into partitions travels whole, sent by the thread that readies its last
// partition, and each partition reports the message's arrival once. Chosen at commit per message
// (Settings::partition_messages): where partitions are small, one message measured faster than
// one per partition. Only between nodes: those slots call MPI and may take a lock; node peers'
// partitions are slots of their own.
#pragma once

#include <cstdint>

#include "halo/combined_state.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

// Commit: whether the message of user slot `slot` in this direction, of `bytes` in `partitions`
// partitions, travels combined (between nodes only).
bool combine_partitions(const PlanState& p, std::size_t slot, std::uint64_t bytes, std::size_t partitions);
// Commit, after the slots are built: the combined state of every combined message.
void make_combined_partitions(PlanState& p);

// The partition calls on a combined message (plan_calls.cpp calls these when the slot is combined).
void ready_combined(PlanState& p, SendSlot& slot, std::size_t partition, const char* call);
bool combined_sent(PlanState& p, SendSlot& slot, std::size_t partition, const char* call);
void wait_combined_sent(PlanState& p, SendSlot& slot, std::size_t partition, const char* call);
bool arrived_combined(PlanState& p, ReceiveSlot& slot, std::size_t partition, const char* call);

// A call on the whole slot: refused while partition calls are under way (after the slot's claim).
void refuse_if_partition_calls(const PlanState& p, std::int32_t combined, bool sending, const char* call);
// A call on the whole slot sends the message: refused while some partitions are readied for it
// (combined_state.hpp); received it: no partition reports it again.

}  // namespace ghostwire::detail
