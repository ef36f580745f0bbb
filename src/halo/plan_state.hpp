// SPDX-License-Identifier: BSD-3-Clause
// What a Plan holds: the user's description (regions, pieces per slot) and, after commit, one
// record per slot in use (slot.hpp) with its path, the memory and MPI objects every path shares, and
// each path type's own plan-wide state. docs/internals/paths.md.
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
struct CombinedSend;
struct CombinedReceive;
struct ReverseState;

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

// How one direction of a (channel, neighbour) is cut into partitions (Plan::partition_send and
// partition_receive): explicit element counts in message order, else `count` parts as equal as can be.
struct PartitionSpec {
  std::size_t count = 1;
  std::vector<std::size_t> elements;
};

// Who drives one direction of one slot (a partition's, when partitioned) right now: the tag of the
// thread inside a call on it, 0 if none (halo/slot_use.hpp). A line each, so threads driving
// neighbouring slots do not share one.
struct alignas(64) SlotUse {
  std::atomic<std::uintptr_t> holder{0};
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
  // One message per pair of nodes: asked for by the settings or Plan::aggregate (the aggregated
  // path decides at commit).
  Aggregation aggregation = Aggregation::automatic;
  bool aggregation_chosen_by_plan = false;
  // The path between node peers this plan takes where it can (Plan::intra_path); empty: as the
  // World's settings say (GHOSTWIRE_INTRA_PATH).
  std::string intra_path;
  // The reverse exchange (halo/reverse.hpp): asked for before commit, built by it; null without.
  bool reverse_wanted = false;
  std::unique_ptr<ReverseState> reverse;

  // Partitions (halo/partitions.cpp). Until commit by the user's slot, n * user_channels + c. From
  // commit on, when some channel of some rank has several partitions, the plan's own channels are
  // the partitions: the user's channel c is channels [partition_base[c], partition_base[c + 1]), the
  // same on every rank; partition_base is empty when no channel is partitioned (channels is then
  // user_channels).
  std::size_t user_channels = 1;
  std::vector<PartitionSpec> send_partition_specs, receive_partition_specs;
  std::vector<std::size_t> partition_base;
  std::vector<std::size_t> user_channel_of;  // by plan channel
  std::vector<std::uint32_t> send_partition_count, receive_partition_count;  // by user slot, from commit
  // By user slot: its partitions travel as one message (between nodes; halo/combined_partitions.hpp),
  // and the state of such messages (SendSlot::combined indexes these).
  std::vector<std::uint8_t> send_combined, receive_combined;
  std::vector<std::vector<std::size_t>> send_cut, receive_cut;  // a combined message's partitions' elements
  std::vector<std::unique_ptr<CombinedSend>> combined_sends;
  std::vector<std::unique_ptr<CombinedReceive>> combined_receives;

  // Threads (halo/slot_use.hpp): the thread in each direction of each slot now, by the index of the
  // slot's (or partition's) first part in sends and receives, and the thread in a call for the
  // whole plan (start, finish, exchange).
  std::unique_ptr<SlotUse[]> send_use, receive_use;
  std::atomic<std::uintptr_t> whole_plan_holder{0};
  bool reaches_mpi = false;  // some slot travels between nodes, or waits serve the world's transport

  // Made at commit.
  MPI_Comm comm = MPI_COMM_NULL;     // the plan's own communicator (commit, message paths)
  std::unique_ptr<Segment> segment;  // counters, the slots' shared memory, notifications
  std::vector<std::byte> private_memory;  // the slots' private memory (commit/message_memory.hpp)
  // Each registered path type's plan-wide state (path.hpp), by its registry index; null where it
  // keeps none. `progressing`: those with work owed (PathPlanState::has_progress).
  std::vector<std::unique_ptr<PathPlanState>> path_states;
  std::vector<PathPlanState*> progressing;
  std::string transport_reason;  // how slots between nodes travel and why (describe(); mpi_messages.hpp)
  // Waits must serve the world's transport (some slot's path is served by the world's progress).
  bool needs_world_progress = false;
  // Polls before a wait yields: the world's peer budget when every slot is a node peer's.
  std::uint64_t spin_polls = 1;

  std::vector<std::int32_t> send_slot_of, receive_slot_of;  // slot -> index of its first part below
  std::vector<SendSlot> sends;
  std::vector<ReceiveSlot> receives;
  // In the order start() and finish() take them (commit's order_slots); by the user's channel.
  std::vector<std::vector<std::int32_t>> sends_of_channel, receives_of_channel;
  std::vector<std::int32_t> all_sends, all_receives;
  std::vector<std::int32_t> pending;      // scratch for finish()

  // Before commit: the slot of the user's (channel, neighbour). After commit: use user_slot.
  std::size_t slot(std::size_t channel, int neighbour_rank, const char* call) const;
  // From commit on: the plan's slot of partition 0 of the user's (channel, neighbour); its other
  // partitions follow it (checked: Errc::out_of_range for a channel or rank not in the plan).
  std::size_t user_slot(std::size_t channel, int neighbour_rank, const char* call) const;
  std::size_t partitions(bool sending, std::size_t channel, int neighbour_rank) const;
  // "channel 0 with rank 3", "channel 0 (partition 2) with rank 3": `channel` is the plan's own.
  std::string slot_name(std::size_t channel, int rank) const;
  std::string channel_name(std::size_t channel) const;  // "channel 0", "channel 0 (partition 2)"
};

void commit_plan(PlanState& plan);

}  // namespace ghostwire::detail
