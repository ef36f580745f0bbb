// SPDX-License-Identifier: BSD-3-Clause
// What a path's build() gets at commit: one direction of one slot, this rank's side of it, and
// what the neighbour said about its side in its descriptor. The helpers compute the addresses and
// copies the paths need, so the paths' files hold only what is their own.
#pragma once

#include <cstddef>
#include <vector>

#include "halo/commit/descriptor.hpp"
#include "halo/commit/message_memory.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/copy_program.hpp"
#include "halo/paths/node_peer.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

struct SlotBuild {
  PlanState& plan;
  std::size_t slot;       // (neighbour index, channel) as this rank numbers it
  std::size_t peer_slot;  // the same slot as the neighbour numbers it
  int rank;               // the neighbour
  bool sending;           // this rank's send side of the slot, else its receive side
  std::size_t part;       // 0, or 1 for the second part of a split message
  std::size_t bytes;      // of one message (of this part)
  std::vector<Piece> mine;  // this rank's layout of the slot (part) in this direction
  const MessageMemory& memory;
  const NeighbourDescriptor& peer;
  const ChannelDescriptor& peer_channel;
  std::byte* my_part;    // this rank's part of the plan segment
  std::byte* peer_part;  // the neighbour's, null off-node

  const SendDescriptor& peer_send() const { return *peer_channel.send; }
  const ReceiveDescriptor& peer_receive() const { return *peer_channel.receive; }
  std::size_t peer_slots() const { return peer.neighbours * peer.channels.size(); }

  // Node peers' counter words of this slot (sending: the receiver's posted word and my
  // acknowledgement word; receiving: mine and the sender's).
  PeerSendCounters peer_send_counters() const;
  PeerReceiveCounters peer_receive_counters() const;
  MappedPieces map_peer_pieces(const std::vector<PieceLocation>& locations) const;
  // Copies between my layout and a contiguous message buffer.
  CopyProgram pack_into(std::byte* buffer) const;
  CopyProgram unpack_from(const std::byte* buffer) const;
  // Sending: my staging half (streaming stores when a peer's core reads it next).
  CopyProgram pack_into_staging(int parity) const;
  // Receiving from a node peer that stages: its half `parity`.
  const std::byte* peer_staging(int parity) const;
  std::byte* my_notified_buffer(int parity) const;
  std::byte* two_sided_memory() const;
};

// Commit's build phase: every slot in use gets its common fields and its agreed path. The
// descriptors have been checked (check_agreement) before.
void build_slots(PlanState& p, const MessageMemory& memory, const std::vector<NeighbourDescriptor>& peers);

}  // namespace ghostwire::detail
