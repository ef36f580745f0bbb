// SPDX-License-Identifier: BSD-3-Clause
// The in-place path (in_place.hpp): the receiver's copy reads the sender's live data, so the
// sender's next message (or its next change of the data) waits for the acknowledgement.
#include "halo/paths/in_place.hpp"

#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

InPlaceSend InPlaceSend::build(const SlotBuild& b) {
  InPlaceSend path;
  path.counters = b.peer_send_counters();
  return path;
}

void InPlaceSend::post(PlanState& p, SendSlot& slot, Post) { post_to_peer(p, slot, counters); }

bool InPlaceSend::acknowledged(PlanState& p, SendSlot& slot) { return peer_acknowledged(p, slot, counters); }

std::string InPlaceSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  return describe_peer_send_wait(p, slot, counters, kind);
}

InPlaceReceive InPlaceReceive::build(const SlotBuild& b) {
  InPlaceReceive path;
  path.counters = b.peer_receive_counters();
  const MappedPieces sender = b.map_peer_pieces(b.peer_send().pieces);
  path.copy = CopyProgram::build(sender.pieces, b.mine);
  path.run = single_run(sender.pieces);
  return path;
}

bool InPlaceReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  if (!take_posted(p, slot, counters, false)) return false;
  if (receipt == Receipt::in_place && run != nullptr) {
    slot.held = true;  // read where it is; release() acknowledges
    return true;
  }
  copy.run();
  consume_from_peer(p, slot, counters, receipt);
  return true;
}

std::string InPlaceReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  return describe_peer_receive_wait(p, slot, counters, kind);
}

}  // namespace ghostwire::detail
