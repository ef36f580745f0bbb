// SPDX-License-Identifier: BSD-3-Clause
// Commit's build phase (slot_build.hpp).
#include "halo/commit/slot_build.hpp"

#include "ghostwire/error.hpp"
#include "halo/path_registry.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

WireReader SlotBuild::peer_section() const {
  const std::size_t index = path_index(type);
  const PathSection* section = peer_side.section(index);
  const std::string from = "rank " + std::to_string(rank);
  if (section == nullptr)
    raise(Errc::internal, "plan " + std::to_string(plan.id) + ": " + from + " sent no " + type.name() +
                              " section for " + plan.slot_name(slot % plan.channels, rank));
  if (section->version != type.section_version())
    raise(Errc::mismatch, "plan " + std::to_string(plan.id) + ": the " + type.name() + " section from " + from +
                              " has version " + std::to_string(section->version) + " but this rank's has " +
                              std::to_string(type.section_version()) + ": the ranks run different builds");
  return WireReader(section->bytes, from);
}

std::size_t SlotBuild::notification(std::size_t slot_of_rank, std::size_t which) const {
  return memory.notification_base[path_index(type)] + type.notifications_per_slot() * slot_of_rank + which;
}

std::uint64_t* SlotBuild::my_posted_word() const {
  return reinterpret_cast<std::uint64_t*>(my_part + memory.posted) + part * my_slots() + slot;
}
std::uint64_t* SlotBuild::peer_posted_word() const {
  return reinterpret_cast<std::uint64_t*>(peer_part + peer.posted_offset) + part * peer_slots() + peer_slot;
}
std::uint32_t* SlotBuild::my_acknowledgement_word() const {
  return reinterpret_cast<std::uint32_t*>(my_part + memory.acknowledgements) + part * my_slots() + slot;
}
std::uint32_t* SlotBuild::peer_acknowledgement_word() const {
  return reinterpret_cast<std::uint32_t*>(peer_part + peer.acknowledgement_offset) + part * peer_slots() + peer_slot;
}

MappedPieces SlotBuild::map_peer_pieces(const std::vector<PieceLocation>& locations) const {
  return map_pieces(*plan.w, rank, locations);
}

CopyProgram SlotBuild::pack_into(std::byte* buffer, bool streaming) const {
  const Layout whole = Layout::contiguous(0, bytes);
  const Piece target{buffer, 1, &whole};
  return CopyProgram::build(mine, {&target, 1}, streaming);
}

CopyProgram SlotBuild::unpack_from(const std::byte* buffer) const {
  const Layout whole = Layout::contiguous(0, bytes);
  const Piece source{const_cast<std::byte*>(buffer), 1, &whole};
  return CopyProgram::build({&source, 1}, mine);
}

namespace {

// One direction (part) of one slot to build, with the path both ends agreed on.
struct Job {
  std::size_t n, channel, part;
  bool sending;
  const PathType* type;
  const SideChoice* mine;
  const SideDescriptor* theirs;
  std::size_t parts;  // of the message
};

const PathType* agreed(const PlanState& p, const std::vector<std::uint8_t>& sender,
                       const std::vector<std::uint8_t>& receiver) {
  std::string problem;
  const PathType* type = agree_on_path(sender, receiver, problem);
  if (type == nullptr) raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + problem);  // checked before
  return type;
}

std::vector<Job> jobs_of(const PlanState& p, const SlotChoices& choices, const std::vector<NeighbourDescriptor>& peers) {
  std::vector<Job> jobs;
  for (std::size_t n = 0; n < p.neighbours.size(); ++n)
    for (std::size_t c = 0; c < p.channels; ++c) {
      const std::size_t s = n * p.channels + c;
      const ChannelDescriptor& theirs = peers[n].channels[c];
      if (theirs.send && choices.receives[s]) {
        const SideChoice& mine = *choices.receives[s];
        for (std::size_t k = 0; k < theirs.send->parts.size(); ++k)
          jobs.push_back({n, c, k, false, agreed(p, theirs.send->parts[k].candidates, mine.candidates), &mine,
                          &theirs.send->parts[k], theirs.send->parts.size()});
      }
      if (theirs.receive && choices.sends[s]) {
        const auto& parts = choices.sends[s]->parts;
        for (std::size_t k = 0; k < parts.size(); ++k)
          jobs.push_back({n, c, k, true, agreed(p, parts[k].candidates, theirs.receive->side.candidates), &parts[k],
                          &theirs.receive->side, parts.size()});
      }
    }
  return jobs;
}

