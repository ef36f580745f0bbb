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
#include "halo/paths/two_sided.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::size_t line = 64;

std::string slot_text(const PlanState& p, const std::size_t channel, int rank) {
  return p.slot_name(channel, rank) + " of plan " + std::to_string(p.id);
}

// `describe` builds the diagnostic only on timeout.
template <class Describe>
void wait_complete(PlanState& p, MPI_Request& request, Describe&& describe) {
  wait_until(*p.w, [&] { return request_complete(request); }, describe);
}

int message_count(std::size_t bytes) { return static_cast<int>(bytes + sizeof(MessageTrailer)); }

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

std::size_t two_sided_half_bytes(std::size_t message_bytes) {
  return round_up(message_bytes + sizeof(MessageTrailer), line);
}
std::size_t two_sided_slot_bytes(std::size_t message_bytes) { return 2 * two_sided_half_bytes(message_bytes) + line; }

TwoSidedSend TwoSidedSend::build(const SlotBuild& b) {
  PlanState& p = b.plan;
  TwoSidedSend path;
  std::byte* base = b.two_sided_memory();
  const std::size_t half = two_sided_half_bytes(b.bytes);
  path.tag = static_cast<int>(message_tags_per_slot * b.peer_slot);
  for (int parity = 0; parity < 2; ++parity) {
    path.buffer[parity] = base + static_cast<std::size_t>(parity) * half;
    path.pack_into[parity] = b.pack_into(path.buffer[parity]);
    if (p.persistent_requests)
      check_mpi(MPI_Send_init(path.buffer[parity], message_count(b.bytes), MPI_BYTE, b.rank, path.tag + parity, p.comm,
                              &path.send_request[parity]),
                "MPI_Send_init");
  }
  path.acknowledgement_word = reinterpret_cast<std::uint32_t*>(base + 2 * half);
  if (p.persistent_requests)
    check_mpi(MPI_Recv_init(path.acknowledgement_word, 1, MPI_UINT32_T, b.rank, path.tag + 2, p.comm,
                            &path.acknowledgement_request),
              "MPI_Recv_init");
  return path;
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
    if (p.persistent_requests)
      check_mpi(MPI_Start(&acknowledgement_request), "MPI_Start");
    else
      check_mpi(MPI_Irecv(acknowledgement_word, 1, MPI_UINT32_T, slot.rank, tag + 2, p.comm, &acknowledgement_request),
                "MPI_Irecv");
    acknowledgement_pending = true;
  }
  if (p.persistent_requests)
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
         slot_text(p, slot.channel, slot.rank) + " (" + path_name(kind) +
         "; last acknowledgement seen: " + std::to_string(last_acknowledgement) + ", acknowledgement asked for: " +
         (last_wants_acknowledgement ? "yes" : "no, waiting for the send to complete") + ")";
}

TwoSidedReceive TwoSidedReceive::build(const SlotBuild& b) {
  PlanState& p = b.plan;
  TwoSidedReceive path;
  std::byte* base = b.two_sided_memory();
  const std::size_t half = two_sided_half_bytes(b.bytes);
  path.tag = static_cast<int>(message_tags_per_slot * b.slot);
  for (int parity = 0; parity < 2; ++parity) {
    path.buffer[parity] = base + static_cast<std::size_t>(parity) * half;
    path.unpack[parity] = b.unpack_from(path.buffer[parity]);
    if (!p.persistent_requests) continue;
    check_mpi(MPI_Recv_init(path.buffer[parity], message_count(b.bytes), MPI_BYTE, b.rank, path.tag + parity, p.comm,
                            &path.receive_request[parity]),
              "MPI_Recv_init");
    check_mpi(MPI_Start(&path.receive_request[parity]), "MPI_Start");
    path.buffer_posted[parity] = true;
  }
  path.acknowledgement_word = reinterpret_cast<std::uint32_t*>(base + 2 * half);
  if (!p.persistent_requests) return path;
  check_mpi(MPI_Send_init(path.acknowledgement_word, 1, MPI_UINT32_T, b.rank, path.tag + 2, p.comm,
                          &path.acknowledgement_request),
            "MPI_Send_init");
  if (const std::byte* run = single_run(b.mine)) {
    // The trailer's own word shares the acknowledgement's line (a line per slot is kept for it).
    path.in_place_trailer = base + 2 * half + sizeof(MessageTrailer);
    path.in_place_type = in_place_datatype(run, b.bytes, path.in_place_trailer);
    for (int parity = 0; parity < 2; ++parity)
      check_mpi(MPI_Recv_init(MPI_BOTTOM, 1, path.in_place_type, b.rank, path.tag + parity, p.comm,
                              &path.in_place_request[parity]),
                "MPI_Recv_init");
  }
  return path;
}

