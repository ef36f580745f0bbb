// SPDX-License-Identifier: BSD-3-Clause
// The notified-write path: between nodes, a slot's message is packed and written one-sided into
// half k % 2 of a double buffer in the receiver's plan segment, with a notification carrying its
// sequence number; the receiver acknowledges before unpacking. Taken with the one-sided transport
// (GHOSTWIRE_TRANSPORT=rma), and with the two-sided one when the plan's tags would exceed
// MPI_TAG_UB. docs/plans.md, "Between nodes".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ghostwire/segment.hpp"
#include "halo/copy_program.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct NotifiedWriteSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::notified_write;
  static constexpr bool between_nodes = true;
  static constexpr bool served_by_world_progress = true;
  // The message leaves from here: a buffer of the slot's own, so threads driving different slots
  // never pack into one another's (a move keeps the vector's memory, and so the copy's target).
  std::vector<std::byte> buffer;
  CopyProgram pack;  // into `buffer`
  std::size_t remote_offset[2] = {0, 0};              // the receiver's halves in its plan segment
  NotificationId remote_data_id[2] = {0, 0};
  NotificationId acknowledgement_id = 0;             // my notification the receiver sets
  std::uint32_t last_acknowledgement = 0;            // the last acknowledgement seen

  static NotifiedWriteSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  bool acknowledged(PlanState& p, SendSlot& slot);
  bool ready_for_next(PlanState& p, SendSlot& slot);
  bool exchange_done(PlanState&, SendSlot&) { return true; }  // packed: nothing of mine is read
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
};

struct NotifiedWriteReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::notified_write;
  static constexpr bool between_nodes = true;
  static constexpr bool served_by_world_progress = true;
  CopyProgram unpack[2];                      // out of my half k % 2
  NotificationId data_id[2] = {0, 0};
  NotificationId remote_acknowledgement_id = 0;

  static NotifiedWriteReceive build(const SlotBuild& build);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
};

}  // namespace ghostwire::detail