template <class Slot>
Slot common_fields(const PlanState& p, const Job& job, const SlotBuild& b) {
  Slot slot;
  slot.channel = job.channel;
  slot.rank = b.rank;
  slot.bytes = b.bytes;
  slot.part = static_cast<std::uint8_t>(job.part);
  if (!p.partition_base.empty())
    slot.partition = static_cast<std::uint32_t>(job.channel - p.partition_base[p.user_channel_of[job.channel]]);
  slot.type = job.type;
  slot.crosses_nodes = job.type->between_nodes();
  return slot;
}

template <class Slot, class Make>
void add(std::vector<Slot>& slots, std::vector<std::int32_t>& slot_of, const Job& job, std::size_t s, Slot slot,
         Make&& make) {
  if (job.part == 0) slot_of[s] = static_cast<std::int32_t>(slots.size());
  slot.path = make();
  if (job.part + 1 < job.parts) slot.next_part = static_cast<std::int32_t>(slots.size() + 1);
  slots.push_back(std::move(slot));
}

void build_one(PlanState& p, const MessageMemory& memory, const SlotChoices& choices,
               const std::vector<NeighbourDescriptor>& peers, const Job& job) {
  const std::size_t s = job.n * p.channels + job.channel;
  const NeighbourDescriptor& peer = peers[job.n];
  const int rank = p.neighbours[job.n];
  SlicedPieces sliced;  // the layouts a split message's receive pieces point to, until the copies are built
  std::vector<Piece> mine;
  if (job.sending) {
    const SendChoice& send = *choices.sends[s];
    mine = pieces_of(p, job.parts > 1 ? send.split.parts[job.part] : p.send_pieces[s]);
  } else if (job.parts > 1) {
    sliced = slice_pieces(p, p.receive_pieces[s], peer.channels[job.channel].send->split_runs);
    mine = std::move(sliced.pieces[job.part]);
  } else {
    mine = pieces_of(p, p.receive_pieces[s]);
  }
  std::size_t bytes = 0;
  for (const Piece& piece : mine) bytes += piece.layout->count() * piece.element_size;
  const SlotBuild b{p,     *job.type, p.path_states[path_index(*job.type)].get(), s, peer.receiver_index * p.channels + job.channel,
                    rank,  job.sending, job.part, bytes, std::move(mine), *job.mine, *job.theirs, peer, memory,
                    p.segment->data(), p.segment->peer_data(rank)};
  if (job.sending)
    add(p.sends, p.send_slot_of, job, s, common_fields<SendSlot>(p, job, b), [&] { return job.type->build_send(b); });
  else
    add(p.receives, p.receive_slot_of, job, s, common_fields<ReceiveSlot>(p, job, b),
        [&] { return job.type->build_receive(b); });
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

void build_slots(PlanState& p, const MessageMemory& memory, const SlotChoices& choices,
                 const std::vector<NeighbourDescriptor>& peers) {
  const std::size_t slots = p.send_pieces.size();
  p.send_slot_of.assign(slots, -1);
  p.receive_slot_of.assign(slots, -1);
  const std::vector<Job> jobs = jobs_of(p, choices, peers);
  std::vector<std::size_t> sends(registered_paths().size(), 0), receives(sends.size(), 0);
  for (const Job& job : jobs) ++(job.sending ? sends : receives)[path_index(*job.type)];
  for (std::size_t index = 0; index < sends.size(); ++index)
    if (p.path_states[index]) p.path_states[index]->before_build(p, sends[index], receives[index]);
  for (const Job& job : jobs) build_one(p, memory, choices, peers, job);
  chain_partitions(p, p.sends, p.send_slot_of);
  chain_partitions(p, p.receives, p.receive_slot_of);
  for (const auto& state : p.path_states)
    if (state) state->after_build(p);
}

}  // namespace ghostwire::detail
