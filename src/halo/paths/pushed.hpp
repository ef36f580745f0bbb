// SPDX-License-Identifier: BSD-3-Clause
// The pushed path: between node peers, the sender of a sparse message writes it straight into the
// receiver's ghost cells (dense, in a Segment) once the receiver has said they are free, or stages
// it as the staged path does when the receiver is not ready yet. docs/plans.md, "One copy for
// sparse messages between node peers (pushed)".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "halo/copy_program.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

struct PushedSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::pushed;
  std::uint64_t* posted = nullptr;            // the receiver's: the last message written, and how
  const std::uint32_t* ghosts_free = nullptr; // mine, written by the receiver: the message its ghosts are free for
  CopyProgram push;                           // from my send layout into the receiver's ghost cells
  CopyProgram pack_into[2];                   // into staging half k % 2 when the receiver was not ready
  // Message `sequence` is sent but not written yet: the receiver had neither said its ghost cells
  // were free nor taken the message before last (whose staging half this one needs); later calls
  // write it (PlanState::pushes_owed), possibly on another thread: read and written atomically.
  bool pending = false;
  bool last_staged = false;  // the last message went through staging

  static PushedSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  // The sender copied its own data: it is free once the copy is done.
  bool acknowledged(PlanState&, SendSlot&) const { return !is_pending(); }
  bool ready_for_next(PlanState&, SendSlot&) const { return !is_pending(); }
  bool exchange_done(PlanState&, SendSlot&) const { return !is_pending(); }
  bool is_pending() const;
  // Writes the pending message if the receiver is ready for it; false if it still is not.
  bool try_write(SendSlot& slot);
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
  std::string not_acknowledged_hint(const SendSlot& slot) const;
};

struct PushedReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::pushed;
  const std::uint64_t* posted = nullptr;  // mine, written by the sender
  std::uint32_t* ghosts_free = nullptr;   // the sender's: the message my ghost cells are free for
  std::uint32_t free_signalled = 0;       // the last value stored there
  CopyProgram unpack[2];                  // out of the sender's staging half k % 2

  static PushedReceive build(const SlotBuild& build);
  void hand_over(PlanState&, ReceiveSlot& slot);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
};

// Every wait of the world serves the plan's owed pushes from commit (if it has pushed slots) until
// the plan goes. One thread at a time serves them (PlanState::owed_lock); a thread that finds
// another serving moves on.
void owe_pushes_to_world(PlanState& p);
void forget_pushes(PlanState& p);
void progress_pushes(PlanState& p);

}  // namespace ghostwire::detail
