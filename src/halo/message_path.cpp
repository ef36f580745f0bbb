// The messages path: inter-node slots of a plan when the world's transport is two-sided (p2p).
//
// A notified write over two-sided MPI is a message, so a slot's messages go straight from the
// sender's pack buffer into the receiver's double buffer through persistent requests (posted once,
// restarted per message): message k uses buffer k % 2 on both sides and carries a trailer with its
// sequence number, which the receiver checks. The receive of message k + 2 is restarted once
// message k is unpacked, so a buffer is never overwritten early. Messages sent by send() ask for an
// explicit acknowledgement (test_send/wait_send report it); messages sent by exchange() do not:
// their data was packed, and MPI matching protects the buffers, so the exchange costs exactly the
// messages an MPI program would send.
//
// A receive layout that is one contiguous run (an unstructured mesh's ghosts from one owner, a
// grid's row) takes its message in place when the plan is run by exchange() or start()/finish(),
// as an MPI program posts receives into its ghost cells when its exchange begins: the receive
// (a datatype: the run, then the trailer in a word of its own) is started by the call that hands
// the ghost cells over, and after such a message the buffer receive is not posted ahead again.
// Slots received by test_recv()/wait_recv() keep their buffer receives posted ahead: such callers
// hand the ghost cells over late (CFD-Proxy sends each partner's message during its gradient loop
// and receives after it), and a large (rendezvous) message meeting no posted receive would wait
// for it (receiving those in place cost CFD-Proxy 15-20%). Nothing is cancelled: deciding per
// message with MPI_Cancel measured ~1 us more per exchange over TCP.
//
// Plans with more message slots than the process's request budget (MPICH 4.0 aborts past 262,144
// live requests) use the same tags and buffers without persistent requests: MPI_Isend per message,
// and on receipt a matched probe (MPI_Improbe + MPI_Mrecv) for the expected message's tag.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

bool complete(MPI_Request& request) {
  int done = 0;
  check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");  // inactive requests test true
  return done != 0;
}

// `describe` builds the diagnostic only on timeout.
template <class Describe>
void wait_complete(PlanState& p, MPI_Request& request, Describe&& describe) {
  wait_until(*p.w, [&] { return complete(request); }, describe);
}

std::string slot_text(const PlanState& p, std::size_t channel, int rank) {
  return p.slot_name(channel, rank) + " of plan " + std::to_string(p.id);
}

// Well under MPICH's table, leaving room for the application's own requests.
constexpr std::size_t persistent_request_budget = 96 * 1024;
std::atomic<std::size_t> persistent_requests_in_use{0};

}  // namespace

bool reserve_persistent_requests(std::size_t count) {
  std::size_t used = persistent_requests_in_use.load();
  do {
    if (used + count > persistent_request_budget) return false;
  } while (!persistent_requests_in_use.compare_exchange_weak(used, used + count));
  return true;
}

void return_persistent_requests(std::size_t count) { persistent_requests_in_use -= count; }

bool message_buffer_free(PlanState&, SendSlot& slot, std::uint32_t sequence) {
  return complete(slot.send_request[sequence & 1u]);
}

