// SPDX-License-Identifier: BSD-3-Clause
// Facts about a slot's layouts that the choice of its path rests on, and the one shape decision the
// core makes itself: a send slot between node peers whose pieces are partly dense and partly not (a
// grid's rows and columns to one neighbour) travels as two messages, its dense pieces in part 0 and
// the others in part 1, each part choosing its own path. docs/plans.md, "How a message travels".
#pragma once

#include <cstddef>
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
// More ranks (threads) on this machine than cores, a node peer may need this very core; plans
// acknowledged by reply gain nothing from a second buffer (the sender waits for the reply).
bool cores_shared(const PlanState& p);

// A send slot worth splitting in two messages: between node peers (not to itself), by the automatic
// choice, every piece in a Segment, some pieces dense and others not, cores not shared, not
// acknowledged by reply.
bool split_wanted(const PlanState& p, std::size_t slot);
struct SplitPieces {
  std::vector<PieceSpec> parts[2];  // dense, the others; each in message order
  std::vector<SplitRun> runs;       // which bytes of the message go in which part
};
SplitPieces split_pieces(const PlanState& p, std::size_t slot);

}  // namespace ghostwire::detail
