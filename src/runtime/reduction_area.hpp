// SPDX-License-Identifier: BSD-3-Clause
// The shared memory behind ghostwire::allreduce: per rank of a node, two slots (alternating
// between calls) of an epoch word and the values, in a window over the node. Made at the first
// allreduce (collective), freed with the World. docs/runtime.md, "Reductions".
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ghostwire::detail {

struct WorldState;

struct ReductionArea {
  static constexpr std::size_t capacity_bytes = 4096;  // per slot; larger reductions use MPI
  static constexpr std::size_t line = 64;
  // A slot: the epoch word, then the values right after it, so that a reader of a few values
  // takes one cache line from the writer's core, not two. The node's first rank has a second pair
  // of slots for the node result when there are several nodes.
  static constexpr std::size_t values_offset = 8;
  static constexpr std::size_t slot_bytes = line * ((values_offset + capacity_bytes + line - 1) / line);
  static constexpr std::size_t part_bytes = 4 * slot_bytes;

  MPI_Win window = MPI_WIN_NULL;
  MPI_Comm leaders = MPI_COMM_NULL;  // the first rank of every node (null on the others)
  std::vector<std::byte*> parts;     // by node rank
  std::uint64_t epoch = 0;           // calls so far

  explicit ReductionArea(WorldState& world);
  ~ReductionArea();
  ReductionArea(const ReductionArea&) = delete;
  ReductionArea& operator=(const ReductionArea&) = delete;

  // Slot `which` (0, 1: contributions; 2, 3: the node result) of node rank `node_rank`.
  std::byte* slot(int node_rank, int which) const {
    return parts[static_cast<std::size_t>(node_rank)] + static_cast<std::size_t>(which) * slot_bytes;
  }
};

}  // namespace ghostwire::detail
