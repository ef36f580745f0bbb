// SPDX-License-Identifier: BSD-3-Clause
// Plan's communicating calls: each checks the plan's state, claims what it drives for this thread
// (halo/slot_use.hpp) and, where it enters MPI, the World's thread level (runtime/threads.hpp), then
// runs the slot's step (exchange.cpp). docs/plans.md, "Operations" and "Threads".
#include <mpi.h>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/combined_partitions.hpp"
#include "halo/exchange.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/plan_state.hpp"
#include "halo/slot_call.hpp"
#include "halo/slot_steps.hpp"
#include "runtime/threads.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {

using detail::PlanState;
using detail::Scope;
using detail::SlotCall;

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

// start, finish, exchange: the whole plan for this thread, and MPI if any slot travels between nodes.
class WholeCall {
 public:
  WholeCall(PlanState& p, const char* call) : claim_(p, call) {
    if (p.reaches_mpi && !mpi_.enter(*p.w))
      mpi_.refuse(std::string(call) + ": plan " + std::to_string(p.id) + " has slots between nodes");
  }

 private:
  detail::WholePlanClaim claim_;
  detail::MpiEntry mpi_;
};

PlanState& committed_state(const std::unique_ptr<PlanState>& state, const char* call) {
  PlanState& p = detail::require_state(state, call);
  detail::require_committed(p, call);
  return p;
}

// The slot of (channel, neighbour) when its partitions travel combined (halo/combined_partitions.hpp).
detail::SendSlot* combined_send(PlanState& p, std::size_t channel, int neighbour, const char* call) {
  if (p.combined_sends.empty()) return nullptr;
  detail::SendSlot& slot = p.sends[static_cast<std::size_t>(detail::send_index(p, channel, neighbour, call))];
  return slot.combined >= 0 ? &slot : nullptr;
}
detail::ReceiveSlot* combined_receive(PlanState& p, std::size_t channel, int neighbour, const char* call) {
  if (p.combined_receives.empty()) return nullptr;
  detail::ReceiveSlot& slot = p.receives[static_cast<std::size_t>(detail::receive_index(p, channel, neighbour, call))];
  return slot.combined >= 0 ? &slot : nullptr;
}

void require_channel(const PlanState& p, std::size_t channel, const char* call) {
  if (channel >= p.user_channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(p.user_channels) + ") of plan " + std::to_string(p.id));
}

}  // namespace

void Plan::send(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::send");
  detail::send_step(p, detail::send_index(p, channel, neighbour, "Plan::send"), "Plan::send");
}

bool Plan::try_send(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::try_send");
  return detail::try_send_step(p, detail::send_index(p, channel, neighbour, "Plan::try_send"), "Plan::try_send");
}

bool Plan::test_recv(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::test_recv");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::test_recv");
  const SlotCall use(p, false, index, Scope::whole, "Plan::test_recv");
  detail::ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
  detail::prepare_receive(p, slot, Scope::whole, "Plan::test_recv");
  if (!detail::test_receive(p, slot, detail::Receipt::copy)) return false;
  detail::note_whole_receipt(p, slot);
  return true;
}

void Plan::wait_recv(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::wait_recv");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::wait_recv");
  const SlotCall use(p, false, index, Scope::whole, "Plan::wait_recv");
  detail::ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
  detail::prepare_receive(p, slot, Scope::whole, "Plan::wait_recv");
  detail::wait_receive(p, slot);
}

bool Plan::test_send(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::test_send");
  return detail::test_send_step(p, detail::send_index(p, channel, neighbour, "Plan::test_send"), "Plan::test_send");
}

void Plan::wait_send(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::wait_send");
  detail::wait_send_step(p, detail::send_index(p, channel, neighbour, "Plan::wait_send"), "Plan::wait_send");
}

void Plan::pready(std::size_t channel, int neighbour, std::size_t partition) {
  PlanState& p = committed_state(state_, "Plan::pready");
  if (detail::SendSlot* combined = combined_send(p, channel, neighbour, "Plan::pready"))
    return detail::ready_combined(p, *combined, partition, "Plan::pready");
  const std::int32_t index = detail::send_partition_index(p, channel, neighbour, partition, "Plan::pready");
  const SlotCall use(p, true, index, Scope::partition, "Plan::pready");
  // Between nodes the partition is packed as it goes: no acknowledgement message is needed, as after
  // exchange(). Between node peers the receiver reads it, so it must be acknowledged as after send().
  detail::SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
  detail::send(p, slot, "Plan::pready", Scope::partition,
               detail::between_nodes(slot) ? detail::Post::by_exchange : detail::Post::by_send);
}

