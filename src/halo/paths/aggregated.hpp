// SPDX-License-Identifier: BSD-3-Clause
// The aggregated path: between nodes, a slot's message is one part of its pair of nodes' combined
// message (halo/node_pairs.hpp). Sending packs it into the pair's buffer in the sending host's
// plan segment and counts it; receiving copies it out of the pair's buffer in the receiving host's
// segment once the host says the message is there, and counts that. docs/plans.md, "One message per
// pair of nodes".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "halo/copy_program.hpp"
#include "halo/node_pairs.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct AggregatedSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::aggregated;
  static constexpr bool between_nodes = true;
  std::size_t pair = 0;                 // in PlanState::pairs
  PairCounters* counters = nullptr;     // the pair's, in the sending host's segment
  CopyProgram pack_into[2];             // into my part of half k % 2
  bool host = false;                    // this rank sends the pair's message

  static AggregatedSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  // The combined message with my part has left (its send is complete at the host).
  bool acknowledged(PlanState& p, SendSlot& slot);
  // The half the next message goes to is free: the message before last has left from it.
  bool ready_for_next(PlanState& p, SendSlot& slot);
  // Packed: nothing of mine is read; the host also waits for the combined message to leave.
  bool exchange_done(PlanState& p, SendSlot& slot);
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
  std::string not_acknowledged_hint(const SendSlot& slot) const;
};

struct AggregatedReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::aggregated;
  static constexpr bool between_nodes = true;
  std::size_t pair = 0;
  PairCounters* counters = nullptr;  // the pair's, in the receiving host's segment
  CopyProgram unpack[2];             // out of my part of half k % 2
  bool host = false;                 // this rank receives the pair's message

  static AggregatedReceive build(const SlotBuild& build);
  void hand_over(PlanState& p, ReceiveSlot& slot);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
};

}  // namespace ghostwire::detail
