// SPDX-License-Identifier: BSD-3-Clause
// The two-sided path: between nodes, with the default transport, a slot's message is packed into
// half k % 2 of its send buffer and sent as a persistent MPI message into the receiver's double
// buffer, with a trailer carrying its sequence number; ghosts that are one run take it in place when
// the plan runs by exchange(). docs/plans.md, "Between nodes".
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "halo/copy_program.hpp"
#include "halo/paths/path_defaults.hpp"
#include "halo/slot_path.hpp"

namespace ghostwire::detail {

struct SlotBuild;

// After the data of every message on the two-sided path.
struct MessageTrailer {
  std::uint32_t sequence;
  std::uint32_t wants_acknowledgement;
};
inline constexpr int message_tags_per_slot = 3;  // data of even and odd messages, acknowledgement

// Bytes of a two-sided message buffer half: the data and the trailer, rounded to cache lines.
std::size_t two_sided_half_bytes(std::size_t message_bytes);
// Of one slot's message memory: both halves and a line for the acknowledgement word.
std::size_t two_sided_slot_bytes(std::size_t message_bytes);

struct TwoSidedSend : SendPathDefaults {
  static constexpr SlotPath kind = SlotPath::two_sided;
  static constexpr bool between_nodes = true;
  std::byte* buffer[2] = {nullptr, nullptr};  // message k leaves from half k % 2, trailer after its data
  CopyProgram pack_into[2];
  MPI_Request send_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::uint32_t* acknowledgement_word = nullptr;  // filled by the acknowledgement message
  MPI_Request acknowledgement_request = MPI_REQUEST_NULL;  // its receive
  int tag = 0;                                  // of even messages; odd + 1, acknowledgement + 2
  bool acknowledgement_pending = false;         // its receive is started and not yet complete
  bool last_wants_acknowledgement = false;
  std::uint32_t last_acknowledgement = 0;       // the last acknowledgement received

  static TwoSidedSend build(const SlotBuild& build);
  void post(PlanState& p, SendSlot& slot, Post how);
  bool acknowledged(PlanState& p, SendSlot& slot);
  // The send of the message before last, which left from the half the next one needs, is complete.
  bool ready_for_next(PlanState& p, SendSlot& slot);
  // Complete locally, as MPI_Waitall would: a rendezvous message only moves while its sender calls MPI.
  bool exchange_done(PlanState& p, SendSlot& slot);
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const;
  void release(PlanState& p, SendSlot& slot);
};

struct TwoSidedReceive : ReceivePathDefaults {
  static constexpr SlotPath kind = SlotPath::two_sided;
  static constexpr bool between_nodes = true;
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
  std::byte* in_place_trailer = nullptr;
  bool in_place_posted = false;  // the next message's receive into the ghost cells is started

  static TwoSidedReceive build(const SlotBuild& build);
  void hand_over(PlanState& p, ReceiveSlot& slot);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const;
  void release(PlanState& p, ReceiveSlot& slot);

 private:
  bool receive_by_probe(PlanState& p, ReceiveSlot& slot, int parity);  // without persistent requests
  void send_acknowledgement(PlanState& p, ReceiveSlot& slot, std::uint32_t sequence);
};

// Takes `count` persistent requests from the process-wide budget; false (nothing taken) if short.
bool reserve_persistent_requests(std::size_t count);
void return_persistent_requests(std::size_t count);
// Takes every message waiting on `comm` that no posted receive matches and drops it, so that its
// send completes (a plan being destroyed receives nothing more).
void drop_unreceived_messages(MPI_Comm comm);
// Collective, before the plan's slots are released: every message of this rank delivered, every
// rank there (messages nobody will receive are taken and dropped meanwhile).
void drain_two_sided(PlanState& p);

}  // namespace ghostwire::detail
