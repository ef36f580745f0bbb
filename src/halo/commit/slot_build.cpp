// SPDX-License-Identifier: BSD-3-Clause
// Commit's build phase (slot_build.hpp).
#include "halo/commit/slot_build.hpp"

#include "halo/path_choice.hpp"
#include "halo/path_dispatch.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

PeerSendCounters SlotBuild::peer_send_counters() const {
  const std::size_t mine_index = part * plan.send_pieces.size() + slot, peer_index = part * peer_slots() + peer_slot;
  return {reinterpret_cast<std::uint64_t*>(peer_part + peer.posted_offset) + peer_index,
          reinterpret_cast<const std::uint32_t*>(my_part + memory.acknowledgements) + mine_index};
}

PeerReceiveCounters SlotBuild::peer_receive_counters() const {
  const std::size_t mine_index = part * plan.send_pieces.size() + slot, peer_index = part * peer_slots() + peer_slot;
  return {reinterpret_cast<const std::uint64_t*>(my_part + memory.posted) + mine_index,
          reinterpret_cast<std::uint32_t*>(peer_part + peer.acknowledgement_offset) + peer_index};
}

MappedPieces SlotBuild::map_peer_pieces(const std::vector<PieceLocation>& locations) const {
  return map_pieces(*plan.w, rank, locations);
}

CopyProgram SlotBuild::pack_into(std::byte* buffer) const {
  const Layout whole = Layout::contiguous(0, bytes);
  const Piece target{buffer, 1, &whole};
  return CopyProgram::build(mine, {&target, 1});
}

CopyProgram SlotBuild::unpack_from(const std::byte* buffer) const {
  const Layout whole = Layout::contiguous(0, bytes);
  const Piece source{const_cast<std::byte*>(buffer), 1, &whole};
  return CopyProgram::build({&source, 1}, mine);
}

CopyProgram SlotBuild::pack_into_staging(int parity) const {
  const Layout whole = Layout::contiguous(0, bytes);
  const Piece staging{my_part + memory.staging[slot][static_cast<std::size_t>(parity)], 1, &whole};
  // Streaming stores bypass my cache: right for a peer's core, wrong when I read it back myself.
  return CopyProgram::build(mine, {&staging, 1}, rank != plan.w->rank);
}

const std::byte* SlotBuild::peer_staging(int parity) const {
  return peer_part + peer_send().staging[static_cast<std::size_t>(parity)];
}

std::byte* SlotBuild::my_notified_buffer(int parity) const {
  return my_part + memory.notified_buffers[slot][static_cast<std::size_t>(parity)];
}

std::byte* SlotBuild::two_sided_memory() const {
  return plan.message_memory.data() + (sending ? memory.two_sided_send[slot] : memory.two_sided_receive[slot]);
}

