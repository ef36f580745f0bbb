// SPDX-License-Identifier: BSD-3-Clause
// gw-dist-bench: the variants it compares. Each variant owns its data for one grid size and runs
// its operation `count` times per call, so the driver can time all of them side by side.
//
// halo-*    one halo exchange of a periodic n x n grid of doubles, halo width 1, faces only (the
//           Jacobi's exchange), all on the same Grid<double, 2> (SharedState):
//   halo-gw          Grid::update_halo()
//   halo-plan        the same exchange written by hand with a raw Plan (one channel per direction)
//   halo-alltoallw   MPI_Neighbor_alltoallw on a periodic Cartesian communicator, subarray types
//   halo-isend       MPI_Irecv/MPI_Isend with row and column datatypes, MPI_Waitall
// jacobi-*  a step of the 2-D heat equation (examples/heat_jacobi.cpp's kernel and initial state):
//   jacobi-gw        the example: Grid, update_halo_async, inner cells, wait, rim cells, swap
//   jacobi-gw-sync   Grid, update_halo(), all cells
//   jacobi-mpi       plain MPI: padded arrays, Irecv/Isend of the faces, inner cells, Waitall,
//                    rim cells, swap
//   jacobi-mpi-shm   the same program with its arrays in shared memory, where a Grid keeps its
//                    cells: what the kind of memory costs a memory-bound sweep
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ghostwire/dist.hpp"

namespace distbench {

using ghostwire::Index;

class Variant {
 public:
  virtual ~Variant() = default;
  virtual void run(int count) = 0;  // collective
  // Collective: every ghost cell right (halo variants) / the checksum of the final state (jacobi).
  virtual bool verify() = 0;
  virtual double checksum() { return 0.0; }
};

// What the variants of one size and repeat share: the halo variants exchange the ghost cells of
// one grid, so they run on the same memory. (Where a fresh allocation lands decides how long
// strided copies take: at 4096^2 whichever variant's grid came first in a repeat copied its columns
// 2x slower, so separate grids compared placements, not exchanges.)
struct SharedState {
  std::shared_ptr<ghostwire::Grid<double, 2>> halo_grid;  // made by the first halo variant
};

struct VariantInfo {
  std::string name;
  std::string kind;  // "halo" or "jacobi"
  std::string description;
  std::unique_ptr<Variant> (*make)(ghostwire::World& world, Index n, SharedState& shared);
};

const std::vector<VariantInfo>& variants();

// Shared by the MPI variants: a periodic Cartesian decomposition like the Grid's (row-major rank
// order, the team make_pattern chooses) and the face datatypes of a block of e0 + 2 rows of
// `padded_columns`, the owned cells starting at row 1 and column `first_column` (1 for a plain
// (e0+2) x (e1+2) array; a Grid may pad its rows).
struct MpiFaces {
  MpiFaces(MPI_Comm comm, const ghostwire::Pattern<2>& pattern, Index padded_columns = 0, Index first_column = 1);
  ~MpiFaces();
  MPI_Comm cart = MPI_COMM_NULL;
  Index extent[2] = {0, 0};
  Index padded_columns = 0;
  int neighbour[4] = {-1, -1, -1, -1};  // towards -row, +row, -column, +column
  MPI_Datatype send[4], receive[4];     // per neighbour: my face, my ghost cells on that side
  void start(double* base, MPI_Request* requests) const;  // 8 requests
};

}  // namespace distbench
