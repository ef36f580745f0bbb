// The path of a slot's message. Between node peers three ways move one message:
//
//  - in place (intra): the receiver copies from the sender's live data. One copy, one cache-line
//    transfer per line the send layout touches.
//  - staged: the sender packs into shared staging, the receiver copies out. Two copies, but each
//    side touches the other's memory only as dense lines.
//  - pushed: the sender copies into the receiver's ghost cells once the receiver says they are
//    free. One copy; the sender gathers from its own cache and writes whole lines of the receiver.
//
// Reading a peer's data in place costs one cache-line transfer per line the layout touches; packing
// on the sender first reads those lines from the sender's own cache and hands over dense lines.
// A column of a row-major grid touches one line per element, which the sender rewrites (its ghost
// cells during the exchange, or its own cells in the next step), so it is not read in place; a row
// is. Sharing no line with ghost cells is not enough to read sparse data in place (miniGhost's
// line-aligned x=1 face: in place 2.7x slower than staged). Measured: 2-D 512^2 split in columns,
// in place 14-30 us per exchange, staged 3.5 us.
//
// For sparse send layouts the receive layout decides between staging and pushing. An unstructured
// mesh's ghosts from one owner are usually stored together (dense): the push writes whole lines of
// the receiver, the same lines the staging buffer would take, and saves the receiver's copy. A
// grid's ghost column is as sparse as the column sent: pushing it would move a line per element
// (one the receiver is using for its own boundary cells) twice, so it stays staged, where the
// receiver writes its own lines.
#include "path_choice.hpp"

#include <algorithm>
#include <cstdint>

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

SlotPath send_path(const PlanState& p, std::size_t slot) {
  int rank = p.neighbours[slot / p.channels];
  if (!p.world->shares_memory_with(rank)) return p.inter_path;
  const auto& pieces = p.send_pieces[slot];
  if (!all_in_segments(p, pieces)) return SlotPath::staged;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place: return SlotPath::intra;
    case IntraPath::staged: return SlotPath::staged;
    case IntraPath::automatic:
    case IntraPath::pushed: break;  // where the receiver cannot take a push: what auto would do
  }
  // A message to myself (periodic boundaries) reads lines of my own cache: in place, whatever the shape.
  if (rank == p.w->rank) return SlotPath::intra;
  return dense(p, pieces) ? SlotPath::intra : SlotPath::staged;
}

// Plans that acknowledge by reply run slot by slot with a message posted at every send() and
// answered on the same slot; a push would wait for the receiver's next test_recv instead, a round
// trip more per message. They keep staging their sparse slots (Plan::acknowledge_by_reply).
bool push_wanted(const PlanState& p, std::size_t slot) {
  if (p.acknowledge_by_reply || !p.world->shares_memory_with(p.neighbours[slot / p.channels])) return false;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place:
    case IntraPath::staged: return false;
    case IntraPath::pushed: return true;
    case IntraPath::automatic: break;
  }
  return send_path(p, slot) == SlotPath::staged;
}

bool push_accepted(const PlanState& p, std::size_t slot) {
  const auto& pieces = p.receive_pieces[slot];
  if (p.acknowledge_by_reply || pieces.empty() || !p.world->shares_memory_with(p.neighbours[slot / p.channels]) ||
      !all_in_segments(p, pieces))
    return false;
  switch (p.w->settings.intra_path) {
    case IntraPath::in_place:
    case IntraPath::staged: return false;
    case IntraPath::pushed: return true;
    case IntraPath::automatic: break;
  }
  return dense(p, pieces);
}

}  // namespace ghostwire::detail
