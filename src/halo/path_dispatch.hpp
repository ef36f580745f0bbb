// SPDX-License-Identifier: BSD-3-Clause
// The core's calls on a slot's path, through the path interface (halo/path.hpp) and nothing else:
// no call here knows which path a slot takes. Also the plan-wide progress the paths ask for.
#pragma once

#include <string>

#include "halo/plan_state.hpp"
#include "halo/slot.hpp"

namespace ghostwire::detail {

// Send side.
inline void post(PlanState& p, SendSlot& slot, Post how) { slot.path->post(p, slot, how); }
inline bool acknowledged(PlanState& p, SendSlot& slot) { return slot.path->acknowledged(p, slot); }
inline bool ready_for_next(PlanState& p, SendSlot& slot) { return slot.path->ready_for_next(p, slot); }
inline bool exchange_done(PlanState& p, SendSlot& slot) { return slot.path->exchange_done(p, slot); }
// After start(): finish() waits for nothing of this slot's message, a later send() does.
inline bool defers_after_exchange(const SendSlot& slot) { return !slot.type->receiver_reads_sent_data(); }
inline std::string describe_wait(const PlanState& p, const SendSlot& slot) { return slot.path->describe_wait(p, slot); }
inline std::string not_acknowledged_hint(const SendSlot& slot) { return slot.path->not_acknowledged_hint(slot); }
inline bool between_nodes(const SendSlot& slot) { return slot.crosses_nodes; }
inline void prefetch_next(const SendSlot& slot, std::size_t bytes) { slot.path->prefetch_next(slot, bytes); }
inline bool served_by_world_progress(const SendSlot& slot) { return slot.type->served_by_world_progress(); }
inline void release(PlanState& p, SendSlot& slot) { slot.path->release(p, slot); }

// Receive side.
inline void hand_over(PlanState& p, ReceiveSlot& slot) { slot.path->hand_over(p, slot); }
inline bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  return slot.path->try_receive(p, slot, receipt);
}
inline const std::byte* view(const ReceiveSlot& slot) { return slot.path->view(); }
// Plan::view: none for a split or partitioned message, which is in several places.
inline const std::byte* whole_view(const ReceiveSlot& slot) { return slot.next_part < 0 ? view(slot) : nullptr; }
inline void prefetch_next(const ReceiveSlot& slot, std::size_t bytes) { slot.path->prefetch_next(slot, bytes); }
inline void release_held(PlanState& p, ReceiveSlot& slot) { slot.path->release_held(p, slot); }
inline void acknowledge(const PlanState& p, const ReceiveSlot& slot) { slot.path->acknowledge(p, slot); }
inline std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) {
  return slot.path->describe_wait(p, slot);
}
inline bool between_nodes(const ReceiveSlot& slot) { return slot.crosses_nodes; }
inline bool served_by_world_progress(const ReceiveSlot& slot) { return slot.type->served_by_world_progress(); }
inline void release(PlanState& p, ReceiveSlot& slot) { slot.path->release(p, slot); }

// The work the plan's paths owe (PathPlanState::progress): every call and wait of the plan.
inline void progress_paths(PlanState& p) {
  for (PathPlanState* state : p.progressing) state->progress(p);
}

}  // namespace ghostwire::detail
