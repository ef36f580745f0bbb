// SPDX-License-Identifier: BSD-3-Clause
// Plan::commit as named phases (docs/internals/paths.md, "The life of a slot"): check the
// neighbour lists, make partitions slots, prepare every path's plan-wide state, choose each slot
// side's candidate paths, lay out message memory, exchange descriptors, check agreement, build each
// slot's agreed path, order the slots, choose the wait policy.
// Every check ends in a collective verdict, so all ranks throw together and nobody hangs.
#include <algorithm>

#include "ghostwire/error.hpp"
#include "halo/collective.hpp"
#include "halo/commit/descriptor_exchange.hpp"
#include "halo/commit/message_memory.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/commit/slot_choice.hpp"
#include "halo/combined_partitions.hpp"
#include "halo/mpi_messages.hpp"
#include "halo/partitions.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/path_registry.hpp"
#include "halo/slot_use.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

// Every rank tells every other whether it lists it as a neighbour (bit 0) and whether it asked for
// the reverse exchange (bit 1: Plan::enable_reverse; commit builds it on all ranks or none).
void check_neighbour_lists(PlanState& p, const std::string& context) {
  WorldState& w = *p.w;
  const auto size = static_cast<std::size_t>(w.size);
  const int reverse_bit = p.reverse_wanted ? 2 : 0;
  std::vector<int> listed(size, reverse_bit), listed_by(size, 0);
  for (int r : p.neighbours) listed[static_cast<std::size_t>(r)] |= 1;
  MPI_Request request;
  check_mpi(MPI_Ialltoall(listed.data(), 1, MPI_INT, listed_by.data(), 1, MPI_INT, p.comm, &request), "MPI_Ialltoall");
  wait_request(w, request, context + ": the neighbour lists of all ranks (did every rank call commit?)");
  std::vector<std::string> problems;
  const std::string me = "rank " + std::to_string(w.rank);
  int reverse_asked_by = -1;
  for (std::size_t r = 0; r < size; ++r) {
    const std::string other = "rank " + std::to_string(r);
    const bool mine = listed[r] & 1, theirs = listed_by[r] & 1;
    if (mine && !theirs)
      problems.push_back(me + " lists " + other + " as a neighbour but " + other + " does not list " + me);
    if (!mine && theirs)
      problems.push_back(other + " lists " + me + " as a neighbour but " + me + " does not list " + other);
    if ((listed_by[r] & 2) && reverse_asked_by < 0) reverse_asked_by = static_cast<int>(r);
  }
  if (!p.reverse_wanted && reverse_asked_by >= 0)
    problems.push_back("enable_reverse() was called on rank " + std::to_string(reverse_asked_by) +
                       " (and maybe others) but not on " + me);
  throw_if_any(w, p.comm, problems, Errc::mismatch, context);
}

std::size_t largest_slot_count(PlanState& p, const std::string& context) {
  unsigned long slots = p.send_pieces.size();
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &slots, 1, MPI_UNSIGNED_LONG, MPI_MAX, p.comm, &request), "MPI_Iallreduce");
  wait_request(*p.w, request, context + ": the slot counts of all ranks");
  return slots;
}

// Every registered path's plan-wide state, in registry order on every rank (their prepare steps
// may be collective).
void prepare_paths(PlanState& p, std::size_t largest, const std::string& context) {
  p.transport_reason = inter_node_transport(p, largest).reason;
  p.path_states.clear();
  for (const PathType* type : registered_paths()) p.path_states.push_back(type->prepare(p, largest, context));
}

// Each slot side's candidates; a GHOSTWIRE_INTRA_PATH no path has, or a refusal, ends the commit on
// every rank.
void choose(PlanState& p, SlotChoices& choices, const std::string& context) {
  std::vector<std::string> problems;
  Errc code = Errc::invalid_argument;
  try {
    choose_sides(p, choices);
    problems = refusals(p, choices);
  } catch (const Error& error) {
    problems.push_back(error.what());
    code = error.code();
  }
  throw_if_any(*p.w, p.comm, problems, code, context);
}

