// SPDX-License-Identifier: BSD-3-Clause
// What paths between node peers may share (the in-place and staged paths do): a node peer posts a
// message by a release store of the receiver's posted word, and the receiver acknowledges what it
// consumed by a release store of the sender's acknowledgement word, at once or riding on its next
// message back on the same slot (Plan::acknowledge_by_reply). The words are the plan segment's
// counters every slot has (SlotBuild::my_posted_word ...). docs/internals/paths.md.
#pragma once

#include <cstdint>
#include <string>

#include "halo/path.hpp"
#include "halo/sequence.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct PeerSendCounters {
  std::uint64_t* posted = nullptr;            // the receiver's: posted_word(message, acknowledgement by reply)
  const std::uint32_t* consumed = nullptr;    // mine, written by the receiver: the last message it consumed
};

struct PeerReceiveCounters {
  const std::uint64_t* posted = nullptr;  // mine, written by the sender
  std::uint32_t* consumed = nullptr;      // the sender's: my acknowledgement
};

// This slot's words (SlotBuild's end and part).
PeerSendCounters peer_send_counters(const SlotBuild& b);
PeerReceiveCounters peer_receive_counters(const SlotBuild& b);

// The line of the receiver's acknowledgement, which the next send checks (a prefetch).
inline void prefetch_acknowledgement(const PeerSendCounters& counters) { __builtin_prefetch(counters.consumed, 0, 3); }

// Posts message next_sequence(slot.sequence); with acknowledge_by_reply the same store acknowledges
// what this rank consumed of the receiver's messages on the slot.
void post_to_peer(PlanState& p, SendSlot& slot, const PeerSendCounters& counters);
// The receiver has consumed the last message (a piggybacked acknowledgement needs no load).
bool peer_acknowledged(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters);
// The receiver has consumed the message before the last one (the other half of a double buffer).
bool peer_acknowledged_previous(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters);
// `path`: the path's description, for the text.
std::string describe_peer_send_wait(const PlanState& p, const SendSlot& slot, const PeerSendCounters& counters,
                                    const char* path);

// The sender's next posted message, if there is one: advances slot.sequence and takes the
// acknowledgement riding on it. `one_ahead`: a double-buffered sender may be one message further.
bool take_posted(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, bool one_ahead);
// The message is copied out (or released after reading in place): acknowledge it now, unless it
// rides on this rank's next send on the slot.
void consume_from_peer(PlanState& p, ReceiveSlot& slot, const PeerReceiveCounters& counters, Receipt receipt);
// Plan::acknowledge: every consumed message of the slot, now.
void acknowledge_peer(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters);
std::string describe_peer_receive_wait(const PlanState& p, const ReceiveSlot& slot, const PeerReceiveCounters& counters,
                                       const char* path);

// The sending end of a message its receiver reads where it is, in the sender's live data (the
// in-place and cross-memory paths): send() is a counter store, and the next message (or a change of
// the data) waits for the acknowledgement. `description` names the path in wait diagnostics.
class SendReadInPlace : public SendPath {
 public:
  SendReadInPlace(const SlotBuild& b, const char* description);
  void post(PlanState& p, SendSlot& slot, Post) override { post_to_peer(p, slot, counters_); }
  bool acknowledged(PlanState& p, SendSlot& slot) override { return peer_acknowledged(p, slot, counters_); }
  bool ready_for_next(PlanState& p, SendSlot& slot) override { return acknowledged(p, slot); }
  bool exchange_done(PlanState& p, SendSlot& slot) override { return acknowledged(p, slot); }
  void prefetch_next(const SendSlot&, std::size_t) const override { prefetch_acknowledgement(counters_); }
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override {
    return describe_peer_send_wait(p, slot, counters_, description_);
  }
  // In place: the sent data is in a Segment, which never moves; nothing of it is kept here.
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }

 private:
  PeerSendCounters counters_;
  const char* description_;
};

// What every receiving end of the counter protocol shares: its counters, releasing a message held in
// place (paths with a view), acknowledging by reply, and the wait's description. `description`
// names the path.
class PeerReceiveEnd : public ReceivePath {
 public:
  PeerReceiveEnd(const SlotBuild& b, const char* description);
  void release_held(PlanState& p, ReceiveSlot& slot) override {
    consume_from_peer(p, slot, counters_, Receipt::in_place);
  }
  void acknowledge(const PlanState& p, const ReceiveSlot& slot) const override { acknowledge_peer(p, slot, counters_); }
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override {
    return describe_peer_receive_wait(p, slot, counters_, description_);
  }

 protected:
  // The line of my arrival counter and up to `bytes` of `data` (null: none), for prefetch_next.
  void prefetch_arrival(const std::byte* data, std::size_t bytes) const {
    __builtin_prefetch(counters_.posted, 0, 3);
    for (std::size_t b = 0; data != nullptr && b < bytes; b += 64) __builtin_prefetch(data + b, 0, 2);
  }

  PeerReceiveCounters counters_;

 private:
  const char* description_;
};

}  // namespace ghostwire::detail
