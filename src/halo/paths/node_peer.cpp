// SPDX-License-Identifier: BSD-3-Clause
// The counter protocol paths between node peers share (node_peer.hpp).
#include "halo/paths/node_peer.hpp"

#include <sstream>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

PeerSendCounters peer_send_counters(const SlotBuild& b) { return {b.peer_posted_word(), b.my_acknowledgement_word()}; }

PeerReceiveCounters peer_receive_counters(const SlotBuild& b) {
  return {b.my_posted_word(), b.peer_acknowledgement_word()};
}

SendReadInPlace::SendReadInPlace(const SlotBuild& b, const char* description)
    : counters_(peer_send_counters(b)), description_(description) {}

PeerReceiveEnd::PeerReceiveEnd(const SlotBuild& b, const char* description)
    : counters_(peer_receive_counters(b)), description_(description) {}

void post_to_peer(PlanState& p, SendSlot& slot, const PeerSendCounters& counters) {
  std::uint32_t consumed = 0;
  if (p.acknowledge_by_reply && slot.reverse_receive >= 0)
    consumed = p.receives[static_cast<std::size_t>(slot.reverse_receive)].consumed;
  slot.sequence = next_sequence(slot.sequence);
  store(counters.posted, posted_word(slot.sequence, consumed));
}

bool peer_acknowledged(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters) {
  if (p.acknowledge_by_reply && slot.reply_acknowledged == slot.sequence) return true;
  return load(counters.consumed) == slot.sequence;
}

bool peer_acknowledged_previous(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters) {
  return is_previous(load(counters.consumed), slot.sequence) ||
         (p.acknowledge_by_reply && is_previous(slot.reply_acknowledged, slot.sequence));
}

std::string describe_peer_send_wait(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters,
                                    const char* path) {
  std::ostringstream text;
  text << "the acknowledgement of message " << slot.sequence << " on " << p.slot_name(slot.channel, slot.rank)
       << " of plan " << p.id << " (" << path << "; receiver's acknowledgement counter: "
       << load(counters.consumed)
       << ", counter posted to the receiver: " << posted_sequence(load(counters.posted));
  if (p.acknowledge_by_reply) text << ", acknowledgement by reply seen: " << slot.reply_acknowledged;
  text << ")";
  return text.str();
}

bool take_posted(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, bool one_ahead) {
  const std::uint64_t word = load(counters.posted);
  const std::uint32_t posted = posted_sequence(word);
  if (posted == slot.sequence) return false;
  const std::uint32_t expected = next_sequence(slot.sequence);
  if (posted != expected && !(one_ahead && posted == next_sequence(expected)))
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but the sender posted " +
                              std::to_string(posted));
  if (p.acknowledge_by_reply && slot.reverse_send >= 0)
    p.sends[static_cast<std::size_t>(slot.reverse_send)].reply_acknowledged = posted_extra(word);
  slot.sequence = expected;
  return true;
}

// Not in exchanges, whose finish() waits for every acknowledgement, nor on slots this rank never
// sends back on.
static bool acknowledges_at_once(const PlanState& p, const ReceiveSlot& slot, Receipt receipt) {
  return !p.acknowledge_by_reply || receipt == Receipt::exchange || slot.reverse_send < 0;
}

void consume_from_peer(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, Receipt receipt) {
  slot.consumed = slot.sequence;
  if (acknowledges_at_once(p, slot, receipt)) store(counters.consumed, slot.sequence);
}

void acknowledge_peer(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters) {
  if (p.acknowledge_by_reply && slot.consumed != 0) store(counters.consumed, slot.consumed);
}

std::string describe_peer_receive_wait(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters,
                                       const char* path) {
  std::ostringstream text;
  text << "message " << next_sequence(slot.sequence) << " on " << p.slot_name(slot.channel, slot.rank) << " of plan "
       << p.id << " (" << path << "; received so far: " << slot.sequence << ", sender's posted counter: " << posted_sequence(load(counters.posted))
       << ", acknowledgement this rank last gave: " << load(counters.consumed)
       << (slot.held ? ", the last message is held in place (not released)" : "") << ")";
  return text.str();
}

}  // namespace ghostwire::detail
