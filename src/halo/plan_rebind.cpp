// SPDX-License-Identifier: BSD-3-Clause
// Plan::rebind: a private region's memory moves to another array of the same size between
// exchanges (a code that swaps two arrays every step, a PETSc vector whose array changes), and
// every slot's path follows it (halo/memory_move.hpp). Local: each rank moves its own regions.
// docs/plans.md, "Arrays that move".
#include <string>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/memory_move.hpp"
#include "halo/combined_state.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/plan_state.hpp"
#include "halo/reverse.hpp"

namespace ghostwire {

using detail::MemoryMove;
using detail::PlanState;
using detail::RegionSpec;

namespace detail {

PlanState& require_state(const std::unique_ptr<PlanState>& state, const char* call);  // plan_calls.cpp

// The base class's refusal: a path that does not say it can follow moved memory cannot.
std::string SendPath::cannot_follow(const PlanState&, const SendSlot& slot, const MemoryMove&) const {
  return std::string("its path '") + slot.type->name() + "' cannot follow memory moved by Plan::rebind";
}
std::string ReceivePath::cannot_follow(const PlanState&, const ReceiveSlot& slot, const MemoryMove&) const {
  return std::string("its path '") + slot.type->name() + "' cannot follow memory moved by Plan::rebind";
}

namespace {

constexpr const char* call = "Plan::rebind";

std::string region_text(int id) { return "region " + std::to_string(id); }

bool overlaps(const std::byte* a, std::size_t a_bytes, const std::byte* b, std::size_t b_bytes) {
  return a_bytes > 0 && b_bytes > 0 && a < b + b_bytes && b < a + a_bytes;
}

// The region may move to `base`: private memory, not shared with another region before or after.
void check_region(const PlanState& p, int id, const std::byte* base) {
  const RegionSpec& region = p.regions[static_cast<std::size_t>(id)];
  if (region.segment >= 0)
    raise(Errc::invalid_argument, std::string(call) + ": " + region_text(id) + " of plan " + std::to_string(p.id) +
                                      " is in Segment " + std::to_string(region.segment) +
                                      ", whose memory node peers map and never moves: only private memory rebinds");
  if (base == nullptr && region.bytes > 0)
    raise(Errc::invalid_argument, std::string(call) + ": the new base of " + region_text(id) + " is null");
  for (std::size_t other = 0; other < p.regions.size(); ++other) {
    if (static_cast<int>(other) == id) continue;
    const RegionSpec& o = p.regions[other];
    const bool before = overlaps(region.base, region.bytes, o.base, o.bytes);
    if (before || overlaps(base, region.bytes, o.base, o.bytes))
      raise(Errc::invalid_argument, std::string(call) + ": " + region_text(id) + (before ? "" : " at its new base") +
                                        " shares memory with " + region_text(static_cast<int>(other)) + " of plan " +
                                        std::to_string(p.id) +
                                        ": a region that moves must not overlap another (give each its own array)");
  }
}

std::string slot_refusal(const PlanState& p, std::size_t channel, int rank, bool sending, const std::string& why) {
  return std::string(call) + ": plan " + std::to_string(p.id) + ", " + (sending ? "send " : "receive ") +
         p.slot_name(channel, rank) + ": " + why;
}

// Every slot can follow now: nothing of the plan is under way at this rank (an exchange started is
// named as such first), and every path can.
void check_slots(PlanState& p, const MemoryMove& move) {
  for (ReceiveSlot& slot : p.receives) {
    if (slot.in_exchange)
      raise(Errc::state, slot_refusal(p, slot.channel, slot.rank, false,
                                      "an exchange is under way; finish() before moving memory"));
    if (std::string why = slot.path->cannot_follow(p, slot, move); !why.empty())
      raise(Errc::state, slot_refusal(p, slot.channel, slot.rank, false, why));
  }
  for (SendSlot& slot : p.sends) {
    if (slot.combined >= 0 && p.combined_sends[static_cast<std::size_t>(slot.combined)]->ready > 0)
      raise(Errc::state, slot_refusal(p, slot.channel, slot.rank, true,
                                      "partitions are readied for a message not sent yet (their data is packed when "
                                      "the last is readied); ready every partition before moving memory"));
    if (!exchange_done(p, slot))
      raise(Errc::state, slot_refusal(p, slot.channel, slot.rank, true,
                                      "message " + std::to_string(slot.sequence) +
                                          " is still under way; finish() or wait_send() before moving memory"));
    if (std::string why = slot.path->cannot_follow(p, slot, move); !why.empty())
      raise(Errc::state, slot_refusal(p, slot.channel, slot.rank, true, why));
  }
  if (p.reverse && p.reverse->started)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                           ": a reverse exchange is under way; reverse_finish() before moving memory");
}

void follow(PlanState& p, const MemoryMove& move) {
  for (SendSlot& slot : p.sends) slot.path->follow(p, slot, move);
  for (ReceiveSlot& slot : p.receives) slot.path->follow(p, slot, move);
  if (p.reverse)
    for (ReverseRun& run : p.reverse->runs) move.follow(run.owned);
}

}  // namespace
}  // namespace detail

Plan& Plan::rebind(Region region, void* base) {
  PlanState& p = detail::require_state(state_, detail::call);
  if (region.id < 0 || static_cast<std::size_t>(region.id) >= p.regions.size())
    raise(Errc::invalid_argument, std::string(detail::call) + ": region " + std::to_string(region.id) +
                                      " was not returned by add_memory of plan " + std::to_string(p.id));
  auto* to = static_cast<std::byte*>(base);
  detail::check_region(p, region.id, to);
  RegionSpec& spec = p.regions[static_cast<std::size_t>(region.id)];
  if (to == spec.base) return *this;
  if (p.committed) {
    const MemoryMove move{spec.base, spec.base + spec.bytes, to - spec.base};
    detail::check_slots(p, move);
    // The transpose carries the ghost values back from this region: the same region, moved too.
    if (p.reverse) p.reverse->plan->rebind(region, base);
    detail::follow(p, move);
  }
  spec.base = to;
  return *this;
}

}  // namespace ghostwire