void post_message(PlanState& p, SendSlot& slot, bool wants_acknowledgement) {
  std::uint32_t next = next_sequence(slot.sequence);
  int parity = static_cast<int>(next & 1u);
  // Message next - 2 left from this buffer; its send must be complete before the buffer is reused.
  wait_complete(p, slot.send_request[parity], [&] {
    return "the local completion of message " + std::to_string(next - 2) + " on " + slot_text(p, slot.channel, slot.rank);
  });
  slot.pack_into[parity].run();
  MessageTrailer trailer{next, wants_acknowledgement ? 1u : 0u};
  std::memcpy(slot.buffer[parity] + slot.bytes, &trailer, sizeof trailer);
  if (wants_acknowledgement) {
    if (slot.ack_pending)
      wait_complete(p, slot.ack_request, [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    if (p.persistent_requests)
      check_mpi(MPI_Start(&slot.ack_request), "MPI_Start");
    else
      check_mpi(MPI_Irecv(slot.ack_word, 1, MPI_UINT32_T, slot.rank, slot.tag + 2, p.comm, &slot.ack_request),
                "MPI_Irecv");
    slot.ack_pending = true;
  }
  if (p.persistent_requests)
    check_mpi(MPI_Start(&slot.send_request[parity]), "MPI_Start");
  else
    check_mpi(MPI_Isend(slot.buffer[parity], static_cast<int>(slot.bytes + sizeof(MessageTrailer)), MPI_BYTE,
                        slot.rank, slot.tag + parity, p.comm, &slot.send_request[parity]),
              "MPI_Isend");
  slot.sequence = next;
  slot.last_wants_ack = wants_acknowledgement;
}

bool message_acknowledged(PlanState&, SendSlot& slot) {
  if (slot.sequence == 0) return true;
  if (!slot.last_wants_ack) return complete(slot.send_request[slot.sequence & 1u]);
  if (slot.ack_pending && complete(slot.ack_request)) {
    slot.ack_pending = false;
    slot.acknowledged = *slot.ack_word;
  }
  return slot.acknowledged == slot.sequence;
}

void hand_over_ghosts(PlanState&, ReceiveSlot& slot) {
  const int parity = static_cast<int>(next_sequence(slot.sequence) & 1u);
  if (slot.in_place_type == MPI_DATATYPE_NULL || slot.buffer_posted[parity] || slot.in_place_posted) return;
  check_mpi(MPI_Start(&slot.in_place_request[parity]), "MPI_Start");
  slot.in_place_posted = true;
}

bool try_receive_message(PlanState& p, ReceiveSlot& slot, bool by_exchange) {
  std::uint32_t expected = next_sequence(slot.sequence);
  int parity = static_cast<int>(expected & 1u);
  if (p.persistent_requests) {
    // Every call that asks for a message has handed the ghost cells over, except finish() without
    // start(): then nothing may be posted yet, and an inactive request would test complete.
    hand_over_ghosts(p, slot);
    if (!complete(slot.in_place_posted ? slot.in_place_request[parity] : slot.receive_request[parity])) return false;
  } else {
    int found = 0;
    MPI_Message message;
    check_mpi(MPI_Improbe(slot.rank, slot.tag + parity, p.comm, &found, &message, MPI_STATUS_IGNORE), "MPI_Improbe");
    if (!found) return false;
    check_mpi(MPI_Mrecv(slot.buffer[parity], static_cast<int>(slot.bytes + sizeof(MessageTrailer)), MPI_BYTE, &message,
                        MPI_STATUS_IGNORE),
              "MPI_Mrecv");
  }
  const bool in_place = slot.in_place_posted;
  MessageTrailer trailer;
  std::memcpy(&trailer, in_place ? slot.in_place_trailer : slot.buffer[parity] + slot.bytes, sizeof trailer);
  if (trailer.sequence != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but received sequence number " +
                              std::to_string(trailer.sequence));
  if (trailer.wants_acknowledgement) {
    wait_complete(p, slot.ack_request,
                  [&] { return "the previous acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    *slot.ack_word = expected;
    if (p.persistent_requests)
      check_mpi(MPI_Start(&slot.ack_request), "MPI_Start");
    else
      check_mpi(MPI_Isend(slot.ack_word, 1, MPI_UINT32_T, slot.rank, slot.tag + 2, p.comm, &slot.ack_request),
                "MPI_Isend");
  }
  if (in_place)
    slot.in_place_posted = false;
  else
    slot.unpack[parity].run();
  slot.sequence = expected;
  if (!p.persistent_requests) return true;
  // The receive of message expected + 2: in place when it is handed over, or into the buffer now.
  slot.buffer_posted[parity] = !(by_exchange && slot.in_place_type != MPI_DATATYPE_NULL);
  if (slot.buffer_posted[parity]) check_mpi(MPI_Start(&slot.receive_request[parity]), "MPI_Start");
  return true;
}

namespace {

// Without persistent receives, a message nobody will receive now (the plan is going) stays
// unmatched, and a rendezvous send of it would never complete: take such messages and drop them.
// Everything on the plan's communicator that no posted receive takes is such a message.
void drop_unreceived_messages(PlanState& p) {
  if (p.persistent_requests) return;
  for (;;) {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    check_mpi(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, p.comm, &found, &message, &status), "MPI_Improbe");
    if (!found) return;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<std::byte> dropped(static_cast<std::size_t>(std::max(count, 1)));
    check_mpi(MPI_Mrecv(dropped.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  }
}

}  // namespace

// Collective (plans are destroyed together): finish this rank's sends, wait for everybody, then
// cancel the receives still posted for messages that will never come.
void release_messages(PlanState& p) {
  if (p.comm == MPI_COMM_NULL) return;
  try {
    for (SendSlot& slot : p.sends) {
      if (slot.path != SlotPath::messages) continue;
      for (MPI_Request& request : slot.send_request)
        wait_until(
            *p.w, [&] { drop_unreceived_messages(p); return complete(request); },
            [&] {
              return "the delivery of a message on " + slot_text(p, slot.channel, slot.rank) +
                     " while destroying the plan (was it received?)";
            });
    }
    for (ReceiveSlot& slot : p.receives)
      if (slot.path == SlotPath::messages)
        wait_complete(p, slot.ack_request, [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    MPI_Request barrier;
    check_mpi(MPI_Ibarrier(p.comm, &barrier), "MPI_Ibarrier");
    wait_until(
        *p.w, [&] { drop_unreceived_messages(p); return complete(barrier); },
        [&] { return "all ranks to destroy plan " + std::to_string(p.id); });
  } catch (const std::exception&) {
    // A destructor must not throw; the timeout diagnostic has been printed.
  }
  // Completed non-persistent requests are already MPI_REQUEST_NULL.
  auto discard = [](MPI_Request& request, bool may_be_started) {
    if (request == MPI_REQUEST_NULL) return;
    if (may_be_started) {
      MPI_Cancel(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
  };
  for (SendSlot& slot : p.sends) {
    for (MPI_Request& request : slot.send_request) discard(request, false);
    discard(slot.ack_request, slot.ack_pending);
  }
  for (ReceiveSlot& slot : p.receives) {
    const int next_parity = static_cast<int>(next_sequence(slot.sequence) & 1u);
    for (int parity = 0; parity < 2; ++parity) {
      discard(slot.receive_request[parity], slot.buffer_posted[parity]);
      discard(slot.in_place_request[parity], slot.in_place_posted && parity == next_parity);
    }
    discard(slot.ack_request, false);
    if (slot.in_place_type != MPI_DATATYPE_NULL) MPI_Type_free(&slot.in_place_type);
  }
  return_persistent_requests(p.reserved_requests);
  p.reserved_requests = 0;
}

PlanState::~PlanState() {
  // The user finalised MPI first: no request or communicator may be touched (the segment's own
  // destructor skips its windows likewise).
  if (mpi_finalized()) return;
  forget_pushes(*this);  // first: the waits below must not write into peers for a plan that is going
  if (w && w->broken) return;  // cancelling and freeing could wait for a dead peer (WorldState::broken)
  release_messages(*this);
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

}  // namespace ghostwire::detail
