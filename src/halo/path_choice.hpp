// SPDX-License-Identifier: BSD-3-Clause
// The one place a slot's path is chosen, at commit, from both sides' memory and layouts and the
// world's settings (docs/plans.md, "How a message travels"). Each side states its part in its
// commit descriptor; agreed_path combines them, so both ranks of a slot build the same path.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "halo/commit/descriptor.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

bool all_in_segments(const PlanState& p, const std::vector<PieceSpec>& pieces);
// At least half of every cache line the pieces touch is message data.
bool dense(const PlanState& p, const std::vector<PieceSpec>& pieces);
bool dense_piece(const PlanState& p, const PieceSpec& piece);
// The slot's neighbour is on another (possibly emulated) node.
bool slot_between_nodes(const PlanState& p, std::size_t slot);

// More ranks (threads) on this machine than cores, a node peer may need this very core: slots
// between node peers are staged (double-buffered) rather than read in place, but in plans
// acknowledged by reply.
bool cores_shared(const PlanState& p);

// A send slot worth splitting in two messages: between node peers (not to itself), by the automatic
// choice, every piece in a Segment, some pieces dense and others not (a grid's rows and columns to
// one neighbour), cores not shared. Its dense pieces are read in place (part 0), the others staged
// (part 1), instead of staging the whole message: one rule for every plan, grids included.
bool split_wanted(const PlanState& p, std::size_t slot);
struct SplitPieces {
  std::vector<PieceSpec> parts[2];  // read in place, staged; each in message order
  std::vector<SplitRun> runs;       // which bytes of the message go in which part
};
SplitPieces split_pieces(const PlanState& p, std::size_t slot);

// The sender's own choice for send slot `slot`: p.inter_node_path, in place or staged (a split
// slot: in place, for its part 0; every slot between node peers staged where cores are shared,
// but a message to itself).
SlotPath send_path(const PlanState& p, std::size_t slot);
// The sender would rather push slot `slot` into the receiver's ghost cells than take send_path.
bool push_wanted(const PlanState& p, std::size_t slot);
// The receiver's side of slot `slot` can take pushes: its receive memory is in Segments (so the
// sender can map it) and, unless forced, dense.
bool push_accepted(const PlanState& p, std::size_t slot);
// The path both sides take: pushed when the sender wants it and the receiver accepts it.
inline SlotPath agreed_path(SlotPath sender_path, bool wanted, bool accepted) {
  return wanted && accepted ? SlotPath::pushed : sender_path;
}

// The highest message tag a plan may use: MPI_TAG_UB of its communicator, or
// Settings::message_tag_limit (GHOSTWIRE_TAG_LIMIT) if lower; `name` says which, for describe().
struct TagLimit {
  long value;
  std::string name;
};
TagLimit message_tag_limit(const PlanState& p);

// Commit's first phase: how every inter-node slot travels, the same on every rank. Two-sided
// messages with the default transport, unless the largest plan's tags (message_tags_per_slot per
// slot) would pass MPI_TAG_UB (or Settings::message_tag_limit): then notified writes, which need no
// tags, and describe() says why. `largest_slot_count` is the largest slot count of any rank.
void choose_inter_node_path(PlanState& p, std::size_t largest_slot_count);

}  // namespace ghostwire::detail
