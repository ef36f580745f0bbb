// SPDX-License-Identifier: BSD-3-Clause
// The staged path (staged.hpp): message k goes to staging half k % 2, so a sender may pack and post
// message k + 1 before its receiver has taken message k, and the receiver accepts a posted counter
// one ahead of the message it expects and takes them in order.
#include "halo/paths/staged.hpp"

#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

StagedSend StagedSend::build(const SlotBuild& b) {
  StagedSend path;
  path.counters = b.peer_send_counters();
  for (int parity = 0; parity < 2; ++parity) path.pack_into[parity] = b.pack_into_staging(parity);
  return path;
}

void StagedSend::post(PlanState& p, SendSlot& slot, Post) {
  pack_into[parity_of(next_sequence(slot.sequence))].run();
  post_to_peer(p, slot, counters);
}

bool StagedSend::acknowledged(PlanState& p, SendSlot& slot) { return peer_acknowledged(p, slot, counters); }

bool StagedSend::ready_for_next(PlanState& p, SendSlot& slot) {
  return peer_acknowledged(p, slot, counters) || peer_acknowledged_previous(p, slot, counters);
}

std::string StagedSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  return describe_peer_send_wait(p, slot, counters, kind);
}

StagedReceive StagedReceive::build(const SlotBuild& b) {
  StagedReceive path;
  path.counters = b.peer_receive_counters();
  for (int parity = 0; parity < 2; ++parity) {
    path.staging[parity] = b.peer_staging(parity);
    path.unpack[parity] = b.unpack_from(path.staging[parity]);
  }
  path.last = path.staging[1];  // where message 1 will be
  return path;
}

bool StagedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  if (!take_posted(p, slot, counters, true)) return false;
  const int parity = parity_of(slot.sequence);
  last = staging[parity];
  if (receipt == Receipt::in_place) {
    slot.held = true;  // read in the staging half; release() acknowledges
    return true;
  }
  unpack[parity].run();
  consume_from_peer(p, slot, counters, receipt);
  return true;
}

std::string StagedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  return describe_peer_receive_wait(p, slot, counters, kind);
}

}  // namespace ghostwire::detail