namespace {

// The parts of one direction of a slot: one, or two for a split message (part 0 read in place,
// part 1 staged), each with its pieces and its path.
struct Part {
  std::vector<Piece> pieces;
  SlotPath path;
};

template <class Slot, class Path>
void add_parts(std::vector<Slot>& slots, std::vector<std::int32_t>& slot_of, const SlotBuild& shape, std::size_t channel,
               std::vector<Part> parts) {
  slot_of[shape.slot] = static_cast<std::int32_t>(slots.size());
  for (std::size_t k = 0; k < parts.size(); ++k) {
    SlotBuild b = shape;
    b.part = k;
    b.mine = std::move(parts[k].pieces);
    b.bytes = 0;
    for (const Piece& piece : b.mine) b.bytes += piece.layout->count() * piece.element_size;
    Slot slot;
    slot.channel = channel;
    slot.rank = b.rank;
    slot.bytes = b.bytes;
    slot.part = static_cast<std::uint8_t>(k);
    const PlanState& p = b.plan;
    if (!p.partition_base.empty())
      slot.partition = static_cast<std::uint32_t>(channel - p.partition_base[p.user_channel_of[channel]]);
    slot.path = build_path<Path>(parts[k].path, b);
    if (k + 1 < parts.size()) slot.next_part = static_cast<std::int32_t>(slots.size() + 1);
    slots.push_back(std::move(slot));
  }
}

void build_receive(PlanState& p, const SlotBuild& shape, std::size_t channel) {
  const SendDescriptor& theirs = shape.peer_send();
  std::vector<Part> parts;
  SlicedPieces sliced;  // the layouts a split message's pieces point to, until the copies are built
  if (theirs.split_runs.empty()) {
    parts.push_back({pieces_of(p, p.receive_pieces[shape.slot]),
                     agreed_path(theirs.path, theirs.wants_push, push_accepted(p, shape.slot))});
  } else {
    sliced = slice_pieces(p, p.receive_pieces[shape.slot], theirs.split_runs);
    parts.push_back({sliced.pieces[0], SlotPath::in_place});
    parts.push_back({sliced.pieces[1], SlotPath::staged});
  }
  add_parts<ReceiveSlot, ReceivePath>(p.receives, p.receive_slot_of, shape, channel, std::move(parts));
}

void build_send(PlanState& p, const SlotBuild& shape, std::size_t channel) {
  std::vector<Part> parts;
  SplitPieces split;  // the pieces a split message's parts point to, until the copies are built
  if (split_wanted(p, shape.slot)) {
    split = split_pieces(p, shape.slot);
    parts.push_back({pieces_of(p, split.parts[0]), SlotPath::in_place});
    parts.push_back({pieces_of(p, split.parts[1]), SlotPath::staged});
  } else {
    parts.push_back({pieces_of(p, p.send_pieces[shape.slot]),
                     agreed_path(send_path(p, shape.slot), push_wanted(p, shape.slot),
                                 shape.peer_receive().accepts_push)});
  }
  add_parts<SendSlot, SendPath>(p.sends, p.send_slot_of, shape, channel, std::move(parts));
}

// The partitions of one direction of each user slot follow each other: the last part of partition
// i leads to the first part of partition i + 1, so a call on the whole slot takes all of them.
template <class Slot>
void chain_partitions(const PlanState& p, std::vector<Slot>& slots, const std::vector<std::int32_t>& slot_of) {
  if (p.partition_base.empty()) return;
  for (std::size_t n = 0; n < p.neighbours.size(); ++n)
    for (std::size_t c = 0; c < p.user_channels; ++c) {
      std::int32_t last = -1;
      for (std::size_t k = p.partition_base[c]; k < p.partition_base[c + 1]; ++k) {
        const std::int32_t first = slot_of[n * p.channels + k];
        if (first < 0) continue;
        if (last >= 0) slots[static_cast<std::size_t>(last)].next_part = first;
        last = first;
        while (slots[static_cast<std::size_t>(last)].next_part >= 0)
          last = slots[static_cast<std::size_t>(last)].next_part;
      }
    }
}

}  // namespace

void build_slots(PlanState& p, const MessageMemory& memory, const std::vector<NeighbourDescriptor>& peers) {
  const std::size_t slots = p.send_pieces.size();
  p.send_slot_of.assign(slots, -1);
  p.receive_slot_of.assign(slots, -1);
  std::byte* my_part = p.segment->data();
  for (std::size_t n = 0; n < p.neighbours.size(); ++n) {
    const int rank = p.neighbours[n];
    const NeighbourDescriptor& peer = peers[n];
    for (std::size_t c = 0; c < p.channels; ++c) {
      const std::size_t s = n * p.channels + c;
      const ChannelDescriptor& theirs = peer.channels[c];
      const SlotBuild shape{p,      s,    peer.receiver_index * p.channels + c, rank, false, 0, 0, {}, memory, peer,
                            theirs, my_part, p.segment->peer_data(rank)};
      if (theirs.send) build_receive(p, shape, c);
      if (theirs.receive) {
        SlotBuild sending = shape;
        sending.sending = true;
        build_send(p, sending, c);
      }
    }
  }
  chain_partitions(p, p.sends, p.send_slot_of);
  chain_partitions(p, p.receives, p.receive_slot_of);
}

}  // namespace ghostwire::detail