void TwoSidedReceive::hand_over(PlanState&, ReceiveSlot& slot) {
  const int parity = parity_of(next_sequence(slot.sequence));
  if (in_place_type == MPI_DATATYPE_NULL || buffer_posted[parity] || in_place_posted) return;
  check_mpi(MPI_Start(&in_place_request[parity]), "MPI_Start");
  in_place_posted = true;
}

std::string TwoSidedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  return "message " + std::to_string(next_sequence(slot.sequence)) + " on " + slot_text(p, slot.channel, slot.rank) +
         " (" + path_name(kind) + "; received so far: " + std::to_string(slot.sequence) + ")";
}

bool TwoSidedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  const std::uint32_t expected = next_sequence(slot.sequence);
  const int parity = parity_of(expected);
  if (p.persistent_requests) {
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
  if (!p.persistent_requests) return true;
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
  if (p.persistent_requests)
    check_mpi(MPI_Start(&acknowledgement_request), "MPI_Start");
  else
    check_mpi(MPI_Isend(acknowledgement_word, 1, MPI_UINT32_T, slot.rank, tag + 2, p.comm, &acknowledgement_request),
              "MPI_Isend");
}

namespace {

// Well under MPICH's request table (it aborts past 262,144 live requests), leaving room for the
// application's own requests.
constexpr std::size_t persistent_request_budget = 96 * 1024;
std::atomic<std::size_t> persistent_requests_in_use{0};

}  // namespace

void drop_unreceived_messages(MPI_Comm comm) {
  for (;;) {
    int found = 0, count = 0;
    MPI_Message message;
    MPI_Status status;
    check_mpi(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, &message, &status), "MPI_Improbe");
    if (!found) return;
    check_mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::vector<std::byte> dropped(static_cast<std::size_t>(std::max(count, 1)));
    check_mpi(MPI_Mrecv(dropped.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  }
}

namespace {

// Without persistent receives, a message nobody will receive now (the plan is going) stays
// unmatched, and a rendezvous send of it would never complete: take such messages and drop them.
// Everything on the plan's communicator that no posted receive takes is such a message.
void drop_messages_without_receive(PlanState& p) {
  if (!p.persistent_requests) drop_unreceived_messages(p.comm);
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

}  // namespace

bool reserve_persistent_requests(std::size_t count) {
  std::size_t used = persistent_requests_in_use.load();
  do {
    if (used + count > persistent_request_budget) return false;
  } while (!persistent_requests_in_use.compare_exchange_weak(used, used + count));
  return true;
}

void return_persistent_requests(std::size_t count) { persistent_requests_in_use -= count; }

void drain_two_sided(PlanState& p) {
  for (SendSlot& slot : p.sends) {
    auto* path = std::get_if<TwoSidedSend>(&slot.path);
    if (path == nullptr) continue;
    for (MPI_Request& request : path->send_request)
      wait_until(
          *p.w, [&] { drop_messages_without_receive(p); return request_complete(request); },
          [&] {
            return "the delivery of a message on " + slot_text(p, slot.channel, slot.rank) +
                   " while destroying the plan (was it received?)";
          });
  }
  for (ReceiveSlot& slot : p.receives)
    if (auto* path = std::get_if<TwoSidedReceive>(&slot.path))
      wait_complete(p, path->acknowledgement_request,
                    [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
  MPI_Request barrier;
  check_mpi(MPI_Ibarrier(p.comm, &barrier), "MPI_Ibarrier");
  wait_until(
      *p.w, [&] { drop_messages_without_receive(p); return request_complete(barrier); },
      [&] { return "all ranks to destroy plan " + std::to_string(p.id); });
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

}  // namespace ghostwire::detail
