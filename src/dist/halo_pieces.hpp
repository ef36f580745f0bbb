// Which cells fill which ghost cells: the geometry of a halo update, from the pattern alone.
//
// A rank's ghost cells are cut by direction (the 3^N - 1 sides, edges and corners of its block;
// faces only for Stencil::faces) and, within a direction, by the owners of the cells they mirror
// (several owners when the halo is wider than a neighbour's block; periodic wrap-around when the
// boundary is periodic; none beyond an open boundary). Sender and receiver both derive the pieces
// of a message from the receiver's ghost_pieces, so both list them in the same order.
#pragma once

#include <vector>

#include "ghostwire/dist/grid.hpp"
#include "ghostwire/dist/pattern_core.hpp"

namespace ghostwire::detail {

struct GhostPiece {
  int sender = -1;
  Index receiver_low[3] = {0, 0, 0};  // receiver's local coordinates (ghost cells)
  Index sender_low[3] = {0, 0, 0};    // sender's local coordinates (owned cells)
  Index extent[3] = {1, 1, 1};
};

// Appends the pieces of `receiver`'s ghost cells, in the canonical order.
void ghost_pieces(const PatternCore& pattern, const HaloSpec& halo, int receiver, std::vector<GhostPiece>& out);

// The ranks whose ghost cells may mirror cells of `sender` (a superset; ascending).
std::vector<int> possible_receivers(const PatternCore& pattern, const HaloSpec& halo, int sender);

}  // namespace ghostwire::detail
