// SPDX-License-Identifier: BSD-3-Clause
// What a path's build_send / build_receive gets at commit: one direction of one slot (one part of
// a split message), this rank's end of it and what the neighbour said about its end. The helpers
// compute the addresses and copies paths need, so the paths' files hold only what is their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "halo/commit/descriptor.hpp"
#include "halo/commit/message_memory.hpp"
#include "halo/commit/slot_choice.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/commit/wire.hpp"
#include "halo/copy_program.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

struct SlotBuild {
  PlanState& plan;
  const PathType& type;
  PathPlanState* state;   // the path type's plan-wide state, or null
  std::size_t slot;       // (neighbour index, channel) as this rank numbers it
  std::size_t peer_slot;  // the same slot as the neighbour numbers it
  int rank;               // the neighbour
  bool sending;           // this rank's send end of the slot, else its receive end
  std::size_t part;       // 0, or 1 for the second part of a split message
  std::size_t bytes;      // of one message (of this part)
  std::vector<Piece> mine;  // this rank's layout of the slot (part) in this direction
  const SideChoice& my_side;
  const SideDescriptor& peer_side;  // the neighbour's descriptor of its end
  const NeighbourDescriptor& peer;
  const MessageMemory& memory;
  std::byte* my_part;    // this rank's part of the plan segment
  std::byte* peer_part;  // the neighbour's, null off-node

  std::size_t my_slots() const { return plan.send_pieces.size(); }
  std::size_t peer_slots() const { return peer.neighbours * peer.channels.size(); }
  // The neighbour's section for this path (Errc::internal if it wrote none).
  WireReader peer_section() const;
  // This end's memory (SlotMemory) and the neighbour's shared memory of its end (node peers only).
  std::byte* my_shared_memory() const { return my_part + my_side.segment_offset; }
  std::byte* peer_shared_memory() const { return peer_part + peer_side.segment_offset; }
  std::byte* my_private_memory() const { return plan.private_memory.data() + my_side.private_offset; }
  // This path's notification ids for slot `slot` of a rank: base + notifications_per_slot x slot.
  std::size_t notification(std::size_t slot_of_rank, std::size_t which) const;
  // The node peers' counter words of this slot and part in the plan segment (each rank's own
  // posted words are written by its senders, its acknowledgement words by its receivers).
  std::uint64_t* my_posted_word() const;
  std::uint64_t* peer_posted_word() const;
  std::uint32_t* my_acknowledgement_word() const;
  std::uint32_t* peer_acknowledgement_word() const;
  MappedPieces map_peer_pieces(const std::vector<PieceLocation>& locations) const;
  // Copies between my layout and a contiguous message buffer; `streaming`: stores that bypass my
  // cache, right when a peer's core reads the buffer next.
  CopyProgram pack_into(std::byte* buffer, bool streaming = false) const;
  CopyProgram unpack_from(const std::byte* buffer) const;
};

// Commit's build phase: every slot in use gets its common fields and the path both ends agreed on
// (the descriptors have been checked by check_agreement before); each path's plan state hears how
// many slot directions it serves first.
void build_slots(PlanState& p, const MessageMemory& memory, const SlotChoices& choices,
                 const std::vector<NeighbourDescriptor>& peers);

}  // namespace ghostwire::detail
