// SPDX-License-Identifier: BSD-3-Clause
// What a Plan holds: the user's description (regions, pieces per slot) and, after commit, one
// record per slot in use (slot.hpp) with its path, and the memory and MPI objects the paths share.
// docs/plans.md, "How a plan works inside".
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ghostwire/layout.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"
#include "halo/slot.hpp"

namespace ghostwire::detail {

struct WorldState;

struct RegionSpec {
  int segment = -1;              // the Segment's id; -1: private memory
  std::size_t offset_bytes = 0;  // within the segment's data
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  std::size_t element_size = 1;
};

struct PieceSpec {
  int region;
  Layout layout;
};

struct PlanState {
  PlanState() = default;
  ~PlanState();  // releases the paths' MPI objects (collective once committed)
  PlanState(const PlanState&) = delete;
  PlanState& operator=(const PlanState&) = delete;

  World* world = nullptr;
  WorldState* w = nullptr;
  int id = 0;
  std::vector<int> neighbours;
  std::vector<int> neighbour_index;  // by rank, -1 if not a neighbour
  std::size_t channels = 1;
  std::vector<RegionSpec> regions;
  std::vector<std::vector<PieceSpec>> send_pieces, receive_pieces;  // by slot = n * channels + c

  bool committed = false;
  bool acknowledge_by_reply = false;
  // Below MPI_THREAD_MULTIPLE one plan may serve one thread at a time: every communicating call
  // holds `in_use` (an ExclusiveUse in plan_calls.cpp), and a second thread arriving meanwhile gets
  // Errc::state instead of racing on the slots' counters. With MPI_THREAD_MULTIPLE the check is off.
  bool single_thread_use = true;
  std::atomic<bool> in_use{false};

  // Made at commit.
  MPI_Comm comm = MPI_COMM_NULL;     // the plan's own communicator (commit, two-sided messages)
  std::unique_ptr<Segment> segment;  // counters, staging, notified-write receive buffers
  std::vector<std::byte> pack_buffer;  // notified writes leave from here
  SlotPath inter_node_path = SlotPath::two_sided;  // the same on every rank
  std::string inter_node_reason;                   // why, for describe()
  // Two-sided messages: their buffers (allocated once, so persistent requests can point into them)
  // and whether the plan got persistent requests from the process's budget (else it sends each
  // message with MPI_Isend and receives by matched probe: the same messages on the wire).
  std::vector<std::byte> message_memory;
  bool persistent_requests = false;
  std::size_t reserved_requests = 0;  // returned to the budget when the plan goes
  // Waits must serve the world's transport (notified writes); the two-sided path is served by its
  // own MPI_Test calls.
  bool needs_world_progress = false;
  // Polls before a wait yields: the world's peer budget when every slot is a node peer's.
  std::uint64_t spin_polls = 1;

  std::vector<std::int32_t> send_slot_of, receive_slot_of;  // slot -> index into the vectors below
  std::vector<SendSlot> sends;
  std::vector<ReceiveSlot> receives;
  // In the order start() and finish() take them (commit's order_slots).
  std::vector<std::vector<std::int32_t>> sends_of_channel, receives_of_channel;
  std::vector<std::int32_t> all_sends, all_receives;
  std::vector<std::int32_t> pending;      // scratch for finish()
  std::vector<std::int32_t> pushes_owed;  // pushed send slots waiting for their receivers

  std::size_t slot(std::size_t channel, int neighbour_rank, const char* call) const;
  std::string slot_name(std::size_t channel, int rank) const;  // "channel 0 with rank 3"
};

void commit_plan(PlanState& plan);

}  // namespace ghostwire::detail