// Slot lists in the order start() and finish() take them: the slots `goes_last` picks after the
// others, each part in slot order; by the user's channel (its partitions together).
template <class Slot, class GoesLast>
void order(const PlanState& p, const std::vector<Slot>& slots, GoesLast goes_last, std::vector<std::int32_t>& all,
           std::vector<std::vector<std::int32_t>>& of_channel) {
  all.clear();
  of_channel.assign(p.user_channels, {});
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (goes_last(slots[i]) != (pass == 1)) continue;
      all.push_back(static_cast<std::int32_t>(i));
      of_channel[p.user_channel_of[slots[i].channel]].push_back(static_cast<std::int32_t>(i));
    }
}

void order_slots(PlanState& p) {
  // Both directions of a slot: with acknowledge_by_reply, a send carries the acknowledgement of
  // what its reverse receive consumed.
  for (std::size_t s = 0; s < p.send_slot_of.size(); ++s) {
    if (p.send_slot_of[s] < 0 || p.receive_slot_of[s] < 0) continue;
    p.sends[static_cast<std::size_t>(p.send_slot_of[s])].reverse_receive = p.receive_slot_of[s];
    p.receives[static_cast<std::size_t>(p.receive_slot_of[s])].reverse_send = p.send_slot_of[s];
  }
  // Node peers first: their send is a counter store, so they can start copying while this rank
  // packs for other nodes.
  order(p, p.sends, [](const SendSlot& slot) { return between_nodes(slot); }, p.all_sends, p.sends_of_channel);
  // Other ranks' messages before this rank's messages to itself: a peer's next exchange waits for
  // the acknowledgement of what it sent, a copy within this rank delays nobody else.
  const int me = p.w->rank;
  order(p, p.receives, [me](const ReceiveSlot& slot) { return slot.rank == me; }, p.all_receives,
        p.receives_of_channel);
  p.pending.reserve(p.receives.size());
}

void choose_wait_policy(PlanState& p) {
  const WorldState& w = *p.w;
  bool progress = false, only_node_peers = true;
  for (const ReceiveSlot& slot : p.receives) {
    progress |= served_by_world_progress(slot);
    only_node_peers &= !between_nodes(slot);
  }
  for (const SendSlot& slot : p.sends) {
    progress |= served_by_world_progress(slot);
    only_node_peers &= !between_nodes(slot);
  }
  p.needs_world_progress = progress && w.needs_progress;
  p.reaches_mpi = !only_node_peers;
  p.spin_polls = only_node_peers ? w.peer_spin_polls : w.spin_polls;
}

}  // namespace

void commit_plan(PlanState& p) {
  WorldState& w = *p.w;
  const std::string context = "Plan::commit (plan " + std::to_string(p.id) + ")";
  check_mpi(MPI_Comm_dup(w.comm, &p.comm), "MPI_Comm_dup");  // kept: the two-sided path uses it
  check_neighbour_lists(p, context);
  expand_partitions(p, context);
  const std::size_t largest = largest_slot_count(p, context);
  prepare_paths(p, largest, context);
  SlotChoices choices;
  choose(p, choices, context);
  const MessageMemory memory = lay_out_message_memory(p, choices, largest);
  const std::vector<NeighbourDescriptor> peers = exchange_descriptors(p, memory, choices, context);
  throw_if_any(w, p.comm, check_agreement(p, choices, peers), Errc::mismatch, context);
  build_slots(p, memory, choices, peers);
  make_combined_partitions(p);
  order_slots(p);
  make_slot_uses(p);
  choose_wait_policy(p);
  for (const auto& state : p.path_states)
    if (state && state->has_progress()) p.progressing.push_back(state.get());
  p.committed = true;
  // Peers must not post into counters this rank has not finished setting up.
  MPI_Request barrier;
  check_mpi(MPI_Ibarrier(p.comm, &barrier), "MPI_Ibarrier");
  wait_request(w, barrier, context + ": the final barrier");
}

}  // namespace ghostwire::detail
