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
#include <cstring>
#include <string>

#include "collective.hpp"
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

}  // namespace

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
    check_mpi(MPI_Start(&slot.ack_request), "MPI_Start");
    slot.ack_pending = true;
  }
  check_mpi(MPI_Start(&slot.send_request[parity]), "MPI_Start");
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

bool try_receive_message(PlanState& p, ReceiveSlot& slot) {
  std::uint32_t expected = next_sequence(slot.sequence);
  int parity = static_cast<int>(expected & 1u);
  if (!complete(slot.receive_request[parity])) return false;
  MessageTrailer trailer;
  std::memcpy(&trailer, slot.buffer[parity] + slot.bytes, sizeof trailer);
  if (trailer.sequence != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but received sequence number " +
                              std::to_string(trailer.sequence));
  if (trailer.wants_acknowledgement) {
    wait_complete(p, slot.ack_request,
                  [&] { return "the previous acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    *slot.ack_word = expected;
    check_mpi(MPI_Start(&slot.ack_request), "MPI_Start");
  }
  slot.unpack[parity].run();
  slot.sequence = expected;
  check_mpi(MPI_Start(&slot.receive_request[parity]), "MPI_Start");  // for message expected + 2
  return true;
}

// Collective (plans are destroyed together): finish this rank's sends, wait for everybody, then
// cancel the receives still posted for messages that will never come.
void release_messages(PlanState& p) {
  if (p.comm == MPI_COMM_NULL) return;
  try {
    for (SendSlot& slot : p.sends) {
      if (slot.path != SlotPath::messages) continue;
      for (MPI_Request& request : slot.send_request)
        wait_complete(p, request, [&] {
          return "the delivery of a message on " + slot_text(p, slot.channel, slot.rank) +
                 " while destroying the plan (was it received?)";
        });
    }
    for (ReceiveSlot& slot : p.receives)
      if (slot.path == SlotPath::messages)
        wait_complete(p, slot.ack_request, [&] { return "an acknowledgement on " + slot_text(p, slot.channel, slot.rank); });
    MPI_Request barrier;
    check_mpi(MPI_Ibarrier(p.comm, &barrier), "MPI_Ibarrier");
    wait_request(*p.w, barrier, "all ranks to destroy plan " + std::to_string(p.id));
  } catch (const std::exception&) {
    // A destructor must not throw; the timeout diagnostic has been printed.
  }
  auto discard = [](MPI_Request& request, bool may_be_started) {
    if (request == MPI_REQUEST_NULL) return;
    if (may_be_started) {
      MPI_Cancel(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
  };
  for (SendSlot& slot : p.sends) {
    for (MPI_Request& request : slot.send_request) discard(request, false);
    discard(slot.ack_request, slot.ack_pending);
  }
  for (ReceiveSlot& slot : p.receives) {
    for (MPI_Request& request : slot.receive_request) discard(request, true);
    discard(slot.ack_request, false);
  }
}

PlanState::~PlanState() {
  release_messages(*this);
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

}  // namespace ghostwire::detail
