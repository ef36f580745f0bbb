// SPDX-License-Identifier: BSD-3-Clause
// The state of a message whose partitions travel combined (combined_partitions.hpp), and the two
// checks the calls on the whole slot make on it (exchange.cpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
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

// A call on the whole slot received the message: no partition reports it again.
inline void note_whole_receipt(PlanState& p, const ReceiveSlot& slot) {
  if (slot.combined < 0) return;
  CombinedReceive& state = *p.combined_receives[static_cast<std::size_t>(slot.combined)];
  std::fill(state.taken.begin(), state.taken.end(), slot.sequence);
  std::fill(state.done.begin(), state.done.end(), char{1});  // the whole receiver calls on its own
}


// A call on the whole slot sends the message: refused while some partitions are readied for it.
inline void refuse_if_readied(const PlanState& p, const SendSlot& slot, const char* call) {
  if (slot.combined < 0) return;
  const CombinedSend& state = *p.combined_sends[static_cast<std::size_t>(slot.combined)];
  if (state.ready != 0)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(slot.channel, slot.rank) + " of plan " +
                           std::to_string(p.id) + ": " + std::to_string(state.ready) + " of its " +
                           std::to_string(state.partitions) + " partitions are readied for a message that has not "
                           "gone; ready the others (pready) instead of sending the whole message");
}

}  // namespace ghostwire::detail
