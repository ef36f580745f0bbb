// SPDX-License-Identifier: BSD-3-Clause
// Partitions combined into one message between nodes (docs/plans.md, "Partitions"): the message of a
// (channel, neighbour) cut into partitions travels whole, sent by the thread that readies its last
// partition, and each partition reports the message's arrival once. Chosen at commit per message
// (Settings::partition_messages): where partitions are small, one message measured faster than
// one per partition. Only between nodes: those slots call MPI and may take a lock; node peers'
// partitions are slots of their own.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

// A combined message's partitions on the sending side.
struct CombinedSend {
  explicit CombinedSend(std::uint32_t count) : partitions(count), readied(count, 0) {}
  std::uint32_t partitions;
  std::atomic<bool> lock{false};
  std::vector<char> readied;  // readied for the message not sent yet
  std::uint32_t ready = 0;    // how many
  // Partition calls under way: a call on the whole slot (send, exchange) is refused meanwhile.
  std::atomic<int> partition_calls{0};
};

// On the receiving side: the message each partition last reported as arrived, the thread it
// reported it to, and whether that thread is done with it. The next message overwrites every
// partition's ghost cells, so it is taken only once all of them are done: a thread that asks for
// a partition's next message (parrived after the report) is done with every partition it took.
struct CombinedReceive {
  explicit CombinedReceive(std::uint32_t count) : taken(count, 0), taker(count), done(count, 1) {}
  std::atomic<bool> lock{false};
  std::vector<std::uint32_t> taken;
  std::vector<const void*> taker;  // an address unique to the thread (thread_local)
  std::vector<char> done;
  std::atomic<int> partition_calls{0};
};

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
// A call on the whole slot received the message: no partition reports it again.
inline void note_whole_receipt(PlanState& p, const ReceiveSlot& slot);
// A call on the whole slot sends the message: refused while some partitions are readied for it.
void refuse_if_readied(const PlanState& p, const SendSlot& slot, const char* call);

inline void note_whole_receipt(PlanState& p, const ReceiveSlot& slot) {
  if (slot.combined < 0) return;
  CombinedReceive& state = *p.combined_receives[static_cast<std::size_t>(slot.combined)];
  std::fill(state.taken.begin(), state.taken.end(), slot.sequence);
  std::fill(state.done.begin(), state.done.end(), char{1});  // the whole receiver calls on its own
}

}  // namespace ghostwire::detail
