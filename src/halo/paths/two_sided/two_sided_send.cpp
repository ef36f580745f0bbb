// SPDX-License-Identifier: BSD-3-Clause
// The two-sided path's sending side (two_sided.hpp; the protocol: two_sided_receive.cpp).
#include "halo/paths/two_sided/two_sided.hpp"

#include <cstring>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {

TwoSidedSend::TwoSidedSend(const SlotBuild& b)
    : state(static_cast<TwoSidedPlanState*>(b.state)) {
  PlanState& p = b.plan;
  TwoSidedSend& path = *this;
  std::byte* base = b.my_private_memory();
  const std::size_t half = two_sided_half_bytes(b.bytes);
  path.tag = static_cast<int>(message_tags_per_slot * b.peer_slot);
  for (int parity = 0; parity < 2; ++parity) {
    path.buffer[parity] = base + static_cast<std::size_t>(parity) * half;
    path.pack_into[parity] = b.pack_into(path.buffer[parity]);
    if (state->persistent_requests)
      check_mpi(MPI_Send_init(path.buffer[parity], message_count(b.bytes), MPI_BYTE, b.rank, path.tag + parity, p.comm,
                              &path.send_request[parity]),
                "MPI_Send_init");
  }
  path.acknowledgement_word = reinterpret_cast<std::uint32_t*>(base + 2 * half);
  if (state->persistent_requests)
    check_mpi(MPI_Recv_init(path.acknowledgement_word, 1, MPI_UINT32_T, b.rank, path.tag + 2, p.comm,
                            &path.acknowledgement_request),
              "MPI_Recv_init");
}

void TwoSidedSend::post(PlanState& p, SendSlot& slot, Post how) {
  // With acknowledge_by_reply no acknowledgement message is asked for: the slot is free again once
  // MPI has the message, as in exchange() (the reply needs no second message either).
  const bool wants_acknowledgement = how == Post::by_send && !p.acknowledge_by_reply;
  const std::uint32_t next = next_sequence(slot.sequence);
  const int parity = parity_of(next);
  // Message next - 2 left from this buffer; its send must be complete before the buffer is reused.
  wait_complete(p, send_request[parity], [&] {
    return "the local completion of message " + std::to_string(next - 2) + " on " + slot_text(p, slot.channel, slot.rank);
  });
  pack_into[parity].run();
  const MessageTrailer trailer{next, wants_acknowledgement ? 1u : 0u};
  std::memcpy(buffer[parity] + slot.bytes, &trailer, sizeof trailer);
  if (wants_acknowledgement) {
    if (acknowledgement_pending)
      wait_complete(p, acknowledgement_request,
                    [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    if (state->persistent_requests)
      check_mpi(MPI_Start(&acknowledgement_request), "MPI_Start");
    else
      check_mpi(MPI_Irecv(acknowledgement_word, 1, MPI_UINT32_T, slot.rank, tag + 2, p.comm, &acknowledgement_request),
                "MPI_Irecv");
    acknowledgement_pending = true;
  }
  if (state->persistent_requests)
    check_mpi(MPI_Start(&send_request[parity]), "MPI_Start");
  else
    check_mpi(MPI_Isend(buffer[parity], message_count(slot.bytes), MPI_BYTE, slot.rank, tag + parity, p.comm,
                        &send_request[parity]),
              "MPI_Isend");
  slot.sequence = next;
  last_wants_acknowledgement = wants_acknowledgement;
}

bool TwoSidedSend::acknowledged(PlanState&, SendSlot& slot) {
  if (slot.sequence == 0) return true;
  if (!last_wants_acknowledgement) return request_complete(send_request[parity_of(slot.sequence)]);
  if (acknowledgement_pending && request_complete(acknowledgement_request)) {
    acknowledgement_pending = false;
    last_acknowledgement = *acknowledgement_word;
  }
  return last_acknowledgement == slot.sequence;
}

bool TwoSidedSend::ready_for_next(PlanState&, SendSlot& slot) {
  return request_complete(send_request[parity_of(next_sequence(slot.sequence))]);
}

bool TwoSidedSend::exchange_done(PlanState&, SendSlot& slot) { return request_complete(send_request[parity_of(slot.sequence)]); }

std::string TwoSidedSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  return "the acknowledgement of message " + std::to_string(slot.sequence) + " on " +
         slot_text(p, slot.channel, slot.rank) + " (" + two_sided_description +
         "; last acknowledgement seen: " + std::to_string(last_acknowledgement) + ", acknowledgement asked for: " +
         (last_wants_acknowledgement ? "yes" : "no, waiting for the send to complete") + ")";
}

}  // namespace ghostwire::detail
