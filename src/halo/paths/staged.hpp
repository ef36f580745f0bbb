// SPDX-License-Identifier: BSD-3-Clause
// The staged path: between node peers, the sender packs its message into half k % 2 of a shared
// staging buffer and the receiver copies it out: two copies, but each side touches the other's
// memory only as dense lines. For private or sparse sender data. docs/plans.md, "Staging is
// double-buffered".
#pragma once

#include <cstddef>
#include <string>

#include "halo/copy_program.hpp"
#include "halo/paths/node_peer.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct StagedSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::staged;
  PeerSendCounters counters;
  CopyProgram pack_into[2];  // message k into staging half k % 2

  static StagedSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  bool acknowledged(PlanState& p, SendSlot& slot);
  // Double-buffered: the half the next message goes to was freed by the message before last.
  bool ready_for_next(PlanState& p, SendSlot& slot);
  bool exchange_done(PlanState&, SendSlot&) { return true; }  // packed: nothing of mine is read
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
};

struct StagedReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::staged;
  PeerReceiveCounters counters;
  CopyProgram unpack[2];                      // out of staging half k % 2
  const std::byte* staging[2] = {nullptr, nullptr};
  const std::byte* last = nullptr;            // the half the last message received went to

  static StagedReceive build(const SlotBuild& build);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  const std::byte* view() const { return last; }
  void release_held(PlanState& p, ReceiveSlot& slot) { consume_from_peer(p, slot, counters, Receipt::in_place); }
  void acknowledge(const PlanState& p, const ReceiveSlot& slot) const { acknowledge_peer(p, slot, counters); }
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
};

}  // namespace ghostwire::detail
