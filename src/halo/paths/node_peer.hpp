// SPDX-License-Identifier: BSD-3-Clause
// What the in-place and staged paths share: a node peer posts a message by a release store of the
// receiver's posted word, and the receiver acknowledges what it consumed by a release store of the
// sender's acknowledgement word, at once or riding on its next message back on the same slot
// (Plan::acknowledge_by_reply). docs/plans.md, "How a plan works inside".
#pragma once

#include <cstdint>
#include <string>

#include "halo/sequence.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct PlanState;
struct SendSlot;
struct ReceiveSlot;

// How a receive is done: copied into the receive layout (test_recv, wait_recv), read in place where
// the slot has a view (test_recv_in_place), or as part of an exchange (finish).
enum class Receipt { copy, in_place, exchange };

struct PeerSendCounters {
  std::uint64_t* posted = nullptr;            // the receiver's: posted_word(message, acknowledgement by reply)
  const std::uint32_t* consumed = nullptr;    // mine, written by the receiver: the last message it consumed
};

struct PeerReceiveCounters {
  const std::uint64_t* posted = nullptr;  // mine, written by the sender
  std::uint32_t* consumed = nullptr;      // the sender's: my acknowledgement
};

// Posts message next_sequence(slot.sequence); with acknowledge_by_reply the same store acknowledges
// what this rank consumed of the receiver's messages on the slot.
void post_to_peer(PlanState& p, SendSlot& slot, const PeerSendCounters& counters);
// The receiver has consumed the last message (a piggybacked acknowledgement needs no load).
bool peer_acknowledged(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters);
// The receiver has consumed the message before the last one (the other half of a double buffer).
bool peer_acknowledged_previous(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters);
std::string describe_peer_send_wait(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters,
                                    SlotPath kind);

// The sender's next posted message, if there is one: advances slot.sequence and takes the
// acknowledgement riding on it. `one_ahead`: a double-buffered sender may be one message further.
bool take_posted(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, bool one_ahead);
// The message is copied out (or released after reading in place): acknowledge it now, unless it
// rides on this rank's next send on the slot.
void consume_from_peer(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, Receipt receipt);
// Plan::acknowledge: every consumed message of the slot, now.
void acknowledge_peer(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters);
std::string describe_peer_receive_wait(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters,
                                       SlotPath kind);

}  // namespace ghostwire::detail
