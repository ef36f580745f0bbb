// SPDX-License-Identifier: BSD-3-Clause
// The path of a slot's message (path_choice.hpp). Between node peers three ways move one message:
//
//  - in place: the receiver copies from the sender's live data. One copy, one cache-line transfer
//    per line the send layout touches.
//  - staged: the sender packs into shared staging, the receiver copies out. Two copies, but each
//    side touches the other's memory only as dense lines.
//  - pushed: the sender copies into the receiver's ghost cells once the receiver says they are
//    free. One copy; the sender gathers from its own cache and writes whole lines of the receiver.
//
// A column of a row-major grid touches one line per element, which the sender rewrites, so it is
// not read in place; a row is. For sparse send layouts the receive layout decides between staging
// and pushing: ghosts stored together (an unstructured mesh's) take a push; a grid's ghost column
// is as sparse as the column sent and stays staged. With more ranks than cores every slot between
// node peers is staged: an in-place slot's next message waits for its receiver to have run, a
// double-buffered one does not. Why, with measurements: docs/plans.md, "In place or staged", "One
// copy for sparse messages between node peers" and "Ranks that share cores".
#include "halo/path_choice.hpp"

#include <algorithm>
#include <cstdint>

#include "ghostwire/error.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

bool all_in_segments(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  return std::all_of(pieces.begin(), pieces.end(),
                     [&](const PieceSpec& s) { return p.regions[static_cast<std::size_t>(s.region)].segment >= 0; });
}

bool dense(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  constexpr std::size_t cache_line = 64;
  std::size_t lines = 0, bytes = 0;
  for (const PieceSpec& piece : pieces) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(piece.region)];
    piece.layout.for_each_run([&](std::size_t first, std::size_t count) {
      auto address = reinterpret_cast<std::uintptr_t>(region.base + first * region.element_size);
      std::size_t length = count * region.element_size;
      lines += (address + length - 1) / cache_line - address / cache_line + 1;
      bytes += length;
    });
  }
  return lines * cache_line <= 2 * bytes;
}

bool dense_piece(const PlanState& p, const PieceSpec& piece) { return dense(p, std::vector<PieceSpec>{piece}); }

// Plans acknowledged by reply gain nothing from a second buffer: the sender waits for the reply.
bool cores_shared(const PlanState& p) { return p.w->machine_threads > p.w->cores && !p.acknowledge_by_reply; }

bool split_wanted(const PlanState& p, std::size_t slot) {
  const auto& pieces = p.send_pieces[slot];
  if (p.acknowledge_by_reply || p.w->settings.intra_path != IntraPath::automatic || slot_between_nodes(p, slot) ||
      p.neighbours[slot / p.channels] == p.w->rank || !all_in_segments(p, pieces) || cores_shared(p))
    return false;
  bool some_dense = false, some_sparse = false;
  for (const PieceSpec& piece : pieces) {
    if (piece.layout.count() == 0) continue;
    (dense_piece(p, piece) ? some_dense : some_sparse) = true;
  }
  return some_dense && some_sparse;
}

SplitPieces split_pieces(const PlanState& p, std::size_t slot) {
  SplitPieces split;
  for (const PieceSpec& piece : p.send_pieces[slot]) {
    if (piece.layout.count() == 0) continue;
    const std::uint64_t part = dense_piece(p, piece) ? 0 : 1;
    const std::uint64_t bytes = piece.layout.count() * p.regions[static_cast<std::size_t>(piece.region)].element_size;
    split.parts[part].push_back(piece);
    if (!split.runs.empty() && split.runs.back().part == part)
      split.runs.back().bytes += bytes;
    else
      split.runs.push_back({bytes, part});
  }
  return split;
}

bool slot_between_nodes(const PlanState& p, std::size_t slot) {
  return !p.world->shares_memory_with(p.neighbours[slot / p.channels]);
}

