// SPDX-License-Identifier: BSD-3-Clause
// The slot steps Plan's calls and the slot ends share (slot_steps.hpp), and the ends themselves
// (ghostwire/slot_end.hpp).
#include "halo/slot_steps.hpp"

#include <algorithm>
#include <string>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/exchange.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/slot_call.hpp"

namespace ghostwire {
namespace detail {

PlanState& require_state(const std::unique_ptr<PlanState>& state, const char* call);  // plan_calls.cpp

void send_step(PlanState& p, std::int32_t index, const char* call) {
  const SlotCall use(p, true, index, Scope::whole, call);
  send(p, p.sends[static_cast<std::size_t>(index)], call);
}

bool try_send_step(PlanState& p, std::int32_t index, const char* call) {
  const SlotCall use(p, true, index, Scope::whole, call);
  SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
  if (!test_send(p, slot)) return false;
  post_acknowledged(p, slot, call);
  return true;
}

bool test_send_step(PlanState& p, std::int32_t index, const char* call) {
  const SlotCall use(p, true, index, Scope::whole, call);
  return test_send(p, p.sends[static_cast<std::size_t>(index)]);
}

void wait_send_step(PlanState& p, std::int32_t index, const char* call) {
  const SlotCall use(p, true, index, Scope::whole, call);
  wait_send(p, p.sends[static_cast<std::size_t>(index)]);
}

void prefetch_send_step(PlanState& p, std::int32_t index, std::size_t bytes) {
  const SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
  if (slot.next_part < 0) prefetch_next(slot, bytes);  // a split or partitioned message: no hint
}

void prefetch_receive_step(PlanState& p, std::int32_t index, std::size_t bytes) {
  const ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
  if (slot.next_part < 0) prefetch_next(slot, std::min(bytes, slot.bytes));
}

ReceiveSlot& in_place_slot(PlanState& p, std::int32_t index, const char* call) {
  ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
  if (slot.held)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(slot.channel, slot.rank) + " of plan " +
                           std::to_string(p.id) + ": message " + std::to_string(slot.sequence) +
                           " is still held in place; call release() when done reading it");
  prepare_receive(p, slot, Scope::whole, call);
  return slot;
}

void release_if_held(PlanState& p, ReceiveSlot& slot) {
  if (!slot.held) return;
  slot.held = false;
  release_held(p, slot);
}

void read_in_place_step(PlanState& p, std::int32_t index, void (*use)(void*, const std::byte*), void* context,
                        const char* call) {
  const SlotCall claimed(p, false, index, Scope::whole, call);
  ReceiveSlot& slot = in_place_slot(p, index, call);
  wait_receive(p, slot, Scope::whole, Receipt::in_place);
  struct Release {  // after `use`, whether it returns or throws
    PlanState& p;
    ReceiveSlot& slot;
    ~Release() { release_if_held(p, slot); }
  } release{p, slot};
  use(context, whole_view(slot));
}

}  // namespace detail

namespace {

detail::PlanState& state_of(detail::PlanState* plan, const char* call) {
  if (plan == nullptr)
    raise(Errc::state, std::string(call) + ": this end refers to no slot (default-constructed); take one from "
                                           "Plan::send_end or Plan::receive_end");
  return *plan;
}

}  // namespace

SendEnd Plan::send_end(std::size_t channel, int neighbour) {
  detail::PlanState& p = detail::require_state(state_, "Plan::send_end");
  return SendEnd(&p, detail::send_index(p, channel, neighbour, "Plan::send_end"));
}

ReceiveEnd Plan::receive_end(std::size_t channel, int neighbour) {
  detail::PlanState& p = detail::require_state(state_, "Plan::receive_end");
  return ReceiveEnd(&p, detail::receive_index(p, channel, neighbour, "Plan::receive_end"));
}

void SendEnd::send() { detail::send_step(state_of(plan_, "SendEnd::send"), index_, "SendEnd::send"); }
bool SendEnd::try_send() {
  return detail::try_send_step(state_of(plan_, "SendEnd::try_send"), index_, "SendEnd::try_send");
}
bool SendEnd::test_send() {
  return detail::test_send_step(state_of(plan_, "SendEnd::test_send"), index_, "SendEnd::test_send");
}
void SendEnd::wait_send() { detail::wait_send_step(state_of(plan_, "SendEnd::wait_send"), index_, "SendEnd::wait_send"); }
void SendEnd::prefetch(std::size_t bytes) const {
  detail::prefetch_send_step(state_of(plan_, "SendEnd::prefetch"), index_, bytes);
}

void ReceiveEnd::read_in_place(void (*use)(void*, const std::byte*), void* context) {
  detail::read_in_place_step(state_of(plan_, "ReceiveEnd::read_in_place"), index_, use, context,
                             "ReceiveEnd::read_in_place");
}
void ReceiveEnd::prefetch(std::size_t bytes) const {
  detail::prefetch_receive_step(state_of(plan_, "ReceiveEnd::prefetch"), index_, bytes);
}

}  // namespace ghostwire
