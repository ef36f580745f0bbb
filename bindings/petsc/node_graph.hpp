// SPDX-License-Identifier: BSD-3-Clause
// The node-local part of an SF's graph, both sides in PETSc's rank order, and the runs each
// direction packs and combines by (index_runs.hpp), built once per graph.
#pragma once

#include <petscsys.h>

#include <algorithm>
#include <vector>

#include "fast_path.hpp"
#include "index_runs.hpp"
#include "transfer.hpp"

namespace gwpetsc {

// Both sides of the graph, in PETSc's rank order (this rank first when it has self edges).
struct NodeGraph {
  // Leaf side: for the j-th rank holding roots of my leaves, my leaves rmine[roffset[j]..roffset[j+1]).
  std::vector<int> root_ranks;
  std::vector<PetscInt> roffset, rmine;
  // Root side: for the i-th rank with leaves on my roots, my roots irootloc[ioffset[i]..ioffset[i+1]).
  std::vector<int> leaf_ranks;
  std::vector<PetscInt> ioffset, irootloc;
  // Where each peer's units start (in units) in my message area: by leaf rank (Bcast) and by root
  // rank (Reduce). My own units are not in it (0 there): they never leave this process.
  std::vector<PetscInt> iarea, rarea;
  // Units my root and leaf arrays span (whether an operation's arrays overlap).
  PetscInt root_extent = 0, leaf_extent = 0;
  // The transfer forced (-sf_ghostwire_transfer), or automatic: the plans' choice.
  Transfer transfer = Transfer::automatic;
};

// At most this much of the peers' packed units is prefetched while my own units are combined (a
// part of the L2 cache, so that the lines are still there when they are combined).
constexpr std::size_t prefetch_bytes = 64 * 1024;

// One direction's runs (index_runs.hpp), built once per graph: packing for each peer I send to,
// combining for each peer I receive from (empty where runs do not pay: then unit by unit), and my
// own units (a self edge), combined straight from the source array into the target array.
struct DirectionRuns {
  std::vector<std::vector<Run>> pack, combine;  // by peer, in the peers' order
  int self_send = -1, self_receive = -1;        // my position among those peers, -1 if absent
  std::vector<Run> self;                        // source index -> target index
  std::vector<std::size_t> send_runs;           // runs of my units for each peer I send to (one iovec each)
};

// One side of a direction (the senders' or the receivers' of Bcast or Reduce): the peers, and each
// one's units (offset) at indices (index) in my array.
struct Side {
  const std::vector<int>& peers;
  const std::vector<PetscInt>& offset;
  const std::vector<PetscInt>& index;
  const std::vector<PetscInt>& area;  // where each peer's units go in my message area
  PetscInt units(std::size_t p) const { return offset[p + 1] - offset[p]; }
  int position_of(int rank) const {
    auto at = std::find(peers.begin(), peers.end(), rank);
    return at == peers.end() ? -1 : static_cast<int>(at - peers.begin());
  }
};

// The side that sends in `direction` (my roots by leaf rank in Bcast, my leaves by root rank in
// Reduce) and the side that receives.
Side sending_side(const NodeGraph& g, Direction direction);
Side receiving_side(const NodeGraph& g, Direction direction);

DirectionRuns runs_of_direction(const NodeGraph& g, Direction direction, int me);

}  // namespace gwpetsc
