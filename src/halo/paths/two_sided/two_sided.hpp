// SPDX-License-Identifier: BSD-3-Clause
// The two-sided path: between nodes, with the default transport, a slot's message is packed into
// half k % 2 of its send buffer and sent as a persistent MPI message into the receiver's double
// buffer, with a trailer carrying its sequence number; ghosts that are one run take it in place when
// the plan runs by exchange(). The types its files share. docs/plans.md, "Between nodes".
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "halo/copy_program.hpp"
#include "halo/mpi_messages.hpp"
#include "halo/path.hpp"
#include "halo/plan_state.hpp"
#include "halo/sequence.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {

// Bytes of a message buffer half: the data and the trailer, rounded to cache lines.
std::size_t two_sided_half_bytes(std::size_t message_bytes);
// Of one slot direction's private memory: both halves and a line for the acknowledgement word.
std::size_t two_sided_slot_bytes(std::size_t message_bytes);

extern const char* const two_sided_description;

inline int message_count(std::size_t bytes) { return static_cast<int>(bytes + sizeof(MessageTrailer)); }

const PathType& two_sided_path();

// The plan's messages: whether they got persistent requests from the process's budget (else each
// message goes with MPI_Isend and is received by matched probe: the same messages on the wire).
struct TwoSidedPlanState final : PathPlanState {
  InterNodeTransport transport;
  bool persistent_requests = false;
  std::size_t reserved_requests = 0;  // returned to the budget when the plan goes

  void before_build(PlanState& p, std::size_t sends, std::size_t receives) override;
  void drain(PlanState& p) override;
  void release(PlanState&) override;
};

class TwoSidedSend final : public SendPath {
 public:
  explicit TwoSidedSend(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how) override;
  bool acknowledged(PlanState& p, SendSlot& slot) override;
  // The send of the message before last, which left from the half the next one needs, is complete.
  bool ready_for_next(PlanState& p, SendSlot& slot) override;
  // Complete locally, as MPI_Waitall would: a rendezvous message only moves while its sender calls MPI.
  bool exchange_done(PlanState& p, SendSlot& slot) override;
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override;
  void release(PlanState& p, SendSlot& slot) override;
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override {
    for (CopyProgram& pack : pack_into) pack.follow(move);
  }

  TwoSidedPlanState* state;
  std::byte* buffer[2] = {nullptr, nullptr};  // message k leaves from half k % 2, trailer after its data
  CopyProgram pack_into[2];
  MPI_Request send_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::uint32_t* acknowledgement_word = nullptr;  // filled by the acknowledgement message
  MPI_Request acknowledgement_request = MPI_REQUEST_NULL;  // its receive
  int tag = 0;                                  // of even messages; odd + 1, acknowledgement + 2
  bool acknowledgement_pending = false;         // its receive is started and not yet complete
  bool last_wants_acknowledgement = false;
  std::uint32_t last_acknowledgement = 0;       // the last acknowledgement received
};

class TwoSidedReceive final : public ReceivePath {
 public:
  explicit TwoSidedReceive(const SlotBuild& build);
  void hand_over(PlanState& p, ReceiveSlot& slot) override;
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override;
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override;
  void release(PlanState& p, ReceiveSlot& slot) override;
  // A receive posted straight into the ghost cells (test_recv found nothing yet) holds their
  // address: it must complete first. Otherwise the in-place receive is made again for the new run.
  std::string cannot_follow(const PlanState& p, const ReceiveSlot& slot, const MemoryMove& move) const override;
  void follow(PlanState& p, ReceiveSlot& slot, const MemoryMove& move) override;

  TwoSidedPlanState* state;
  std::byte* buffer[2] = {nullptr, nullptr};
  CopyProgram unpack[2];
  // Persistent, into buffer k % 2, posted ahead (buffer_posted) unless messages go in place.
  MPI_Request receive_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  bool buffer_posted[2] = {false, false};
  std::uint32_t* acknowledgement_word = nullptr;
  MPI_Request acknowledgement_request = MPI_REQUEST_NULL;  // its send
  int tag = 0;
  // Receive layout one contiguous run (persistent requests only): messages received by exchange()
  // or finish() go straight into it, posted when the ghost cells are handed over.
  MPI_Request in_place_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // by parity, as the tags
  MPI_Datatype in_place_type = MPI_DATATYPE_NULL;  // the run, then the trailer at in_place_trailer
  const std::byte* in_place_run = nullptr;
  std::byte* in_place_trailer = nullptr;
  bool in_place_posted = false;  // the next message's receive into the ghost cells is started

 private:
  bool receive_by_probe(PlanState& p, ReceiveSlot& slot, int parity);  // without persistent requests
  void make_in_place_receives(PlanState& p, int rank, std::size_t bytes);
  void send_acknowledgement(PlanState& p, ReceiveSlot& slot, std::uint32_t sequence);
};

inline std::string slot_text(const PlanState& p, std::size_t channel, int rank) {
  return p.slot_name(channel, rank) + " of plan " + std::to_string(p.id);
}

// `describe` builds the diagnostic only on timeout.
template <class Describe>
void wait_complete(PlanState& p, MPI_Request& request, Describe&& describe) {
  wait_until(*p.w, [&] { return request_complete(request); }, describe);
}

}  // namespace ghostwire::detail
