// SPDX-License-Identifier: BSD-3-Clause
// The two-sided path (two_sided.hpp). Message k uses buffer half k % 2 on both sides and carries a
// trailer with its sequence number, which the receiver checks; the receive of message k + 2 is
// restarted once message k is unpacked, so a buffer is never overwritten early. Messages sent by
// send() ask for an explicit acknowledgement (what test_send/wait_send report); messages sent by
// exchange() do not: their data was packed and MPI's matching protects the buffers, so an exchange
// costs exactly the messages an MPI program would send.
//
// Ghosts that are one run take their message in place when the plan runs by exchange() or
// start()/finish(): the receive (a datatype: the run, then the trailer in a word of its own) is
// started by the call that hands the ghost cells over, and after such a message the buffer receive
// is not posted ahead again. Slots received by test_recv()/wait_recv() keep their buffer receives
// posted ahead, since such callers hand their ghosts over late. Nothing is cancelled.
// docs/plans.md, "Received in place between nodes".
//
// Plans with more message slots than the process's request budget use the same tags and buffers
// without persistent requests: MPI_Isend per message, and on receipt a matched probe for the
// expected message's tag.
#include "halo/paths/two_sided/two_sided.hpp"

#include <cstring>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {
namespace {


// A message received in place: `bytes` at `run`, then the trailer at `trailer` (absolute
// addresses, for a receive at MPI_BOTTOM).
MPI_Datatype in_place_datatype(const std::byte* run, std::size_t bytes, std::byte* trailer) {
  int lengths[2] = {static_cast<int>(bytes), static_cast<int>(sizeof(MessageTrailer))};
  MPI_Aint displacements[2];
  check_mpi(MPI_Get_address(run, &displacements[0]), "MPI_Get_address");
  check_mpi(MPI_Get_address(trailer, &displacements[1]), "MPI_Get_address");
  MPI_Datatype type;
  check_mpi(MPI_Type_create_hindexed(2, lengths, displacements, MPI_BYTE, &type), "MPI_Type_create_hindexed");
  check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
  return type;
}

}  // namespace

TwoSidedReceive::TwoSidedReceive(const SlotBuild& b)
    : state(static_cast<TwoSidedPlanState*>(b.state)) {
  PlanState& p = b.plan;
  TwoSidedReceive& path = *this;
  std::byte* base = b.my_private_memory();
  const std::size_t half = two_sided_half_bytes(b.bytes);
  path.tag = static_cast<int>(message_tags_per_slot * b.slot);
  for (int parity = 0; parity < 2; ++parity) {
    path.buffer[parity] = base + static_cast<std::size_t>(parity) * half;
    path.unpack[parity] = b.unpack_from(path.buffer[parity]);
    if (!state->persistent_requests) continue;
    check_mpi(MPI_Recv_init(path.buffer[parity], message_count(b.bytes), MPI_BYTE, b.rank, path.tag + parity, p.comm,
                            &path.receive_request[parity]),
              "MPI_Recv_init");
    check_mpi(MPI_Start(&path.receive_request[parity]), "MPI_Start");
    path.buffer_posted[parity] = true;
  }
  path.acknowledgement_word = reinterpret_cast<std::uint32_t*>(base + 2 * half);
  if (!state->persistent_requests) return;
  check_mpi(MPI_Send_init(path.acknowledgement_word, 1, MPI_UINT32_T, b.rank, path.tag + 2, p.comm,
                          &path.acknowledgement_request),
            "MPI_Send_init");
  if (const std::byte* run = single_run(b.mine)) {
    // The trailer's own word shares the acknowledgement's line (a line per slot is kept for it).
    path.in_place_trailer = base + 2 * half + sizeof(MessageTrailer);
    path.in_place_run = run;
    path.make_in_place_receives(p, b.rank, b.bytes);
  }
}

void TwoSidedReceive::make_in_place_receives(PlanState& p, int rank, std::size_t bytes) {
  in_place_type = in_place_datatype(in_place_run, bytes, in_place_trailer);
  for (int parity = 0; parity < 2; ++parity)
    check_mpi(MPI_Recv_init(MPI_BOTTOM, 1, in_place_type, rank, tag + parity, p.comm, &in_place_request[parity]),
              "MPI_Recv_init");
}