bool Plan::test_send(std::size_t channel, int neighbour, std::size_t partition) {
  PlanState& p = committed_state(state_, "Plan::test_send");
  if (detail::SendSlot* combined = combined_send(p, channel, neighbour, "Plan::test_send"))
    return detail::combined_sent(p, *combined, partition, "Plan::test_send");
  const std::int32_t index = detail::send_partition_index(p, channel, neighbour, partition, "Plan::test_send");
  const SlotCall use(p, true, index, Scope::partition, "Plan::test_send");
  return detail::test_send(p, p.sends[static_cast<std::size_t>(index)], Scope::partition);
}

void Plan::wait_send(std::size_t channel, int neighbour, std::size_t partition) {
  PlanState& p = committed_state(state_, "Plan::wait_send");
  if (detail::SendSlot* combined = combined_send(p, channel, neighbour, "Plan::wait_send"))
    return detail::wait_combined_sent(p, *combined, partition, "Plan::wait_send");
  const std::int32_t index = detail::send_partition_index(p, channel, neighbour, partition, "Plan::wait_send");
  const SlotCall use(p, true, index, Scope::partition, "Plan::wait_send");
  detail::wait_send(p, p.sends[static_cast<std::size_t>(index)], Scope::partition);
}

bool Plan::parrived(std::size_t channel, int neighbour, std::size_t partition) {
  PlanState& p = committed_state(state_, "Plan::parrived");
  if (detail::ReceiveSlot* combined = combined_receive(p, channel, neighbour, "Plan::parrived"))
    return detail::arrived_combined(p, *combined, partition, "Plan::parrived");
  const std::int32_t index = detail::receive_partition_index(p, channel, neighbour, partition, "Plan::parrived");
  const SlotCall use(p, false, index, Scope::partition, "Plan::parrived");
  detail::ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
  detail::prepare_receive(p, slot, Scope::partition, "Plan::parrived");
  return detail::test_receive(p, slot, detail::Receipt::copy, Scope::partition);
}

const std::byte* Plan::view(std::size_t channel, int neighbour) const {
  PlanState& p = committed_state(state_, "Plan::view");
  const detail::ReceiveSlot& slot = p.receives[static_cast<std::size_t>(detail::receive_index(p, channel, neighbour, "Plan::view"))];
  return detail::whole_view(slot);
}

void Plan::prefetch_recv(std::size_t channel, int neighbour, std::size_t bytes) {
  PlanState& p = committed_state(state_, "Plan::prefetch_recv");
  detail::prefetch_receive_step(p, detail::receive_index(p, channel, neighbour, "Plan::prefetch_recv"), bytes);
}

void Plan::prefetch_send(std::size_t channel, int neighbour, std::size_t bytes) {
  PlanState& p = committed_state(state_, "Plan::prefetch_send");
  detail::prefetch_send_step(p, detail::send_index(p, channel, neighbour, "Plan::prefetch_send"), bytes);
}

bool Plan::test_recv_in_place(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::test_recv_in_place");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::test_recv_in_place");
  const SlotCall use(p, false, index, Scope::whole, "Plan::test_recv_in_place");
  detail::ReceiveSlot& slot = detail::in_place_slot(p, index, "Plan::test_recv_in_place");
  if (!detail::test_receive(p, slot, detail::Receipt::in_place)) return false;
  detail::note_whole_receipt(p, slot);
  return true;
}

const std::byte* Plan::wait_recv_in_place(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::wait_recv_in_place");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::wait_recv_in_place");
  const SlotCall use(p, false, index, Scope::whole, "Plan::wait_recv_in_place");
  detail::ReceiveSlot& slot = detail::in_place_slot(p, index, "Plan::wait_recv_in_place");
  detail::wait_receive(p, slot, Scope::whole, detail::Receipt::in_place);
  return detail::whole_view(slot);
}

void Plan::release(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::release");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::release");
  const SlotCall use(p, false, index, Scope::whole, "Plan::release");
  detail::release_if_held(p, p.receives[static_cast<std::size_t>(index)]);
}

