// How a slot's message travels, chosen at commit from both sides' memory and layouts.
#pragma once

#include <cstddef>
#include <vector>

#include "plan_state.hpp"

namespace ghostwire::detail {

bool all_in_segments(const PlanState& p, const std::vector<PieceSpec>& pieces);
// At least half of every cache line the pieces touch is message data.
bool dense(const PlanState& p, const std::vector<PieceSpec>& pieces);

// The sender's own choice for send slot `slot`: inter-node (p.inter_path), in place or staged.
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

}  // namespace ghostwire::detail