std::string TwoSidedReceive::cannot_follow(const PlanState&, const ReceiveSlot& slot, const MemoryMove& move) const {
  if (!in_place_posted || !move.contains(in_place_run)) return {};
  return "message " + std::to_string(next_sequence(slot.sequence)) +
         " is being received into the region (a test_recv found it not yet there); wait_recv() before moving memory";
}

void TwoSidedReceive::follow(PlanState& p, ReceiveSlot& slot, const MemoryMove& move) {
  for (CopyProgram& program : unpack) program.follow(move);
  if (in_place_type == MPI_DATATYPE_NULL || !move.contains(in_place_run)) return;
  for (MPI_Request& request : in_place_request) check_mpi(MPI_Request_free(&request), "MPI_Request_free");
  check_mpi(MPI_Type_free(&in_place_type), "MPI_Type_free");
  move.follow(in_place_run);
  make_in_place_receives(p, slot.rank, slot.bytes);
}

void TwoSidedReceive::hand_over(PlanState&, ReceiveSlot& slot) {
  const int parity = parity_of(next_sequence(slot.sequence));
  if (in_place_type == MPI_DATATYPE_NULL || buffer_posted[parity] || in_place_posted) return;
  check_mpi(MPI_Start(&in_place_request[parity]), "MPI_Start");
  in_place_posted = true;
}

std::string TwoSidedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  return "message " + std::to_string(next_sequence(slot.sequence)) + " on " + slot_text(p, slot.channel, slot.rank) +
         " (" + two_sided_description + "; received so far: " + std::to_string(slot.sequence) + ")";
}

bool TwoSidedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  const std::uint32_t expected = next_sequence(slot.sequence);
  const int parity = parity_of(expected);
  if (state->persistent_requests) {
    // Every call that asks for a message has handed the ghost cells over, except finish() without
    // start(): then nothing may be posted yet, and an inactive request would test complete.
    hand_over(p, slot);
    if (!request_complete(in_place_posted ? in_place_request[parity] : receive_request[parity])) return false;
  } else if (!receive_by_probe(p, slot, parity)) {
    return false;
  }
  MessageTrailer trailer;
  std::memcpy(&trailer, in_place_posted ? in_place_trailer : buffer[parity] + slot.bytes, sizeof trailer);
  if (trailer.sequence != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but received sequence number " +
                              std::to_string(trailer.sequence));
  if (trailer.wants_acknowledgement) send_acknowledgement(p, slot, expected);
  if (in_place_posted)
    in_place_posted = false;
  else
    unpack[parity].run();
  slot.sequence = slot.consumed = expected;
  if (!state->persistent_requests) return true;
  // The receive of message expected + 2: in place when it is handed over, or into the buffer now.
  buffer_posted[parity] = !(receipt == Receipt::exchange && in_place_type != MPI_DATATYPE_NULL);
  if (buffer_posted[parity]) check_mpi(MPI_Start(&receive_request[parity]), "MPI_Start");
  return true;
}

bool TwoSidedReceive::receive_by_probe(PlanState& p, ReceiveSlot& slot, int parity) {
  int found = 0;
  MPI_Message message;
  check_mpi(MPI_Improbe(slot.rank, tag + parity, p.comm, &found, &message, MPI_STATUS_IGNORE), "MPI_Improbe");
  if (!found) return false;
  check_mpi(MPI_Mrecv(buffer[parity], message_count(slot.bytes), MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  return true;
}

void TwoSidedReceive::send_acknowledgement(PlanState& p, ReceiveSlot& slot, std::uint32_t sequence) {
  wait_complete(p, acknowledgement_request,
                [&] { return "the previous acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
  *acknowledgement_word = sequence;
  if (state->persistent_requests)
    check_mpi(MPI_Start(&acknowledgement_request), "MPI_Start");
  else
    check_mpi(MPI_Isend(acknowledgement_word, 1, MPI_UINT32_T, slot.rank, tag + 2, p.comm, &acknowledgement_request),
              "MPI_Isend");
}

}  // namespace ghostwire::detail