SlotPath send_path(const PlanState& p, std::size_t slot) {
  if (slot_between_nodes(p, slot)) return p.inter_node_path;
  if (split_wanted(p, slot)) return SlotPath::in_place;
  const auto& pieces = p.send_pieces[slot];
  if (!all_in_segments(p, pieces)) return SlotPath::staged;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place: return SlotPath::in_place;
    case IntraPath::staged: return SlotPath::staged;
    case IntraPath::automatic:
    case IntraPath::pushed: break;  // where the receiver cannot take a push: what auto would do
  }
  // A message to myself (periodic boundaries) reads lines of my own cache: in place, whatever the shape.
  if (p.neighbours[slot / p.channels] == p.w->rank) return SlotPath::in_place;
  return dense(p, pieces) && !cores_shared(p) ? SlotPath::in_place : SlotPath::staged;
}

// Plans that acknowledge by reply run slot by slot with a message posted at every send() and
// answered on the same slot; a push would wait for the receiver's next test_recv instead, a round
// trip more per message. They keep staging their sparse slots (Plan::acknowledge_by_reply).
bool push_wanted(const PlanState& p, std::size_t slot) {
  if (p.acknowledge_by_reply || slot_between_nodes(p, slot)) return false;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place:
    case IntraPath::staged: return false;
    case IntraPath::pushed: return true;
    case IntraPath::automatic: break;
  }
  // Dense data staged only because cores are shared: pushing it measured no faster than staging.
  if (cores_shared(p) && all_in_segments(p, p.send_pieces[slot]) && dense(p, p.send_pieces[slot])) return false;
  return send_path(p, slot) == SlotPath::staged;
}

bool push_accepted(const PlanState& p, std::size_t slot) {
  const auto& pieces = p.receive_pieces[slot];
  if (p.acknowledge_by_reply || pieces.empty() || slot_between_nodes(p, slot) || !all_in_segments(p, pieces))
    return false;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place:
    case IntraPath::staged: return false;
    case IntraPath::pushed: return true;
    case IntraPath::automatic: break;
  }
  return dense(p, pieces);
}

TagLimit message_tag_limit(const PlanState& p) {
  int* tag_ub = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(p.comm, MPI_TAG_UB, &tag_ub, &found), "MPI_Comm_get_attr");
  TagLimit limit{found && tag_ub ? *tag_ub : 32767, ""};  // 32767: the least MPI_TAG_UB the standard allows
  limit.name = "MPI_TAG_UB = " + std::to_string(limit.value);
  const long configured = p.w->settings.message_tag_limit;
  if (configured > 0 && configured < limit.value) {
    limit.value = configured;
    limit.name = "the tag limit GHOSTWIRE_TAG_LIMIT = " + std::to_string(limit.value);
  }
  return limit;
}

void choose_inter_node_path(PlanState& p, std::size_t largest_slot_count) {
  const WorldState& w = *p.w;
  if (w.settings.transport == Transport::rma) {
    p.inter_node_path = SlotPath::notified_write;
    p.inter_node_reason = "the one-sided transport (GHOSTWIRE_TRANSPORT=rma)";
    return;
  }
  const TagLimit limit = message_tag_limit(p);
  const auto highest_tag = static_cast<long double>(largest_slot_count) * message_tags_per_slot - 1;
  if (highest_tag <= static_cast<long double>(limit.value)) {
    p.inter_node_path = SlotPath::two_sided;
    p.inter_node_reason = "the two-sided transport (GHOSTWIRE_TRANSPORT=p2p, the default)";
    return;
  }
  p.inter_node_path = SlotPath::notified_write;
  p.inter_node_reason = "the two-sided transport, as notified writes: the largest plan's " +
                        std::to_string(largest_slot_count) + " slots would need tags up to " +
                        std::to_string(static_cast<long long>(highest_tag)) + ", above " + limit.name;
}

}  // namespace ghostwire::detail
