// SPDX-License-Identifier: BSD-3-Clause
// Threads on a plan (docs/plans.md, "Threads"): each direction of each slot (of each partition, when
// partitioned) is driven by one thread at a time, and start, finish and exchange by one thread while
// no slot call runs. A call claims what it drives for its length, and a second thread arriving
// meanwhile is refused with Errc::state, never let in. A claim is a compare-and-swap on the slot's
// own line and a load of the plan's whole-plan word; nothing is ever waited for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

// Claims one direction of a slot for one call: from the part at `first` (an index into p.sends or
// p.receives), every partition (Scope::whole) or its own (Scope::partition). A plan that
// acknowledges by reply claims both directions, since a send carries what its reverse receive
// consumed.
class SlotClaim {
 public:
  SlotClaim(PlanState& p, bool sending, std::int32_t first, Scope scope, const char* call);
  // Every slot (part) listed: a thread's share of an exchange (Plan::exchange_share), which lists
  // both directions of each (channel, neighbour) it takes.
  SlotClaim(PlanState& p, std::span<const std::int32_t> sends, std::span<const std::int32_t> receives,
            const char* call);
  ~SlotClaim() { release(); }
  SlotClaim(const SlotClaim&) = delete;
  SlotClaim& operator=(const SlotClaim&) = delete;

 private:
  template <class Slot>
  void claim_parts(std::vector<Slot>& slots, std::int32_t first, Scope scope, bool sending, const char* call);
  void claim(SlotUse& use, int rank, std::size_t channel, const char* call);
  void refuse_if_whole_plan_busy(const char* call);
  void release();

  PlanState& p_;
  static constexpr std::size_t inline_count = 4;  // more (many partitions) go to `more_`
  SlotUse* held_[inline_count] = {};
  std::vector<SlotUse*> more_;
  std::size_t count_ = 0;
};

// For start, finish and exchange (all slots, or one channel's): the plan's whole-plan word, and no
// slot call running on any slot.
class WholePlanClaim {
 public:
  WholePlanClaim(PlanState& p, const char* call);
  ~WholePlanClaim();
  WholePlanClaim(const WholePlanClaim&) = delete;
  WholePlanClaim& operator=(const WholePlanClaim&) = delete;

 private:
  PlanState& p_;
};

// At commit: a free SlotUse for every send and receive record.
void make_slot_uses(PlanState& p);

}  // namespace ghostwire::detail
