// SPDX-License-Identifier: BSD-3-Clause
// Around the fast path's messages between node peers: the edges between nodes,
// which go through `remote`, a basic SF of only those edges (Begin before the node peers' messages
// leave, End after their units are combined; leaves of the two SFs are distinct, a root may be
// combined from both, node peers first), and whether an operation writes where it reads.
#pragma once

#include <petscsf.h>

#include <cstddef>

#include "fast_path.hpp"
#include "node_graph.hpp"

namespace gwpetsc {

// Both do nothing when `remote` is null (no rank has an edge to another node).
PetscErrorCode remote_begin(PetscSF remote, Direction direction, MPI_Datatype unit, PetscMemType rootmtype,
                            const void* rootdata, PetscMemType leafmtype, const void* leafdata, MPI_Op op);
PetscErrorCode remote_end(PetscSF remote, Direction direction, MPI_Datatype unit, const void* rootdata,
                          const void* leafdata, MPI_Op op);

// Whether the root and leaf arrays of an operation overlap (units of `unit_bytes`).
bool arrays_overlap(const NodeGraph& g, const void* rootdata, const void* leafdata, std::size_t unit_bytes);

}  // namespace gwpetsc
