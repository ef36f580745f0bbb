// SPDX-License-Identifier: BSD-3-Clause
// clover_decompose and the chunk of this rank (decompose.hpp) (see docs/cloverleaf.md,
// "Decomposition").
#include "decompose.hpp"

#include <string>

#include "usage_error.hpp"

namespace cloverleaf {
namespace {

ghostwire::Pattern<2> pattern_for(const Deck& deck, const ChunkGrid& g) {
  return ghostwire::Pattern<2>({deck.y_cells, deck.x_cells}, {ghostwire::BLOCKED, ghostwire::BLOCKED},
                               ghostwire::TeamSpec<2>({g.y, g.x}));
}

}  // namespace

ChunkGrid clover_decompose(int x_cells, int y_cells, int chunks) {
  // The reference computes the ratios in default (single) precision; so do we, so that ties and
  // near-ties fall the same way.
  ChunkGrid g;
  g.mesh_ratio = static_cast<double>(static_cast<float>(x_cells) / static_cast<float>(y_cells));
  g.x = chunks;
  g.y = 1;
  bool split_found = false;
  for (int c = 1; c <= chunks; ++c) {
    if (chunks % c != 0) continue;
    const double factor_x = static_cast<double>(static_cast<float>(chunks) / static_cast<float>(c));
    const double factor_y = c;
    if (factor_x / factor_y <= g.mesh_ratio) {
      g.y = c;
      g.x = chunks / c;
      split_found = true;
      break;
    }
  }
  if (!split_found || g.y == chunks) {  // a prime count or a 1-D split: along the longer side
    if (g.mesh_ratio >= 1.0) {
      g.x = chunks;
      g.y = 1;
    } else {
      g.x = 1;
      g.y = chunks;
    }
  }
  return g;
}

Decomposition decompose(const Deck& deck, int rank, int ranks) {
  const ChunkGrid g = clover_decompose(deck.x_cells, deck.y_cells, ranks);
  const ghostwire::Pattern<2> pattern = pattern_for(deck, g);

  // Every chunk needs 2 cells per direction: a chunk's depth-2 ghosts come from its neighbour's 2
  // outermost cells, and the reflective edge mirrors 2 cells.
  const Index x_block = pattern.local_extents(g.x - 1)[1];           // the last chunk in x is the thinnest
  const Index y_block = pattern.local_extents((g.y - 1) * g.x)[0];   // and the last in y
  if (x_block < 2 || y_block < 2) {
    const bool in_x = x_block < 2;
    const std::string keyword = in_x ? "x_cells" : "y_cells";
    const int cells = in_x ? deck.x_cells : deck.y_cells;
    const int split = in_x ? g.x : g.y;
    const Index ceil = (cells + split - 1) / split;
    const Index last = in_x ? x_block : y_block;
    throw UsageError(deck.where(keyword) + ": " + keyword + " " + std::to_string(cells) + " is too few cells for " +
                     std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + ": they make " +
                     std::to_string(g.x) + " x " + std::to_string(g.y) + " chunks, " + std::to_string(split) +
                     " along " + (in_x ? "x" : "y") + ", and ghostwire's BLOCKED split of " + std::to_string(cells) +
                     " cells into blocks of " + std::to_string(ceil) + " leaves the last chunk " +
                     std::to_string(last) + (last == 1 ? " cell" : " cells") +
                     "; every chunk needs at least 2 cells in each direction (use fewer ranks or more cells)");
  }

  Decomposition d{g, rank, ranks, rank % g.x, rank / g.x, 0, 0, 0, 0, {}, pattern};
  const ghostwire::Box<2> block = pattern.block(rank);
  d.ny = block.extent[0];
  d.nx = block.extent[1];
  d.y_offset = block.low[0];
  d.x_offset = block.low[1];
  d.neighbour[left] = d.cx > 0 ? rank - 1 : external_face;
  d.neighbour[right] = d.cx < g.x - 1 ? rank + 1 : external_face;
  d.neighbour[bottom] = d.cy > 0 ? rank - g.x : external_face;
  d.neighbour[top] = d.cy < g.y - 1 ? rank + g.x : external_face;
  return d;
}

}  // namespace cloverleaf
