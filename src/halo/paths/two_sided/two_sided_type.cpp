// SPDX-License-Identifier: BSD-3-Clause
// The two-sided path's type and plan-wide state (two_sided.hpp): when it applies (between nodes,
// with the default transport, when the largest plan's tags fit), its memory, its persistent
// requests and the drain as the plan goes.
#include <algorithm>
#include <climits>

#include "halo/commit/slot_build.hpp"
#include "halo/paths/two_sided/two_sided.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"

namespace ghostwire::detail {

const char* const two_sided_description = "inter-node, two-sided message (persistent MPI send and receive)";

namespace {

constexpr std::size_t line = 64;

// Without persistent receives, a message nobody will receive now (the plan is going) stays
// unmatched, and a rendezvous send of it would never complete: take such messages and drop them.
// Everything on the plan's communicator that no posted receive takes is such a message.
void drop_messages_without_receive(PlanState& p, const TwoSidedPlanState& state) {
  if (!state.persistent_requests) drop_unreceived_messages(p.comm);
}

// Completed non-persistent requests are already MPI_REQUEST_NULL. Runs in a destructor: nothing
// here may throw, so MPI's return codes are not turned into errors.
void discard(MPI_Request& request, bool may_be_started) {
  if (request == MPI_REQUEST_NULL) return;
  if (may_be_started) {
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
}

class TwoSidedType final : public PathType {
 public:
  const char* name() const override { return "two-sided"; }
  const char* description() const override { return two_sided_description; }
  bool between_nodes() const override { return true; }
  bool receiver_prepares() const override { return true; }
  std::unique_ptr<PathPlanState> prepare(PlanState& p, std::size_t largest, const std::string&) const override {
    auto state = std::make_unique<TwoSidedPlanState>();
    state->transport = inter_node_transport(p, largest);
    return state;
  }
  bool offers(const SlotSide&, Choice, const PathPlanState* state) const override {
    return static_cast<const TwoSidedPlanState*>(state)->transport.messages;
  }
  // One MPI message carries at most INT_MAX bytes (its count is an int).
  std::string refuse(const SlotSide& side) const override {
    if (side.bytes <= static_cast<std::size_t>(INT_MAX) - sizeof(MessageTrailer)) return {};
    return "a message of " + std::to_string(side.bytes) +
           " bytes between nodes exceeds the INT_MAX bytes one MPI message carries (with its " +
           std::to_string(sizeof(MessageTrailer)) + "-byte trailer); split it over several channels";
  }
  SlotMemory memory(const SlotSide& side) const override { return {0, two_sided_slot_bytes(side.bytes)}; }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override { return std::make_unique<TwoSidedSend>(b); }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<TwoSidedReceive>(b);
  }
};

}  // namespace

std::size_t two_sided_half_bytes(std::size_t message_bytes) {
  return round_up(message_bytes + sizeof(MessageTrailer), line);
}
std::size_t two_sided_slot_bytes(std::size_t message_bytes) { return 2 * two_sided_half_bytes(message_bytes) + line; }

// Three persistent requests per slot direction, two more per receive for receiving in place; an MPI
// has a finite request table, so plans with very many slots post each message on demand instead.
void TwoSidedPlanState::before_build(PlanState&, std::size_t send_count, std::size_t receive_count) {
  const std::size_t directions = send_count + receive_count, requests = 3 * directions + 2 * receive_count;
  persistent_requests = directions != 0 && reserve_persistent_requests(requests);
  if (persistent_requests) reserved_requests = requests;
}

// Collective, before the plan's slots are released: every message of this rank delivered, every
// rank there (messages nobody will receive are taken and dropped meanwhile).
void TwoSidedPlanState::drain(PlanState& p) {
  for (SendSlot& slot : p.sends) {
    if (slot.type != &two_sided_path()) continue;
    for (MPI_Request& request : static_cast<TwoSidedSend&>(*slot.path).send_request)
      wait_until(
          *p.w, [&] { drop_messages_without_receive(p, *this); return request_complete(request); },
          [&] {
            return "the delivery of a message on " + slot_text(p, slot.channel, slot.rank) +
                   " while destroying the plan (was it received?)";
          });
  }
  for (ReceiveSlot& slot : p.receives)
    if (slot.type == &two_sided_path())
      wait_complete(p, static_cast<TwoSidedReceive&>(*slot.path).acknowledgement_request,
                    [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
  MPI_Request barrier;
  check_mpi(MPI_Ibarrier(p.comm, &barrier), "MPI_Ibarrier");
  wait_until(
      *p.w, [&] { drop_messages_without_receive(p, *this); return request_complete(barrier); },
      [&] { return "all ranks to destroy plan " + std::to_string(p.id); });
}

void TwoSidedPlanState::release(PlanState&) {
  return_persistent_requests(reserved_requests);
  reserved_requests = 0;
}

void TwoSidedSend::release(PlanState&, SendSlot&) {
  for (MPI_Request& request : send_request) discard(request, false);
  discard(acknowledgement_request, acknowledgement_pending);
}

void TwoSidedReceive::release(PlanState&, ReceiveSlot& slot) {
  const int next_parity = parity_of(next_sequence(slot.sequence));
  for (int parity = 0; parity < 2; ++parity) {
    discard(receive_request[parity], buffer_posted[parity]);
    discard(in_place_request[parity], in_place_posted && parity == next_parity);
  }
  discard(acknowledgement_request, false);
  if (in_place_type != MPI_DATATYPE_NULL) MPI_Type_free(&in_place_type);
}

const PathType& two_sided_path() {
  static const TwoSidedType type;
  return type;
}

}  // namespace ghostwire::detail
