// SPDX-License-Identifier: BSD-3-Clause
// Node-shared memory: one MPI shared window over a node's communicator. Segments (segment.cpp) and
// the reduction area (allreduce.cpp) both allocate through here. Invariant: parts[r] is aligned to
// `alignment`, holds at least the requested bytes, and is the same memory in every process of the
// node. docs/runtime.md, "Segments".
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace ghostwire::detail {

struct NodeSharedWindow {
  MPI_Win window = MPI_WIN_NULL;
  std::vector<std::byte*> parts;  // every rank's aligned part, by rank in the node communicator
};

// Collective over `node_comm`: every rank allocates `bytes` (`alignment` more, since MPI does not
// promise alignment; mappings keep the offset within a page, so every process finds the same
// aligned start for a peer's part). `noncontiguous`: let MPI place each part on pages of its own
// (alloc_shared_noncontig), so the owner's first touch decides where its part lives.
NodeSharedWindow allocate_node_shared(MPI_Comm node_comm, std::size_t bytes, std::size_t alignment,
                                      bool noncontiguous);

}  // namespace ghostwire::detail
