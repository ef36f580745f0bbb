// SPDX-License-Identifier: BSD-3-Clause
// The reference's decomposition (clover.f90, clover_decompose): the chunk grid whose shape is
// closest to the mesh's (fewest chunk faces), chunks numbered x fastest (rank = cy * chunks_x + cx),
// and this rank's chunk, its neighbours and which of its faces are the mesh's edge.
//
// The chunks are the blocks of a ghostwire Pattern (BLOCKED over TeamSpec {chunks_y, chunks_x}; Grid
// dimension 0 is y, 1 is x). When the cells do not divide evenly, BLOCKED gives every chunk
// ceil(cells / chunks) cells and the last ones the rest, where the reference gives the first
// chunks one more cell than the others (10 cells over 4 chunks: 3 3 3 1 here, 3 3 2 2 there). The
// cells' values do not depend on the split; only the order of the field summary's sums does (the
// last digits), so results still agree with the reference's to far better than 1e-9.
//
// See docs/cloverleaf.md, "Decomposition".
#pragma once

#include <array>

#include <ghostwire/dist.hpp>

#include "deck.hpp"

namespace cloverleaf {

using ghostwire::Index;

struct ChunkGrid {
  int x = 1, y = 1;
  double mesh_ratio = 1.0;  // as the reference computes it (single precision), for clover.out
};

// clover_decompose's choice of chunk grid for `chunks` ranks.
ChunkGrid clover_decompose(int x_cells, int y_cells, int chunks);

enum Face : int { left = 0, right = 1, bottom = 2, top = 3 };
inline constexpr int external_face = -1;

struct Decomposition {
  ChunkGrid chunks;
  int rank = 0, ranks = 1;
  int cx = 0, cy = 0;                  // this chunk's position in the chunk grid
  Index nx = 0, ny = 0;                // its cells
  Index x_offset = 0, y_offset = 0;    // global index (0-based) of its first cell
  std::array<int, 4> neighbour{};      // rank of the chunk across each Face, or external_face
  ghostwire::Pattern<2> pattern;       // {y_cells, x_cells} over {chunks.y, chunks.x}

  bool external(Face f) const { return neighbour[f] == external_face; }
  bool any_external() const {
    return external(left) || external(right) || external(bottom) || external(top);
  }
};

// Throws UsageError naming the deck's x_cells / y_cells lines when a chunk would get fewer than 2
// cells in a direction (a depth-2 halo needs 2 owned cells on each side).
Decomposition decompose(const Deck& deck, int rank, int ranks);

}  // namespace cloverleaf
