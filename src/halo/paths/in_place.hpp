// SPDX-License-Identifier: BSD-3-Clause
// The in-place path: between node peers, the receiver copies straight from the sender's live data
// (in a Segment, dense) into its ghost cells, one copy; send() is a counter store.
// docs/plans.md, "How a message travels".
#pragma once

#include <cstddef>
#include <string>

#include "halo/copy_program.hpp"
#include "halo/paths/node_peer.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct InPlaceSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::in_place;
  static constexpr bool receiver_reads_my_data = true;
  PeerSendCounters counters;

  static InPlaceSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  bool acknowledged(PlanState& p, SendSlot& slot);
  // One buffer, the data itself: the next message needs the last one read.
  bool ready_for_next(PlanState& p, SendSlot& slot) { return acknowledged(p, slot); }
  bool exchange_done(PlanState& p, SendSlot& slot) { return acknowledged(p, slot); }
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
};

struct InPlaceReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::in_place;
  PeerReceiveCounters counters;
  CopyProgram copy;                      // from the sender's data into my receive layout
  const std::byte* run = nullptr;        // the sender's data when it is one contiguous run, else null

  static InPlaceReceive build(const SlotBuild& build);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  const std::byte* view() const { return run; }
  void release_held(PlanState& p, ReceiveSlot& slot) { consume_from_peer(p, slot, counters, Receipt::in_place); }
  void acknowledge(const PlanState& p, const ReceiveSlot& slot) const { acknowledge_peer(p, slot, counters); }
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
};

}  // namespace ghostwire::detail
