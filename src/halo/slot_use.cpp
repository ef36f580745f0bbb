// SPDX-License-Identifier: BSD-3-Clause
// Claims of slots and of the whole plan (slot_use.hpp). A slot call and a whole-plan call each
// publish their claim with a sequentially consistent read-modify-write before they look at the
// other's word, so at least one of two overlapping calls sees the other (Dekker's pattern).
#include "halo/slot_use.hpp"

#include <atomic>
#include <string>

#include "ghostwire/error.hpp"
#include "halo/combined_partitions.hpp"
#include "runtime/threads.hpp"

namespace ghostwire::detail {
namespace {

const char* const one_thread_rule =
    " (each direction of a slot, and each partition, is driven by one thread at a time; start, finish and "
    "exchange by one thread while no other call of the plan runs)";

}  // namespace

SlotClaim::SlotClaim(PlanState& p, bool sending, std::int32_t first, Scope scope, const char* call) : p_(p) {
  if (sending)
    claim_parts(p.sends, first, scope, true, call);
  else
    claim_parts(p.receives, first, scope, false, call);
  refuse_if_whole_plan_busy(call);
}

SlotClaim::SlotClaim(PlanState& p, std::span<const std::int32_t> sends, std::span<const std::int32_t> receives,
                     const char* call)
    : p_(p) {
  for (std::int32_t index : sends) {
    const SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    if (slot.part == 0) claim(p.send_use[static_cast<std::size_t>(index)], slot.rank, slot.channel, call);
  }
  for (std::int32_t index : receives) {
    const ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
    if (slot.part == 0) claim(p.receive_use[static_cast<std::size_t>(index)], slot.rank, slot.channel, call);
  }
  refuse_if_whole_plan_busy(call);
}

void SlotClaim::refuse_if_whole_plan_busy(const char* call) {
  if (p_.whole_plan_holder.load(std::memory_order_seq_cst) == 0) return;
  release();
  raise(Errc::state, std::string(call) + ": plan " + std::to_string(p_.id) +
                         " is in start, finish or exchange on another thread" + one_thread_rule);
}

// The first part of each partition holds the claim for the partition (its parts go with it).
template <class Slot>
void SlotClaim::claim_parts(std::vector<Slot>& slots, std::int32_t first, Scope scope, bool sending,
                            const char* call) {
  const std::uint32_t partition = slots[static_cast<std::size_t>(first)].partition;
  for (std::int32_t index = first; index >= 0; index = slots[static_cast<std::size_t>(index)].next_part) {
    const Slot& slot = slots[static_cast<std::size_t>(index)];
    if (scope == Scope::partition && slot.partition != partition) return;
    if (slot.part != 0) continue;
    claim((sending ? p_.send_use : p_.receive_use)[static_cast<std::size_t>(index)], slot.rank, slot.channel, call);
    if (slot.combined >= 0) {
      try {
        refuse_if_partition_calls(p_, slot.combined, sending, call);
      } catch (...) {
        release();
        throw;
      }
    }
    if (!p_.acknowledge_by_reply) continue;
    const std::int32_t reverse = sending ? p_.sends[static_cast<std::size_t>(index)].reverse_receive
                                         : p_.receives[static_cast<std::size_t>(index)].reverse_send;
    if (reverse >= 0)
      claim((sending ? p_.receive_use : p_.send_use)[static_cast<std::size_t>(reverse)], slot.rank, slot.channel, call);
  }
}

void SlotClaim::claim(SlotUse& use, int rank, std::size_t channel, const char* call) {
  const std::uintptr_t me = this_thread_tag();
  if (use.holder.load(std::memory_order_relaxed) == me) {  // only this thread can have put its tag there
    release();
    raise(Errc::state, std::string(call) + ": " + p_.slot_name(channel, rank) + " of plan " + std::to_string(p_.id) +
                           " is already in a call on this thread (a call on a slot from inside a call on it, such "
                           "as read_in_place's reader)");
  }
  std::uintptr_t holder = 0;
  if (use.holder.compare_exchange_strong(holder, me, std::memory_order_seq_cst, std::memory_order_relaxed)) {
    if (count_ < inline_count)
      held_[count_] = &use;
    else
      more_.push_back(&use);
    ++count_;
    return;
  }
  release();
  raise(Errc::state, std::string(call) + ": " + p_.slot_name(channel, rank) + " of plan " + std::to_string(p_.id) +
                         " is being used by another thread at the same time" + one_thread_rule);
}

void SlotClaim::release() {
  for (std::size_t i = 0; i < count_; ++i)
    (i < inline_count ? held_[i] : more_[i - inline_count])->holder.store(0, std::memory_order_release);
  count_ = 0;
  more_.clear();
}

WholePlanClaim::WholePlanClaim(PlanState& p, const char* call) : p_(p) {
  std::uintptr_t holder = 0;
  if (!p.whole_plan_holder.compare_exchange_strong(holder, this_thread_tag(), std::memory_order_seq_cst,
                                                   std::memory_order_relaxed))
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                           " is in start, finish or exchange on another thread" + one_thread_rule);
  auto refuse_if_held = [&](const SlotUse* uses, std::size_t count, auto slot_of) {
    for (std::size_t i = 0; i < count; ++i)
      if (uses[i].holder.load(std::memory_order_seq_cst) != 0) {
        p.whole_plan_holder.store(0, std::memory_order_release);
        const auto& slot = slot_of(i);
        raise(Errc::state, std::string(call) + ": another thread is using " + p.slot_name(slot.channel, slot.rank) +
                               " of plan " + std::to_string(p.id) + one_thread_rule);
      }
  };
  refuse_if_held(p.send_use.get(), p.sends.size(), [&](std::size_t i) -> const SendSlot& { return p.sends[i]; });
  refuse_if_held(p.receive_use.get(), p.receives.size(),
                 [&](std::size_t i) -> const ReceiveSlot& { return p.receives[i]; });
}

WholePlanClaim::~WholePlanClaim() { p_.whole_plan_holder.store(0, std::memory_order_release); }

void make_slot_uses(PlanState& p) {
  p.send_use = std::make_unique<SlotUse[]>(p.sends.size());
  p.receive_use = std::make_unique<SlotUse[]>(p.receives.size());
}

}  // namespace ghostwire::detail
