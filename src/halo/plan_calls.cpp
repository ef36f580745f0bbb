// SPDX-License-Identifier: BSD-3-Clause
// Plan's communicating calls: each checks the plan's state and its use by one thread at a time, then
// runs the slot's step (exchange.cpp). docs/plans.md, "Operations".
#include <mpi.h>

#include <atomic>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/exchange.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/plan_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {

using detail::PlanState;

namespace detail {

// A moved-from Plan has no state: calling it is a use after destroy, an error rather than a crash.
PlanState& require_state(const std::unique_ptr<PlanState>& state, const char* call) {
  if (!state)
    raise(Errc::state, std::string(call) + ": this Plan was moved from (its state went to the Plan it was moved "
                                           "into); use that one");
  return *state;
}

}  // namespace detail

namespace {

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// Held for the length of one communicating call of a plan when MPI is below MPI_THREAD_MULTIPLE:
// a second thread entering the same plan meanwhile gets Errc::state naming the plan and the call,
// instead of racing on the plan's counters and MPI requests. One atomic exchange per call.
class ExclusiveUse {
 public:
  ExclusiveUse(const std::unique_ptr<PlanState>& state, const char* call)
      : plan_(detail::require_state(state, call)) {
    if (!plan_.single_thread_use) return;
    if (plan_.in_use.exchange(true, std::memory_order_acquire))
      raise(Errc::state, std::string(call) + ": plan " + std::to_string(plan_.id) +
                             " is being used by another thread at the same time; MPI provides " +
                             thread_level_name(plan_.w->thread_level) +
                             ", so a plan may serve one thread at a time (initialise MPI with "
                             "MPI_THREAD_MULTIPLE, or give each thread its own plan)");
    held_ = true;
  }
  ~ExclusiveUse() {
    if (held_) plan_.in_use.store(false, std::memory_order_release);
  }
  ExclusiveUse(const ExclusiveUse&) = delete;
  ExclusiveUse& operator=(const ExclusiveUse&) = delete;
  PlanState& plan() const { return plan_; }

 private:
  PlanState& plan_;
  bool held_ = false;
};

void require_channel(const PlanState& p, std::size_t channel, const char* call) {
  detail::require_committed(p, call);
  if (channel >= p.channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(p.channels) + ") of plan " + std::to_string(p.id));
}

}  // namespace

void Plan::send(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::send");
  detail::send(use.plan(), detail::send_slot(use.plan(), channel, neighbour, "Plan::send"), "Plan::send");
}

bool Plan::test_recv(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::test_recv");
  PlanState& p = use.plan();
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::test_recv");
  detail::prepare_receive(p, slot);
  return detail::test_receive(p, slot, detail::Receipt::copy);
}

void Plan::wait_recv(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::wait_recv");
  PlanState& p = use.plan();
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::wait_recv");
  detail::prepare_receive(p, slot);
  detail::wait_receive(p, slot);
}

bool Plan::test_send(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::test_send");
  return detail::test_send(use.plan(), detail::send_slot(use.plan(), channel, neighbour, "Plan::test_send"));
}

void Plan::wait_send(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::wait_send");
  detail::wait_send(use.plan(), detail::send_slot(use.plan(), channel, neighbour, "Plan::wait_send"));
}

const std::byte* Plan::view(std::size_t channel, int neighbour) const {
  PlanState& p = detail::require_state(state_, "Plan::view");
  const detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::view");
  return slot.next_part < 0 ? detail::view(slot) : nullptr;  // a split message is in two places
}

bool Plan::test_recv_in_place(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::test_recv_in_place");
  PlanState& p = use.plan();
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::test_recv_in_place");
  if (slot.held)
    raise(Errc::state, "Plan::test_recv_in_place: " + p.slot_name(channel, neighbour) + " of plan " +
                           std::to_string(p.id) + ": message " + std::to_string(slot.sequence) +
                           " is still held in place; call release() when done reading it");
  detail::prepare_receive(p, slot);
  return detail::test_receive(p, slot, detail::Receipt::in_place);
}

void Plan::release(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::release");
  detail::ReceiveSlot& slot = detail::receive_slot(use.plan(), channel, neighbour, "Plan::release");
  if (!slot.held) return;
  slot.held = false;
  detail::release_held(use.plan(), slot);
}

void Plan::acknowledge(std::size_t channel, int neighbour) {
  const ExclusiveUse use(state_, "Plan::acknowledge");
  detail::acknowledge_parts(use.plan(), detail::receive_slot(use.plan(), channel, neighbour, "Plan::acknowledge"));
}

void Plan::start() {
  const ExclusiveUse use(state_, "Plan::start");
  PlanState& p = use.plan();
  detail::require_committed(p, "Plan::start");
  detail::start_sends(p, p.all_sends, p.all_receives);
}

void Plan::start(std::size_t channel) {
  const ExclusiveUse use(state_, "Plan::start");
  PlanState& p = use.plan();
  require_channel(p, channel, "Plan::start");
  detail::start_sends(p, p.sends_of_channel[channel], p.receives_of_channel[channel]);
}

void Plan::finish() {
  const ExclusiveUse use(state_, "Plan::finish");
  PlanState& p = use.plan();
  detail::require_committed(p, "Plan::finish");
  detail::finish_exchange(p, p.all_receives, p.all_sends);
}

void Plan::finish(std::size_t channel) {
  const ExclusiveUse use(state_, "Plan::finish");
  PlanState& p = use.plan();
  require_channel(p, channel, "Plan::finish");
  detail::finish_exchange(p, p.receives_of_channel[channel], p.sends_of_channel[channel]);
}

void Plan::exchange() {
  detail::require_state(state_, "Plan::exchange");
  start();
  finish();
}

void Plan::exchange(std::size_t channel) {
  detail::require_state(state_, "Plan::exchange");
  start(channel);
  finish(channel);
}

}  // namespace ghostwire