void Plan::read_in_place(std::size_t channel, int neighbour, void (*use)(void*, const std::byte*), void* context) {
  PlanState& p = committed_state(state_, "Plan::read_in_place");
  detail::read_in_place_step(p, detail::receive_index(p, channel, neighbour, "Plan::read_in_place"), use, context,
                             "Plan::read_in_place");
}

void Plan::acknowledge(std::size_t channel, int neighbour) {
  PlanState& p = committed_state(state_, "Plan::acknowledge");
  const std::int32_t index = detail::receive_index(p, channel, neighbour, "Plan::acknowledge");
  const SlotCall use(p, false, index, Scope::whole, "Plan::acknowledge");
  detail::acknowledge_parts(p, p.receives[static_cast<std::size_t>(index)]);
}

void Plan::start() {
  PlanState& p = committed_state(state_, "Plan::start");
  const WholeCall use(p, "Plan::start");
  detail::start_sends(p, p.all_sends, p.all_receives);
}

void Plan::start(std::size_t channel) {
  PlanState& p = committed_state(state_, "Plan::start");
  require_channel(p, channel, "Plan::start");
  const WholeCall use(p, "Plan::start");
  detail::start_sends(p, p.sends_of_channel[channel], p.receives_of_channel[channel]);
}

void Plan::finish() {
  PlanState& p = committed_state(state_, "Plan::finish");
  const WholeCall use(p, "Plan::finish");
  detail::finish_exchange(p, p.all_receives, p.all_sends, p.pending);
}

void Plan::finish(std::size_t channel) {
  PlanState& p = committed_state(state_, "Plan::finish");
  require_channel(p, channel, "Plan::finish");
  const WholeCall use(p, "Plan::finish");
  detail::finish_exchange(p, p.receives_of_channel[channel], p.sends_of_channel[channel], p.pending);
}

bool Plan::test_finish() {
  PlanState& p = committed_state(state_, "Plan::test_finish");
  const WholeCall use(p, "Plan::test_finish");
  return detail::test_exchange(p, p.all_receives, p.all_sends);
}

bool Plan::test_finish(std::size_t channel) {
  PlanState& p = committed_state(state_, "Plan::test_finish");
  require_channel(p, channel, "Plan::test_finish");
  const WholeCall use(p, "Plan::test_finish");
  return detail::test_exchange(p, p.receives_of_channel[channel], p.sends_of_channel[channel]);
}

void Plan::exchange_share(std::size_t thread, std::size_t threads) {
  PlanState& p = committed_state(state_, "Plan::exchange_share");
  if (threads == 0 || thread >= threads)
    raise(Errc::out_of_range, "Plan::exchange_share: thread " + std::to_string(thread) + " is not in [0, " +
                                  std::to_string(threads) + ")");
  // Refused on every thread of the team alike, before any of them enters MPI (a refusal on some
  // threads only would leave the others waiting for them).
  if (threads > 1 && p.reaches_mpi && p.w->thread_level < MPI_THREAD_MULTIPLE)
    raise(Errc::state, "Plan::exchange_share: plan " + std::to_string(p.id) + " has slots between nodes, and MPI provides " +
                           thread_level_name(p.world->thread_level()) + ": a team of " + std::to_string(threads) +
                           " threads would call MPI from several threads at once; exchange on one thread, or "
                           "initialise MPI with MPI_THREAD_MULTIPLE (Settings::thread_level, GHOSTWIRE_THREAD_LEVEL)");
  // A thread's own lists: no allocation once they have grown, nothing shared between the threads.
  thread_local std::vector<std::int32_t> sends, receives, pending;
  detail::share_of(p, thread, threads, sends, receives);
  const detail::SlotClaim claim(p, sends, receives, "Plan::exchange_share");
  bool between = false;
  for (std::int32_t index : sends) between |= detail::between_nodes(p.sends[static_cast<std::size_t>(index)]);
  for (std::int32_t index : receives) between |= detail::between_nodes(p.receives[static_cast<std::size_t>(index)]);
  detail::MpiEntry mpi;
  if (between && !mpi.enter(*p.w))
    mpi.refuse("Plan::exchange_share: thread " + std::to_string(thread) + "'s share of plan " + std::to_string(p.id) +
               " has slots between nodes");
  detail::start_sends(p, sends, receives);
  detail::finish_exchange(p, receives, sends, pending);
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
